package faultbed.harness.mini;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.Cluster;
import faultbed.harness.Pin;
import faultbed.harness.RunSpec;
import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.classify.Classification;
import faultbed.results.classify.DinuNgClassifier;
import faultbed.results.classify.DinuNgGroup;
import faultbed.results.classify.Mechanism;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The AM and the reduces pinned by YARN node labels on a real mini cluster: a run places them where
 * the record says, and one seed chooses the same nodes again; maps still use the pinned nodes; and a crash of the
 * AM's node moves its label so the second AM attempt has somewhere to run, and is recorded and
 * classified as the loss of the job's AM.
 */
@Faultbed(nodes = 4, hadoop = {
    "yarn.nm.liveness-monitor.expiry-interval-ms=15000",
    "yarn.client.nodemanager-connect.max-wait-ms=10000",
    "yarn.client.nodemanager-connect.retry-interval-ms=2000",
    "mapreduce.reduce.shuffle.connect.timeout=3000"})
class PinnedNodesClusterTest {
  private static final Workload SORT = Workloads.sort(16L << 20).withMaps(8).withReduces(2);
  private static final java.util.Set<Pin> BOTH = java.util.EnumSet.of(Pin.AM, Pin.REDUCES);

  @Test
  void aRunOfOneSeedPlacesTheAmAndTheReducesOnTheChosenNodes(MiniCluster cluster, Recorder recorder) {
    RunRecord run = recorder.save(cluster.run(new RunSpec("pinned", "a", 0, 7L, 1L, SORT, Timeline.none())
        .withPinned(BOTH)));
    assertTrue(run.job().succeeded(), "job: " + run.job());
    RunRecord.Placement p = run.placement();
    assertNotNull(p, "the record says where the run pinned its parts");
    assertNotNull(p.applicationMaster());
    // two reduces fit the two slots of one node, never the AM's (a node carries one label)
    assertEquals(1, p.reduces().size(), "reduce nodes: " + p);
    assertFalse(p.reduces().contains(p.applicationMaster()), "placement: " + p);
    assertTrue(p.moves().isEmpty(), "no fault, no move: " + p);
    for (RunRecord.AmAttempt am : run.amAttempts()) {
      assertEquals(p.applicationMaster(), am.node(), "AM attempt " + am);
    }
    for (AttemptRecord a : run.attempts()) {
      if (a.type().equals("REDUCE")) {
        assertTrue(p.reduces().contains(a.node()), "reduce " + a.attemptId() + " ran on node " + a.node()
            + ", pinned to " + p.reduces());
      }
    }
    // the labels are non-exclusive: maps still use a pinned node's free slots
    assertTrue(run.attempts().stream().anyMatch(a -> a.type().equals("MAP")
        && (p.reduces().contains(a.node()) || p.applicationMaster().equals(a.node()))),
        "no map ran on a pinned node: " + run.attempts());

    // one seed, one placement: the nodes chosen again for the seed are the same, so a variant's runs
    // and its rival's of one seed lose the same roles' nodes
    cluster.reset();
    assertEquals(p, cluster.pin(BOTH, 7L, 2).placement(), "one seed, one placement");
    assertFalse(cluster.resourceManager().getRMContext().getNodeLabelManager().getNodeLabels().isEmpty());

    // a run that pins nothing finds no label left: every node in the default partition
    cluster.reset();
    assertEquals(faultbed.harness.PinnedNodes.NONE, cluster.pin(java.util.EnumSet.noneOf(Pin.class), 7L, 1));
    assertEquals(java.util.Map.of(), cluster.resourceManager().getRMContext().getNodeLabelManager().getNodeLabels(),
        "labels left on nodes");
  }

  /**
   * The loss of the job's ApplicationMaster, as the published am-crash scenario has it (which
   * ci/extended runs end to end, with its delay account): the AM's node crashes once two maps run,
   * before any has finished and before the first AM has written any history. The record holds both
   * AM attempts and the task attempts of each, and classify calls it AM lost.
   */
  @Test
  void aCrashOfTheAmsNodeMovesItsLabelAndTheSecondAttemptRunsThere(Cluster cluster, Recorder recorder) {
    RunRecord run = recorder.save(cluster.run(new RunSpec("pinned", "crash", 1, 11L, 1L, SORT,
        Timeline.when(JobEvent.mapsRunning(2)).inject(NodeCrash.on(Target.applicationMaster()))).withPinned(BOTH)));
    assertTrue(run.job().succeeded(), "job: " + run.job() + " notes " + run.notes());
    RunRecord.FaultEvent crash = run.faults().get(0);
    assertNotNull(crash.injectedMs(), run.notes().toString());
    RunRecord.Placement p = run.placement();
    assertEquals(p.applicationMaster(), crash.node(), "the crash hit the pinned AM's node: " + p);
    assertEquals(1, p.moves().size(), "moves: " + p);
    RunRecord.Placement.Move move = p.moves().get(0);
    assertEquals("am", move.part());
    assertEquals(p.applicationMaster().intValue(), move.from());
    assertNotNull(move.to(), "a spare node took the AM's label");
    assertFalse(p.reduces().contains(move.to()), "the spare is not a reduce node: " + p);
    assertEquals(2, run.amAttempts().size(), "AM attempts: " + run.amAttempts());
    assertEquals(crash.node(), run.amAttempts().get(0).node(), "the first AM ran on the crashed node");
    assertEquals(move.to(), run.amAttempts().get(1).node(), "the second AM ran where the label moved");
    assertTrue(run.amAttempts().get(1).startMs() > crash.injectedMs());

    // The first AM died before any of its attempts ended, so its history is empty: its attempts come
    // from its log, each with its node, container and launch, none with an end state, launched
    // before the second AM started.
    long secondAm = run.amAttempts().get(1).startMs();
    List<AttemptRecord> first = run.attempts().stream().filter(a -> a.amAttempt() == 1).toList();
    assertTrue(first.size() >= 2, "attempts running when the first AM died: " + run.attempts());
    for (AttemptRecord a : first) {
      assertTrue(a.state() == null && a.finishMs() == null && a.node() != null && a.container() != null
          && a.startMs() != null && a.startMs() > 0 && a.startMs() < secondAm, a.toString());
    }
    assertTrue(run.notes().stream().anyMatch(n -> n.contains("taken from their AM's log")), run.notes().toString());
    assertTrue(run.attempts().stream().anyMatch(a -> a.amAttempt() == 2 && a.startMs() > secondAm),
        "the second AM ran attempts of its own");
    assertTrue(run.attempts().stream().allMatch(a -> a.amAttempt() != null));
    assertTrue(run.attempts().stream().noneMatch(a -> a.state() == null && a.amAttempt() == 2),
        "every attempt of the last AM ended: " + run.attempts());

    Classification c = DinuNgClassifier.classify(run);
    String evidence = String.join("\n", c.evidence());
    assertEquals(DinuNgGroup.AM_LOST, c.group(), evidence);
    assertTrue(c.mechanisms().contains(Mechanism.AM_RESTARTED), evidence);
    assertTrue(evidence.contains("the job's ApplicationMaster (attempt 1) ran on the failed node " + crash.node()), evidence);
  }
}
