package faultbed.harness.mini;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.results.RunRecord;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The mini cluster with its shuffle served through Toxiproxy: each node advertises its proxy's
 * port, so reducers fetch through it, and network faults act there. Needs a Toxiproxy server
 * (Docker, or FAULTBED_TOXIPROXY_URL); without one each test is skipped and says why.
 */
@Faultbed(nodes = 4, network = "toxiproxy", hadoop = {
    "mapreduce.job.reduce.slowstart.completedmaps=1.0",
    "yarn.nm.liveness-monitor.expiry-interval-ms=30000",
    "yarn.client.nodemanager-connect.max-wait-ms=10000",
    "yarn.client.nodemanager-connect.retry-interval-ms=2000",
    "mapreduce.reduce.shuffle.connect.timeout=15000"})
class ToxiproxyClusterTest {
  @Test
  void eachNodeAdvertisesItsProxyAndACapThereSlowsTheShuffleFromIt(MiniCluster cluster, Recorder recorder) {
    for (MiniNode node : cluster.nodes()) {
      assertNotEquals(node.shufflePort(), node.advertisedShufflePort(), node + " advertises a proxy");
    }
    RunRecord capped = NetworkFaultsClusterTest.capSlowsTheShuffle(cluster, recorder);
    assertEquals("mini+toxiproxy", capped.cluster().backend());
    RunRecord.FaultEvent cap = capped.faults().get(0);
    assertEquals("toxiproxy", cap.detail().get("network"));
    MiniNode capNode = cluster.nodes().get(cap.node());
    assertEquals(List.of(capNode.shufflePort()).toString(), cap.detail().get("ports"), "only the proxied shuffle port");
  }

  // The cap above proves the proxies in the test command, and the namespace backend a killed node's
  // refused fetches; a proxy's refusal after a crash runs with ci/extended.
  @Test
  @Tag("extended")
  void aCrashedNodesProxyRefusesAndFetchesFromItAreReported(MiniCluster cluster, Recorder recorder) {
    RunRecord crashed = recorder.save(cluster.run(NetworkFaultsClusterTest.SORT,
        Timeline.when(NetworkFaultsClusterTest.MAPS_DONE).inject(NodeCrash.on(Target.holdingMapOutputs().sparingApplicationMaster()))));
    assertFalse(crashed.fetchFailures().isEmpty(), "fetches from the dead node's proxy are reported");
    assertTrue(crashed.job().succeeded() || String.valueOf(crashed.job().diagnostics())
        .contains("Invalid event TA_TOO_MANY_FETCH_FAILURE"), crashed.job().toString());
  }

  /**
   * A node that dies without a word: its proxy holds every connection (a timeout toxic) and keeps
   * listening after the crash, so nothing is reported before the node expires, as with the
   * kernel's rules.
   */
  @Test
  @Tag("extended") // the same mechanism in the test command: see ci/extended
  void aSilentCrashLeavesFetchersWaitingUntilTheNodeExpires(MiniCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(NetworkFaultsClusterTest.SORT, Timeline.when(NetworkFaultsClusterTest.MAPS_DONE)
        .inject(NodeCrash.on(Target.holdingMapOutputs().sparingApplicationMaster()).withoutRst())));
    RunRecord.FaultEvent crash = r.faults().get(0);
    assertEquals("toxiproxy", crash.detail().get("network"), crash.detail().toString());
    long lost = r.node(crash.node()).lostAt().orElseThrow(() -> new AssertionError("node never LOST"));
    assertTrue(r.fetchFailures().stream().noneMatch(f -> f.atMs() < lost),
        "the proxy holds every fetch, so nothing is reported before expiry: " + r.fetchFailures());
    assertTrue(r.job().succeeded(), r.job().toString());
  }
}
