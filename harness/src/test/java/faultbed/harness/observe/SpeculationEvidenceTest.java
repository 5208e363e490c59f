package faultbed.harness.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.SpeculationEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpeculationEvidenceTest {
  private static AttemptRecord map(int task, int attempt, int node, long start, Long finish, String state,
      List<Integer> progressClockMs) {
    String t = String.format("task_1_0001_m_%06d", task);
    return new AttemptRecord("attempt_1_0001_m_" + String.format("%06d_%d", task, attempt), t, "MAP", attempt, node,
        "localhost:" + node, null, start, finish, null, null, null, state, attempt > 0, null, 1, null, null,
        progressClockMs);
  }

  /** The straggler m_000002_0 took 2 s for each of its first four twelfths, then 4 s each until its kill. */
  private static final List<Integer> STRAGGLER = List.of(2_000, 2_000, 2_000, 2_000, 4_000, 4_000, 4_000, 4_000);

  private static final List<AttemptRecord> ATTEMPTS = List.of(
      map(0, 0, 0, 1_000, 11_000L, "SUCCEEDED", null), map(1, 0, 1, 1_000, 13_000L, "SUCCEEDED", null),
      map(2, 0, 2, 1_000, 40_000L, "KILLED", STRAGGLER), map(2, 1, 1, 20_500, 30_000L, "SUCCEEDED", null));

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
    // 19 s in: 8 s for the first four twelfths, 8 s for the next two, 3 s into the seventh (of 4 s).
    assertEquals((6 + 0.75) / 12, e.evidence().get("originalProgress"), 1e-9);
    assertEquals(19_000 / ((6 + 0.75) / 12), e.evidence().get("originalEstimatedRunMs"), 1e-6);
    assertEquals("hadoop3 (legacy estimator) asked for a backup: m_000002_0 had run 19.0 s on node 2 and was about"
        + " 56 % done (at that rate 33.8 s in all); the 2 finished map attempt(s) took 11.0 s on average", e.reason());
  }

  @Test
  void progressIsReadOffTheTwelfthsAndPastTheLastWrittenOneIsOnlyALowerBound() {
    assertEquals(new SpeculationEvidence.Progress(0.5 / 12, false), SpeculationEvidence.Progress.at(STRAGGLER, 1_000)
        .orElseThrow());
    assertEquals(new SpeculationEvidence.Progress(8.0 / 12, true), SpeculationEvidence.Progress.at(STRAGGLER, 30_000)
        .orElseThrow());
    List<Integer> whole = java.util.Collections.nCopies(12, 1_000);
    assertEquals(new SpeculationEvidence.Progress(1.0, false), SpeculationEvidence.Progress.at(whole, 12_500)
        .orElseThrow());
    assertTrue(SpeculationEvidence.Progress.at(null, 1_000).isEmpty());
    assertTrue(SpeculationEvidence.Progress.at(List.of(), 1_000).isEmpty());
  }

  @Test
  void aBackupOfAnAttemptPastItsWrittenProgressSaysAtLeast() {
    RunRecord.Speculation hadoop = new RunRecord.Speculation("DefaultSpeculator", "hadoop3 (legacy estimator)",
        List.of(new SpeculationEvent(35_000, "backup", "task_1_0001_m_000002", null, null, null, null,
            "asked", Map.of())));
    SpeculationEvent e = SpeculationEvidence.complete(hadoop, ATTEMPTS).events().get(0);
    assertEquals(8.0 / 12, e.evidence().get("originalProgressAtLeast"), 1e-9);
    assertFalse(e.evidence().containsKey("originalEstimatedRunMs"));
    assertTrue(e.reason().contains("m_000002_0 had run 34.0 s on node 2 and was at least 67 % done; the 3 finished"),
        e.reason());
  }

  @Test
  void aPolicysOwnEventsAreLeftAsTheyAre() {
    RunRecord.Speculation policy = new RunRecord.Speculation("PolicySpeculator", "late",
        List.of(new SpeculationEvent(20_000, "backup", "task_1_0001_m_000002", "attempt_1_0001_m_000002_0", 2, null,
            null, "slowest progress rate", Map.of("rate", 0.01))));
    assertSame(policy, SpeculationEvidence.complete(policy, ATTEMPTS));
  }
}
