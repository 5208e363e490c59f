package faultbed.experiments.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.faults.Installed;
import faultbed.faults.Iptables;
import faultbed.faults.Ledger;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
    // what the run says as it goes is on standard output: kept here as well
    java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
    java.io.PrintStream stdout = System.out;
    System.setOut(new java.io.PrintStream(new org.apache.commons.io.output.TeeOutputStream(stdout, console), true));
    StringWriter said = new StringWriter();
    StringWriter err = new StringWriter();
    CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> FaultbedCli.execute(
        new PrintWriter(said, true), new PrintWriter(err, true), "run", scenario.toString(), "--inventory",
        dir.resolve("inventory.json").toString(), "--confirm-hosts", "w1,w2", "--out", out.toString()));
    String master = cluster.master().address();
    Awaitility.await("the job running").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions().until(() -> run.isDone() || cluster.runningApplications() > 0);
    assertTrue(!run.isDone(), () -> "the run ended early: " + said + err);
    try (Ledger ledger = Ledger.open()) {
      Installed cut = Iptables.host(ledger).drop("rm-cut", "OUTPUT", List.of("-d", master, "-m", "multiport",
          "--dports", "8032,8088"));
      long cutAt = System.nanoTime();
      Awaitility.await("40 s with the ResourceManager unreachable").atMost(Duration.ofSeconds(45))
          .pollInterval(Duration.ofSeconds(1)).until(() -> System.nanoTime() - cutAt > 40_000_000_000L || run.isDone());
      cut.heal();
    }
    int code;
    try {
      code = run.get(Duration.ofMinutes(10).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } finally {
      System.setOut(stdout);
    }
    System.out.println(said);
    System.out.println(err);
    List<RunRecord> records = new RecordStore(out).readAll();
    assertEquals(1, records.size(), said + "\n" + err);
    RunRecord r = records.get(0);
    System.out.println(r.job() + " " + r.notes());
    assertEquals(0, code, err.toString());
    assertTrue(r.job() != null && r.job().state().equals("SUCCEEDED"), r.notes().toString());
    String lines = console.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(java.util.regex.Pattern.compile("did not answer for (3[5-9]|4[0-9]) s; it answers again").matcher(lines)
        .find(), "the outage is said, about 40 s: " + lines);
  }
}
