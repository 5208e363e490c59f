package faultbed.experiments.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.classify.Classification;
import faultbed.results.classify.DinuNgClassifier;
import faultbed.results.classify.DinuNgGroup;
import faultbed.results.classify.Recovery;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * dinu-ng-quick, time-compressed, on the test cluster of hosts with only the inventory added. The
 * cluster is set up as an administrator would for compressed experiments (the ResourceManager's
 * own timers at 0.05 of Hadoop's), and its hosts' classpath has nothing of faultbed's, so the jobs
 * must carry the time-scale agent and the jars it needs. About 15 minutes on 2 cores: it runs with
 * ci/extended. Records stay in target/dinu-ng-quick-remote.
 */
@Tag("extended")
class DinuNgOnHostsTest {
  private static final Path OUT = Path.of("target", "dinu-ng-quick-remote");
  /** The ResourceManager's timers dinu-ng-quick's scale 0.05 asks for (heartbeat floored at 100 ms). */
  private static final Map<String, String> SCALED_RM = Map.of(
      "yarn.nm.liveness-monitor.expiry-interval-ms", "30000",
      "yarn.am.liveness-monitor.expiry-interval-ms", "30000",
      "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "100");
  private static Path dir;
  private static YarnHosts cluster;

  @BeforeAll
  static void cluster() throws IOException {
    cluster = YarnHosts.forTest("yarn-hosts-dinu-ng", 3, SCALED_RM);
    dir = cluster.testFolder();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void dinuNgQuickRunsCompressedOnTheHosts() {
    FileUtil.fullyDelete(OUT.toFile());
    StringWriter err = new StringWriter();
    assertEquals(0, FaultbedCli.execute(new PrintWriter(System.out, true), new PrintWriter(err, true), "run",
        "scenarios/dinu-ng-quick.json", "--inventory", dir.resolve("inventory.json").toString(),
        "--confirm-hosts", "w1,w2,w3", "--out", OUT.toString()), err.toString());

    List<RunRecord> records = new RecordStore(OUT).readAll();
    assertEquals(9, records.size(), "1 baseline, 6 crash, 2 crash-no-rst runs");
    for (RunRecord r : records) {
      assertEquals("remote", r.cluster().backend(), r.runId());
      assertEquals(0.05, r.timeScale().factor(), r.runId());
      assertEquals("30000 ms (scaled from 600000)",
          r.timeScale().timers().get("yarn.nm.liveness-monitor.expiry-interval-ms"), r.runId());
      assertEquals("9000", r.hadoop().get("mapreduce.reduce.shuffle.connect.timeout"), "a job's timer, scaled");
      if (r.variant().startsWith("crash")) {
        assertNotNull(r.faults().get(0).injectedMs(), r.runId() + ": " + r.notes());
      }
      // the agent came with the job: the AM and every reducer installed it, and it found every constant
      Map<String, Integer> agent = r.timeScale().agent();
      Integer installed = agent.get("installed, scale 0.05");
      assertTrue(installed != null && installed >= 5, r.runId() + ": the AM and 4 reducers at least: " + agent);
      assertTrue(agent.keySet().stream().anyMatch(l -> l.startsWith("rescaled shuffle back-off")), r.runId() + ": " + agent);
      assertFalse(agent.keySet().stream().anyMatch(l -> l.contains("NOT FOUND")), r.runId() + ": " + agent);
    }

    StringWriter out = new StringWriter();
    assertEquals(0, FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "classify",
        OUT.toString()), err.toString());
    System.out.println(out);
    for (Classification c : DinuNgClassifier.classifyAll(records)) {
      assertNotNull(c.group(), c.runId());
      if (c.variant().equals("crash-no-rst") && c.jobSucceeded()) {
        // holding map outputs, no RST: the reducers wait for the node's expiry, as on the local backends
        assertEquals(Recovery.NODE_EXPIRY, c.recovery(), c.runId() + " " + c.group() + ": " + c.evidence());
      }
      if (c.variant().equals("baseline")) {
        assertEquals(DinuNgGroup.NO_FAULT, c.group(), c.runId());
      }
    }
  }
}
