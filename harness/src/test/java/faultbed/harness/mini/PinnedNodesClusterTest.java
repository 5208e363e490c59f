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
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The AM and the reduces pinned by YARN node labels on a real mini cluster: two runs of one seed
 * place them alike, where the record says; maps still use the pinned nodes; and a crash of the
 * AM's node moves its label so the second AM attempt has somewhere to run.
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
  void runsOfOneSeedPlaceTheAmAndTheReducesOnTheSameChosenNodes(MiniCluster cluster, Recorder recorder) {
    RunRecord first = recorder.save(cluster.run(new RunSpec("pinned", "a", 0, 7L, 1L, SORT, Timeline.none())
        .withPinned(BOTH)));
    cluster.reset();
    RunRecord second = recorder.save(cluster.run(new RunSpec("pinned", "b", 0, 7L, 1L, SORT, Timeline.none())
        .withPinned(BOTH)));
    for (RunRecord run : java.util.List.of(first, second)) {
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
    }
    assertEquals(first.placement(), second.placement(), "one seed, one placement");

    // a run that pins nothing finds no label left: every node in the default partition
    cluster.reset();
    RunRecord unpinned = recorder.save(cluster.run(new RunSpec("pinned", "none", 0, 7L, 1L,
        Workloads.sort(1L << 20).withMaps(1).withReduces(1), Timeline.none())));
    assertTrue(unpinned.job().succeeded(), "job: " + unpinned.job());
    assertEquals(null, unpinned.placement());
    assertEquals(java.util.Map.of(), cluster.resourceManager().getRMContext().getNodeLabelManager().getNodeLabels(),
        "labels left on nodes");
  }

  @Test
  void aCrashOfTheAmsNodeMovesItsLabelAndTheSecondAttemptRunsThere(Cluster cluster, Recorder recorder) {
    RunRecord run = recorder.save(cluster.run(new RunSpec("pinned", "crash", 1, 11L, 1L, SORT,
        Timeline.at(Duration.ofSeconds(6)).inject(NodeCrash.on(Target.applicationMaster()))).withPinned(BOTH)));
    assertTrue(run.job().succeeded(), "job: " + run.job() + " notes " + run.notes());
    RunRecord.Placement p = run.placement();
    assertEquals(p.applicationMaster(), run.faults().get(0).node(), "the crash hit the pinned AM's node: " + p);
    assertEquals(1, p.moves().size(), "moves: " + p);
    RunRecord.Placement.Move move = p.moves().get(0);
    assertEquals("am", move.part());
    assertEquals(p.applicationMaster().intValue(), move.from());
    assertNotNull(move.to(), "a spare node took the AM's label");
    assertFalse(p.reduces().contains(move.to()), "the spare is not a reduce node: " + p);
    assertTrue(run.amAttempts().size() >= 2, "AM attempts: " + run.amAttempts());
    assertEquals(move.to(), run.amAttempts().get(run.amAttempts().size() - 1).node(),
        "the last AM attempt ran where the label moved: " + run.amAttempts());
  }
}
