package faultbed.harness.containers;

import faultbed.harness.daemons.ToxiproxyNodesTests;
import faultbed.harness.junit.Faultbed;
import org.junit.jupiter.api.Tag;

/**
 * The containers backend's nodes, each with a Toxiproxy server in its network fronting its shuffle.
 * The mini backend proves the same Toxiproxy faults in the test command (ToxiproxyClusterTest), so
 * this runs with ci/extended.
 */
@Tag("extended")
@Faultbed(backend = "containers", network = "toxiproxy", nodes = 4, hadoop = {
    "mapreduce.job.reduce.slowstart.completedmaps=1.0",
    "yarn.nm.liveness-monitor.expiry-interval-ms=30000",
    "yarn.client.nodemanager-connect.max-wait-ms=10000",
    "yarn.client.nodemanager-connect.retry-interval-ms=2000",
    "mapreduce.reduce.shuffle.connect.timeout=15000"})
class ContainerToxiproxyTest extends ToxiproxyNodesTests {
  @Override
  protected String backend() {
    return "containers";
  }
}
