package faultbed.experiments.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A worker of the remote backend rebooted while faults are in force on it (dd writers on its local
 * folder, a bandwidth cap and a blackhole of its ports): the reboot ends every process of it and
 * empties its packet filter and queueing disciplines, but keeps its disk, and with it the files the
 * writers were writing and faultbed's ledger in root's home there. The harness connects to it again
 * once it is back, the run ends and is recorded, every fault is healed (the files removed; the rules
 * and qdiscs, gone with the reboot, found gone), and nothing of faultbed's is left on the worker:
 * no file, no ledger entry. About 3 minutes: it runs with ci/extended.
 */
@Tag("extended")
class WorkerRebootTest {
  @Test
  void aWorkerRebootedMidFaultKeepsItsLedgerAndEverythingIsHealed() throws Exception {
    try (YarnHosts cluster = YarnHosts.forTest("yarn-hosts-reboot", 2, Map.of())) {
      Path dir = cluster.testFolder();
      Path scenario = Files.writeString(dir.resolve("reboot.json"), """
          { "name": "reboot", "workload": { "type": "synthetic", "maps": 4, "reduces": 1, "mapTime": "30s",
            "reduceTime": "1s" },
            "faults": [
              { "kind": "disk-load", "node": 0, "at": "1s", "writers": 2, "block": "1MB", "file": "64MB" },
              { "kind": "bandwidth-cap", "node": 0, "at": "1s", "rate": "10MB/s" },
              { "kind": "blackhole", "node": 0, "at": "1s", "for": "10min" } ],
            "runs": 1 }
          """);
      Path out = dir.resolve("records");
      RunOnHosts run = new RunOnHosts(cluster, scenario, out);
      YarnHosts.Host w1 = cluster.workers().get(0);
      Path local = w1.dir().resolve("nm-local");
      Path ledgers = w1.dir().resolve("faultbed-home");
      // all three made, as the run says: a fault still being made when the host goes is recorded
      // as not made (its command cut), and healed through the ledger
      Awaitility.await("dd writers, a cap and a blackhole made on w1").atMost(Duration.ofMinutes(3))
          .pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> run.isDone()
              || List.of("disk-load node 0 at", "bandwidth-cap node 0 at", "blackhole node 0 at").stream()
                  .allMatch(run.console()::contains));
      assertTrue(!ddFiles(local).isEmpty() && on(w1, "iptables", "-S", "INPUT").contains("faultbed")
          && on(w1, "tc", "qdisc", "show").contains("fb:"), "the three in force on w1");
      assertTrue(!run.isDone(), () -> "the run ended early: " + run.said + run.err);

      cluster.reboot(w1);
      assertTrue(!ddFiles(local).isEmpty(), "the writers' files outlive the reboot, as on a machine's disk");
      assertTrue(ledgerText(ledgers).contains("dd-clean"), "so does faultbed's ledger on the worker");
      assertTrue(!on(w1, "iptables", "-S", "INPUT").contains("faultbed") && !on(w1, "tc", "qdisc", "show").contains("fb:"),
          "the rule and the qdisc went with the reboot");

      int code = run.exitCode(Duration.ofMinutes(10));
      System.out.println(run.said);
      System.out.println(run.err);
      assertEquals(0, code, run.said + "\n" + run.err);
      List<RunRecord> records = new RecordStore(out).readAll();
      assertEquals(1, records.size(), run.said + "\n" + run.err);
      RunRecord r = records.get(0);
      System.out.println(r.job() + " " + r.notes() + " " + r.faults());
      assertEquals(3, r.faults().size(), r.faults().toString());
      assertTrue(r.faults().stream().allMatch(f -> f.injectedMs() != null && f.healedMs() != null),
          "every fault made and healed: " + r.faults());
      assertTrue(ddFiles(local).isEmpty(), "the writers' files are removed: " + ddFiles(local));
      assertEquals("", ledgerText(ledgers), "nothing is left in faultbed's ledger on the worker");
    }
  }

  /** What {@code command} prints in the host's network namespace. */
  private static String on(YarnHosts.Host h, String... command) {
    return faultbed.faults.Commands.local().inspect(faultbed.faults.NodeNetwork.inside(h.ns(), List.of(command))).out();
  }

  private static List<Path> ddFiles(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().startsWith("faultbed-dd-")).toList();
    }
  }

  /** Every ledger file faultbed keeps on the host, concatenated. */
  private static String ledgerText(Path home) throws IOException {
    if (!Files.isDirectory(home)) {
      return "";
    }
    StringBuilder text = new StringBuilder();
    try (Stream<Path> files = Files.walk(home)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        text.append(Files.readString(f));
      }
    }
    return text.toString();
  }
}
