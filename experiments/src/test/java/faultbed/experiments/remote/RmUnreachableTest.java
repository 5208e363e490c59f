package faultbed.experiments.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.faults.Installed;
import faultbed.faults.Iptables;
import faultbed.faults.Ledger;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The remote backend's ResourceManager unreachable from the harness for a while in the middle of a
 * run (its client and web ports dropped on the harness's machine for 40 s; the cluster itself goes
 * on): the harness asks again until it answers (up to two minutes), says how long it was silent, and
 * the run ends and is recorded as the job ended. Before, the first unanswered poll broke the run
 * (its record a harness error, the job killed). About 3 minutes: it runs with ci/extended.
 */
@Tag("extended")
class RmUnreachableTest {
  private static Path dir;
  private static YarnHosts cluster;

  @BeforeAll
  static void cluster() throws IOException {
    cluster = YarnHosts.forTest("yarn-hosts-rm-cut", 2, Map.of());
    dir = cluster.testFolder();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aRunOutlivesTheResourceManagerUnreachableForAWhile() throws Exception {
    Path scenario = Files.writeString(dir.resolve("long.json"), """
        { "name": "rm-cut", "workload": { "type": "synthetic", "maps": 2, "reduces": 1, "mapTime": "60s",
          "reduceTime": "1s" }, "runs": 1 }
        """);
    Path out = dir.resolve("records");
    RunOnHosts run = new RunOnHosts(cluster, scenario, out);
    String master = cluster.master().address();
    Awaitility.await("the job running").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions().until(() -> run.isDone() || cluster.runningApplications() > 0);
    assertTrue(!run.isDone(), () -> "the run ended early: " + run.said + run.err);
    try (Ledger ledger = Ledger.open()) {
      Installed cut = Iptables.host(ledger).drop("rm-cut", "OUTPUT", List.of("-d", master, "-m", "multiport",
          "--dports", "8032,8088"));
      long cutAt = System.nanoTime();
      Awaitility.await("40 s with the ResourceManager unreachable").atMost(Duration.ofSeconds(45))
          .pollInterval(Duration.ofSeconds(1)).until(() -> System.nanoTime() - cutAt > 40_000_000_000L || run.isDone());
      cut.heal();
    }
    int code = run.exitCode(Duration.ofMinutes(10));
    System.out.println(run.said);
    System.out.println(run.err);
    List<RunRecord> records = new RecordStore(out).readAll();
    assertEquals(1, records.size(), run.said + "\n" + run.err);
    RunRecord r = records.get(0);
    System.out.println(r.job() + " " + r.notes());
    assertEquals(0, code, run.err.toString());
    assertTrue(r.job() != null && r.job().state().equals("SUCCEEDED"), r.notes().toString());
    String lines = run.console();
    assertTrue(java.util.regex.Pattern.compile("did not answer for (3[5-9]|4[0-9]) s; it answers again").matcher(lines)
        .find(), "the outage is said, about 40 s: " + lines);
  }
}
