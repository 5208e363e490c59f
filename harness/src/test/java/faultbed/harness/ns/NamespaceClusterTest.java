package faultbed.harness.ns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import faultbed.harness.daemons.NodeFailureChecks;
import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Nodes as machines: each its own process tree, address and network stack. Faults fire when every
 * map is done and reducers (which start only then) must fetch from the failed node.
 */
@Faultbed(backend = "namespace", nodes = 4, hadoop = {
    "mapreduce.job.reduce.slowstart.completedmaps=1.0",
    "yarn.nm.liveness-monitor.expiry-interval-ms=30000",
    "yarn.client.nodemanager-connect.max-wait-ms=10000",
    "yarn.client.nodemanager-connect.retry-interval-ms=2000",
    "mapreduce.reduce.shuffle.connect.timeout=15000"})
class NamespaceClusterTest {
  static final Workload SORT = Workloads.sort(24L << 20).withMaps(6).withReduces(2);
  static final JobEvent MAPS_DONE = JobEvent.mapsCompleted(6);

  @Test
  void aKilledNodeRefusesConnectionsAndFetchesFromItAreReportedBeforeExpiry(NamespaceCluster cluster,
      Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(SORT,
        Timeline.when(MAPS_DONE).inject(NodeCrash.on(Target.holdingMapOutputs().sparingApplicationMaster()))));
    NodeFailureChecks.killedNodeRefusedAndReported(r, cluster.nodes(), "namespace");
  }

  // The containers backend's node is this node inside Docker, and the test command crashes one of
  // them silently (ContainerClusterTest); here it runs with ci/extended.
  @Test
  @Tag("extended")
  void aWholeNodeFailureAnswersNothingWithoutAnyPacketFilterRule(NamespaceCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(SORT, Timeline.when(MAPS_DONE)
        .inject(NodeCrash.on(Target.holdingMapOutputs().sparingApplicationMaster()).withoutRst())));
    RunRecord.FaultEvent crash = r.faults().get(0);
    // no rule anywhere: the host has no rule of this harness, the node's namespace no rule
    assertFalse(sh(List.of("iptables", "-w", "-S")).contains("faultbed " + cluster.owner()));
    NamespaceNode dead = cluster.nodes().get(crash.node());
    assertFalse(sh(faultbed.faults.NodeNetwork.inside(dead.namespace(), List.of("iptables", "-w", "-S"))).contains("DROP"));
    NodeFailureChecks.silentNodeWaitedForThenBack(r, cluster, "namespace");
  }

  private static String sh(List<String> command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      assertEquals(0, p.waitFor(), command + ": " + out);
      return out;
    } catch (java.io.IOException | InterruptedException e) {
      throw new AssertionError(command + " failed", e);
    }
  }
}
