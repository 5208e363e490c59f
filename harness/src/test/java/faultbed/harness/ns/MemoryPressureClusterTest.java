package faultbed.harness.ns;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.MemoryPressure;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A node's memory limited to what it holds and 64 MB more, then a 256 MB hog the OOM killer spares:
 * the kernel must kill one of the node's own processes, and the run shows which and how Hadoop
 * noticed. Where it killed the node process (NodeManager and DataNode), the AM's clean-up of that
 * node's containers retries the dead NodeManager for {@code yarn.client.nodemanager-connect.max-wait-ms}
 * (3 min by default) before their attempts run again; 10 s here.
 */
@Faultbed(backend = "namespace", nodes = 3, hadoop = {
    "yarn.nm.liveness-monitor.expiry-interval-ms=15000",
    "yarn.client.nodemanager-connect.max-wait-ms=10000",
    "yarn.client.nodemanager-connect.retry-interval-ms=2000",
    "mapreduce.map.speculative=false",
    "mapreduce.reduce.speculative=false"})
class MemoryPressureClusterTest {
  static final Workload MAPS_OF_20S = Workloads.synthetic(6, 1).withMapMillis(20_000);

  @Test
  void theOomKillerTakesOneOfTheNodesOwnProcessesAndHadoopNotices(NamespaceCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(MAPS_OF_20S, Timeline.when(JobEvent.mapsRunning(3)).inject(
        MemoryPressure.withHeadroom(Target.mostMaps().sparingApplicationMaster(), 64L << 20, 256L << 20,
            Duration.ofSeconds(30)))));
    RunRecord.FaultEvent pressure = r.faults().get(0);
    assertNotNull(pressure.injectedMs(), "made: " + r.notes());
    boolean attemptKilled = r.attempts().stream().anyMatch(a -> a.node() != null && a.node() == pressure.node()
        && a.error() != null && a.error().contains("137"));
    boolean nodeLost = r.node(pressure.node()).lostAt().isPresent();
    assertTrue(attemptKilled || nodeLost, "an attempt killed (exit 137) or the node lost: " + r.attempts() + " "
        + r.nodeTransitions() + " " + pressure.detail());
    assertTrue(r.job().succeeded(), r.job().toString());
    // a node whose process the OOM killer took is brought back by the reset, as a crashed one is
    NamespaceNode struck = cluster.nodes().get(pressure.node());
    String before = struck.nodeId();
    cluster.reset();
    assertTrue(!nodeLost || !before.equals(struck.nodeId()), "a new generation after the reset: " + struck.nodeId());
  }
}
