package faultbed.harness.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.SpeculationEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpeculationEvidenceTest {
  private static AttemptRecord map(int task, int attempt, int node, long start, Long finish, String state) {
    String t = String.format("task_1_0001_m_%06d", task);
    return new AttemptRecord("attempt_1_0001_m_" + String.format("%06d_%d", task, attempt), t, "MAP", attempt, node,
        "localhost:" + node, null, start, finish, null, null, null, state, attempt > 0, null, 1, null);
  }

  private static final List<AttemptRecord> ATTEMPTS = List.of(
      map(0, 0, 0, 1_000, 11_000L, "SUCCEEDED"), map(1, 0, 1, 1_000, 13_000L, "SUCCEEDED"),
      map(2, 0, 2, 1_000, 40_000L, "KILLED"), map(2, 1, 1, 20_500, 30_000L, "SUCCEEDED"));

  @Test
  void aHadoopBackupNamesTheOriginalItsNodeAndWhatTheSpeculatorSaw() {
    RunRecord.Speculation hadoop = new RunRecord.Speculation("DefaultSpeculator", "hadoop3 (legacy estimator)",
        List.of(new SpeculationEvent(20_000, "backup", "task_1_0001_m_000002", null, null, null, null,
            "hadoop3 (legacy estimator) asked for a backup", Map.of())));
    SpeculationEvent e = SpeculationEvidence.complete(hadoop, ATTEMPTS).events().get(0);
    assertEquals("attempt_1_0001_m_000002_0", e.attempt());
    assertEquals(2, e.node());
    assertEquals(19_000.0, e.evidence().get("originalRunMs"));
    assertEquals(2.0, e.evidence().get("finishedOfType"));
    assertEquals(11_000.0, e.evidence().get("meanFinishedMs"));
    assertEquals("hadoop3 (legacy estimator) asked for a backup: m_000002_0 had run 19.0 s on node 2; the 2 finished"
        + " map attempt(s) took 11.0 s on average", e.reason());
  }

  @Test
  void aPolicysOwnEventsAreLeftAsTheyAre() {
    RunRecord.Speculation policy = new RunRecord.Speculation("PolicySpeculator", "late",
        List.of(new SpeculationEvent(20_000, "backup", "task_1_0001_m_000002", "attempt_1_0001_m_000002_0", 2, null,
            null, "slowest progress rate", Map.of("rate", 0.01))));
    assertSame(policy, SpeculationEvidence.complete(policy, ATTEMPTS));
  }
}
