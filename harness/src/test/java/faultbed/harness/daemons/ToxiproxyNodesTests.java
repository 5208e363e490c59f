package faultbed.harness.daemons;

import faultbed.harness.AbstractCluster;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A backend whose nodes have addresses of their own, with each node's shuffle behind a Toxiproxy
 * server inside the node's network, so network faults act on the proxy. A subclass names the
 * backend in its {@code @Faultbed}. The silent crash goes first: the reset after it makes the dead
 * node's proxy anew, which the crash after it may then use.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public abstract class ToxiproxyNodesTests {
  static final Workload SORT = Workloads.sort(24L << 20).withMaps(6).withReduces(2);
  static final JobEvent MAPS_DONE = JobEvent.mapsCompleted(6);

  /** The backend's name, as its records give it without the network. */
  protected abstract String backend();

  @Test
  @Order(1)
  void aSilentCrashIsHeldByTheNodesProxyUntilTheNodeExpires(AbstractCluster<? extends ProcessNode<?>> cluster,
      Recorder recorder) {
    NodeFailureChecks.shuffleThroughProxies(cluster.nodes());
    RunRecord r = recorder.save(cluster.run(SORT, Timeline.when(MAPS_DONE)
        .inject(NodeCrash.on(Target.holdingMapOutputs().sparingApplicationMaster()).withoutRst())));
    NodeFailureChecks.silencedByItsProxyThenBack(r, cluster, backend());
  }

  @Test
  @Order(2)
  void aKilledNodesProxyRefusesAndFetchesFromItAreReportedBeforeExpiry(
      AbstractCluster<? extends ProcessNode<?>> cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(SORT,
        Timeline.when(MAPS_DONE).inject(NodeCrash.on(Target.holdingMapOutputs().sparingApplicationMaster()))));
    NodeFailureChecks.killedNodeRefusedAndReported(r, cluster.nodes(), backend() + "+toxiproxy");
  }
}
