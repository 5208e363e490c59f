package faultbed.harness.daemons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.AbstractCluster;
import faultbed.results.RunRecord;
import java.util.List;

/** What a crash must look like on every backend whose nodes are processes at addresses of their own. */
public final class NodeFailureChecks {
  private NodeFailureChecks() {}

  /** A killed node refused connections, and its fetches were reported before it expired. */
  public static void killedNodeRefusedAndReported(RunRecord r, List<? extends ProcessNode<?>> nodes, String backend) {
    assertEquals(backend, r.cluster().backend());
    for (ProcessNode<?> n : nodes) {
      assertTrue(n.nodeId().startsWith(n.address() + ":"), "the RM knows the node by its own address: " + n.nodeId());
    }
    assertTrue(r.attempts().stream().map(RunRecord.AttemptRecord::node).filter(java.util.Objects::nonNull)
        .distinct().count() >= 2, "attempts ran on several nodes and are placed by address: " + r.attempts());
    RunRecord.FaultEvent crash = r.faults().get(0);
    assertEquals("refused", crash.detail().get("shufflePortAfterCrash"), crash.detail().toString());
    assertTrue(Integer.parseInt(crash.detail().get("processesKilled")) >= 1, "the node process itself dies");
    assertFalse(r.fetchFailures().isEmpty(), "fetches from the killed node are reported");
    long lost = r.node(crash.node()).lostAt().orElse(Long.MAX_VALUE);
    assertTrue(r.fetchFailures().get(0).atMs() < lost, "reported before expiry: " + r.fetchFailures());
    assertTrue(r.job().succeeded() || String.valueOf(r.job().diagnostics())
        .contains("Invalid event TA_TOO_MANY_FETCH_FAILURE"), r.job().toString());
  }

  /**
   * A node that died without a word (its network named {@code network}) went LOST before anything
   * was reported, the maps re-ran, and a reset brings it back as a new generation at its address.
   */
  public static void silentNodeWaitedForThenBack(RunRecord r, AbstractCluster<? extends ProcessNode<?>> cluster,
      String network) {
    RunRecord.FaultEvent crash = r.faults().get(0);
    assertEquals(network, crash.detail().get("network"));
    assertEquals("no answer", crash.detail().get("shufflePortAfterCrash"), crash.detail().toString());
    long lost = r.node(crash.node()).lostAt().orElseThrow(() -> new AssertionError("node never LOST"));
    assertTrue(r.fetchFailures().stream().noneMatch(f -> f.atMs() < lost),
        "nothing answers, so nothing is reported before expiry: " + r.fetchFailures());
    assertTrue(r.attempts().stream().filter(a -> a.type().equals("MAP") && a.attempt() > 0)
        .allMatch(a -> a.startMs() >= lost), "maps re-run only after LOST");
    assertTrue(r.job().succeeded(), r.job().toString());

    backAfterReset(cluster, crash.node());
  }

  /** A reset brings the dead node back as a new generation at its address. */
  private static void backAfterReset(AbstractCluster<? extends ProcessNode<?>> cluster, int node) {
    ProcessNode<?> dead = cluster.nodes().get(node);
    String oldId = dead.nodeId();
    cluster.reset();
    assertTrue(dead.isUp());
    assertNotEquals(oldId, dead.nodeId(), "a new generation registers anew");
    assertTrue(dead.nodeId().startsWith(dead.address() + ":"), "at the same address: " + dead.nodeId());
  }

  /**
   * Each node binds its shuffle on the fixed port and tells reducers the port of the proxy beside
   * it, on its own address.
   */
  public static void shuffleThroughProxies(List<? extends ProcessNode<?>> nodes) {
    for (ProcessNode<?> n : nodes) {
      assertEquals(HarnessDaemons.SHUFFLE_PORT, n.shufflePort(), n.nodeId());
      assertEquals(HarnessDaemons.SHUFFLE_PROXY_PORT, n.advertisedShufflePort(), n.nodeId());
      assertEquals(List.of(HarnessDaemons.SHUFFLE_PORT), n.proxies().reach(n.ports()), "only the shuffle is fronted");
    }
  }

  /**
   * A node that died without a word, silenced by its proxy: connects to the proxy succeed and then
   * nothing comes back, so no fetch is reported before the node expires; the maps re-run after, and
   * a reset brings the node back behind a proxy made anew.
   */
  public static void silencedByItsProxyThenBack(RunRecord r, AbstractCluster<? extends ProcessNode<?>> cluster,
      String backend) {
    assertEquals(backend + "+toxiproxy", r.cluster().backend());
    RunRecord.FaultEvent crash = r.faults().get(0);
    assertEquals("toxiproxy", crash.detail().get("network"), crash.detail().toString());
    assertEquals("open", crash.detail().get("shufflePortAfterCrash"), "the proxy keeps listening: " + crash.detail());
    long lost = r.node(crash.node()).lostAt().orElseThrow(() -> new AssertionError("node never LOST"));
    assertTrue(r.fetchFailures().stream().noneMatch(f -> f.atMs() < lost),
        "the proxy holds every fetch, so nothing is reported before expiry: " + r.fetchFailures());
    assertTrue(r.job().succeeded(), r.job().toString());

    backAfterReset(cluster, crash.node());
    shuffleThroughProxies(cluster.nodes());
  }
}
