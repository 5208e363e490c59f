package faultbed.experiments.cli;

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
    display.runFinished(1, 1, new RunRecord(RunRecord.SCHEMA_VERSION, "default-000", "p", "default", 0, 1L, "t",
        new RunRecord.ClusterInfo("mini", 3, 1024, 2), Map.of(), null, List.of(), faults, List.of(), List.of(),
        List.of(), new RunRecord.JobOutcome("job_1", "SUCCEEDED", true, 0L, 20_000L, 3, 1, null), Map.of(),
        List.of(), null, null, List.of(), null, null, List.of(), null));
    String line = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(line.contains("crash node 0 at 1.0 s"), line);
    assertTrue(line.contains("blackhole node 2 at (not injected: IllegalStateException: host w3: ss did not end"
        + " within PT30S)"), line);
    assertTrue(line.contains("freeze node 1 at (not injected)"), line);
  }
}
