package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.SuiteSummary;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's main command, shortened to one run per variant: what a new user should see. */
class QuickstartSuiteTest {
  @Test
  void quickstartRecordsTheCrashAndItsCost(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("out");
    StringWriter err = new StringWriter();
    int code = FaultbedCli.execute(new PrintWriter(System.out, true), new PrintWriter(err, true),
        "run", "scenarios/quickstart.json", "--runs", "2", "--out", out.toString());
    assertEquals(0, code, err.toString());

    RecordStore store = new RecordStore(out);
    List<RunRecord> records = store.readAll();
    assertEquals(4, records.size(), "one record per run");
    assertTrue(Files.exists(out.resolve(RecordStore.SUMMARY)));
    SuiteSummary summary = RecordStore.json().readValue(out.resolve(RecordStore.SUMMARY).toFile(), SuiteSummary.class);
    assertEquals(2, summary.variants().size());

    double baseline = records.stream().filter(r -> r.variant().equals("baseline"))
        .mapToDouble(r -> r.completionSeconds().orElseThrow()).max().orElseThrow();
    for (RunRecord r : records) {
      assertTrue(r.job().succeeded(), r.runId() + ": " + r.job());
      assertFalse(r.hadoop().isEmpty());
      assertEquals("20000", r.hadoop().get("yarn.nm.liveness-monitor.expiry-interval-ms"));
      assertFalse(r.attempts().isEmpty());
      if (!r.variant().equals("crash")) {
        assertTrue(r.faults().isEmpty());
        continue;
      }
      RunRecord.FaultEvent crash = r.faults().get(0);
      assertNotNull(crash.scheduledMs());
      assertNotNull(crash.injectedMs(), r.runId() + ": " + r.notes());
      assertTrue(crash.injectedMs() - crash.scheduledMs() < 1000, "injected on time: " + crash);
      long lost = r.node(crash.node()).lostAt().orElseThrow(() -> new AssertionError(r.runId() + " no LOST"));
      assertTrue(lost > crash.injectedMs());
      assertFalse(r.reexecutedAttempts().isEmpty(), r.runId() + " re-ran attempts");
      assertTrue(r.completionSeconds().orElseThrow() > baseline,
          r.runId() + " took " + r.completionSeconds() + " s, baseline " + baseline + " s");
    }
  }
}
