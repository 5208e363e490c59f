package faultbed.experiments.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RunRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProgressDisplayTest {
  /** A run's line says why a fault never took effect, not only that it did not. */
  @Test
  void aFaultThatWasNotInjectedShowsItsReason() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressDisplay display = new ProgressDisplay(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
    List<RunRecord.FaultEvent> faults = List.of(
        new RunRecord.FaultEvent("crash", 0, "node 0", "at 1000 ms", 1000L, 1000L, null, Map.of()),
        new RunRecord.FaultEvent("blackhole", 2, "node 2", "at 1000 ms", 1000L, null, null,
            Map.of("error", "IllegalStateException: host w3: ss did not end within PT30S")),
        new RunRecord.FaultEvent("freeze", 1, "node 1", "at 90000 ms", 90000L, null, null, Map.of()));
    display.runFinished(1, 1, run("default-000", faults));
    String line = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(line.contains("crash node 0 at 1.0 s"), line);
    assertTrue(line.contains("blackhole node 2 at (not injected: IllegalStateException: host w3: ss did not end"
        + " within PT30S)"), line);
    assertTrue(line.contains("freeze node 1 at (not injected)"), line);
  }

  /** A timeline of a fault on every node of a large cluster is summed up, not listed. */
  @Test
  void manyFaultsAreSummedUp() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressDisplay display = new ProgressDisplay(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
    List<RunRecord.FaultEvent> faults = new java.util.ArrayList<>();
    for (int n = 0; n < 243; n++) {
      faults.add(new RunRecord.FaultEvent("slow-disk", n, "node " + n, "at 0 ms", 0L, 0L, null, Map.of()));
    }
    faults.add(new RunRecord.FaultEvent("crash", 7, "node 7", "at 9000 ms", 9000L, 9000L, null, Map.of()));
    display.runFinished(1, 1, run("default-000", faults));
    String line = bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("[")).findFirst().orElseThrow();
    assertEquals("[1/1] default-000: SUCCEEDED in 20.0 s, slow-disk node 0 at 0.0 s, slow-disk node 1 at 0.0 s,"
        + " slow-disk node 2 at 0.0 s, and 241 more faults (slow-disk, crash)", line);
  }

  private static RunRecord run(String id, List<RunRecord.FaultEvent> faults) {
    return new RunRecord(RunRecord.SCHEMA_VERSION, id, "p", "default", 0, 1L, "t",
        new RunRecord.ClusterInfo("mini", 3, 1024, 2), Map.of(), null, List.of(), faults, List.of(), List.of(),
        List.of(), new RunRecord.JobOutcome("job_1", "SUCCEEDED", true, 0L, 20_000L, 3, 1, null), Map.of(),
        List.of(), null, null, List.of(), null, null, List.of(), null, null, null, null, null, null, null, null);
  }

  /** A resumed suite's estimate counts only this sitting's runs, and the last run's line has none. */
  @Test
  void eachRunSaysHowLongTheRestTakesAtThisSittingsPace() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    long[] now = {0};
    ProgressDisplay display = new ProgressDisplay(new PrintStream(bytes, true, StandardCharsets.UTF_8), false,
        () -> now[0]);
    display.runStarting(100, 210, "crash-090"); // 100 recorded in earlier sittings
    now[0] = 90_000_000_000L;
    display.runFinished(101, 210, run("crash-090", List.of()));
    display.runStarting(101, 210, "crash-091");
    now[0] = 120_000_000_000L;
    display.runFinished(102, 210, run("crash-091", List.of()));
    display.runStarting(209, 210, "crash-199");
    display.runFinished(210, 210, run("crash-199", List.of()));
    List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("[")).toList();
    assertEquals("[101/210] crash-090: SUCCEEDED in 20.0 s; about 2 h 44 min left", lines.get(0)); // 109 x 90 s
    assertEquals("[102/210] crash-091: SUCCEEDED in 20.0 s; about 1 h 48 min left", lines.get(1)); // 108 x 60 s
    assertEquals("[210/210] crash-199: SUCCEEDED in 20.0 s", lines.get(2));
  }
}
