package faultbed.harness.mini;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.ClusterSpec;
import java.util.Set;
import java.util.TreeSet;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * A crashed node's NodeManager, replaced by a fresh one at the next reset, leaves nothing in the
 * harness's JVM: not its MXBean, not its metrics sources (NodeManagerMetrics, ShuffleMetrics, its
 * web server's HttpServer2, which holds the whole stopped web app), which Hadoop never unregisters.
 * A suite of a thousand runs with crashes replaces hundreds of them (the soak found it).
 */
class ReplacedNodeManagersTest {
  @Test
  void aReplacedNodeManagerLeavesNoBeanOrMetricsSource() {
    try (MiniCluster cluster = MiniCluster.start(ClusterSpec.defaults().withNodes(2), line -> { })) {
      for (int i = 0; i < 2; i++) { // both nodes replaced once: every kind of bean a replacement makes is there
        cluster.node(i).crash();
        cluster.reset();
      }
      Set<String> before = names();
      assertTrue(before.stream().anyMatch(n -> n.startsWith("HttpServer2")), "the web server's source: " + before);
      for (int i = 0; i < 4; i++) {
        cluster.node(i % 2).crash();
        cluster.reset();
      }
      assertEquals(before.size(), names().size(), "after four more replacements: " + before + " -> " + names());
    }
  }

  private static Set<String> names() {
    Set<String> out = new TreeSet<>();
    for (ObjectName n : NodeManagerBeans.all()) {
      out.add(n.getKeyProperty("name"));
    }
    return out;
  }
}
