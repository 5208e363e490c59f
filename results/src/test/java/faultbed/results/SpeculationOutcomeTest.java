package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.SpeculationEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpeculationOutcomeTest {

  private static AttemptRecord attempt(String task, int n, int node, long start, long end, String state,
      boolean speculative) {
    return new AttemptRecord("attempt_1_0001_m_00000" + task + "_" + n, "task_1_0001_m_00000" + task, "MAP", n,
        node, "localhost:" + node, null, start, end, null, null, null, state, speculative, null, 1, null);
  }

  /** Task 1: the backup wins. Task 2: the original wins. Task 3: a backup refused on a slow node, then one that wins. */
  static RunRecord run() {
    List<AttemptRecord> attempts = List.of(
        attempt("1", 0, 0, 0, 20_000, "KILLED", false),
        attempt("1", 1, 1, 10_000, 15_000, "SUCCEEDED", true),
        attempt("2", 0, 2, 0, 12_000, "SUCCEEDED", false),
        attempt("2", 1, 3, 9_000, 12_000, "KILLED", true),
        attempt("3", 0, 0, 0, 30_000, "KILLED", false),
        attempt("3", 1, 0, 11_000, 12_000, "KILLED", true),
        attempt("3", 2, 2, 13_000, 25_000, "SUCCEEDED", true),
        attempt("4", 0, 3, 0, 8_000, "SUCCEEDED", false));
    List<SpeculationEvent> events = List.of(
        new SpeculationEvent(9_000, "backup", "task_1_0001_m_000001", "attempt_1_0001_m_000001_0", 0, null, null, "slow", Map.of()),
        new SpeculationEvent(9_000, "backup", "task_1_0001_m_000002", "attempt_1_0001_m_000002_0", 2, null, null, "slow", Map.of()),
        new SpeculationEvent(10_000, "backup", "task_1_0001_m_000003", "attempt_1_0001_m_000003_0", 0, null, null, "slow", Map.of()),
        new SpeculationEvent(11_500, "placed", "task_1_0001_m_000003", "attempt_1_0001_m_000003_1", 0, false, true, "slow node", Map.of()),
        new SpeculationEvent(13_500, "placed", "task_1_0001_m_000003", "attempt_1_0001_m_000003_2", 2, true, false, "fast node", Map.of()));
    return new RunRecord(RunRecord.SCHEMA_VERSION, "late-000", "s", "late", 0, 1, "t",
        new RunRecord.ClusterInfo("mini", 4, 1024, 2), Map.of(), null, List.of(),
        List.of(new RunRecord.FaultEvent("cpu-hog", 0, "node 0", "at 0 ms", 0L, 0L, null, Map.of())),
        List.of(), attempts, List.of(), new RunRecord.JobOutcome("job_1_0001", "SUCCEEDED", true, 0L, 31_000L, 4, 0, null),
        Map.of(), List.of(), new RunRecord.Speculation("faultbed.schedulers.yarn.PolicySpeculator", "late", events), null, List.of(), null, null, List.of(), null, null, null, null, null, null, null, null);
  }

  @Test
  void countsRacesAndWasteFromHistoryAndDecisionLog() {
    SpeculationOutcome o = SpeculationOutcome.of(run());
    assertEquals(3, o.asked());
    assertEquals(4, o.launched());
    assertEquals(2, o.won());
    assertEquals(1, o.lost());
    assertEquals(1, o.refusedOnNode());
    // killed attempts of raced tasks: 20 s + 3 s + 30 s + 1 s; task 4 was never raced
    assertEquals(54_000, o.wastedContainerMs());
    SpeculationOutcome.BackupRun refused = o.backups().stream()
        .filter(b -> b.attemptId().endsWith("000003_1")).findFirst().orElseThrow();
    assertEquals("refused-on-node", refused.outcome());
    assertEquals(true, refused.nodeFaulted());
    assertEquals(true, refused.policyCalledSlow());
    SpeculationOutcome.BackupRun won = o.backups().stream()
        .filter(b -> b.attemptId().endsWith("000003_2")).findFirst().orElseThrow();
    assertEquals(false, won.policyCalledSlow());
    assertEquals(null, o.backups().get(0).policyCalledSlow(), "no placement judged for task 1");
  }

  @Test
  void suiteSummaryTotalsAndPrintsThem() {
    SuiteSummary s = SuiteSummary.of(List.of(run(), run()));
    SuiteSummary.SpeculationTotals t = s.variants().get(0).speculation();
    assertEquals(6, t.asked());
    assertEquals(4, t.won());
    assertEquals(108.0, t.wastedContainerSeconds(), 1e-9);
    assertEquals(2, t.onSlowedNodes(), "the refused backup on node 0, once per run");
    assertEquals(true, s.table().contains("refsd") && s.speculationTable().contains("late"), s.table());
  }
}
