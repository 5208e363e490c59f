package faultbed.results.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UselessBackupsTest {
  /** A run of {@code variant} in block {@code block} with {@code lost} backups that lost and {@code won} that won. */
  private static RunRecord run(String variant, int block, int lost, int won) {
    List<AttemptRecord> attempts = new ArrayList<>();
    for (int i = 0; i < lost + won; i++) {
      String task = "task_1_0001_m_00000" + i;
      boolean backupWon = i >= lost;
      attempts.add(new AttemptRecord(task.replace("task", "attempt") + "_0", task, "MAP", 0, 0, "h0", "c" + i, 0L,
          10_000L, 10_000L, null, null, backupWon ? "KILLED" : "SUCCEEDED", false, null, 1, null));
      attempts.add(new AttemptRecord(task.replace("task", "attempt") + "_1", task, "MAP", 1, 1, "h1", "d" + i, 5_000L,
          9_000L, 9_000L, null, null, backupWon ? "SUCCEEDED" : "KILLED", true, null, 1, null));
    }
    return new RunRecord(RunRecord.SCHEMA_VERSION, variant + "-00" + block, "s", variant, block, block, "t",
        new RunRecord.ClusterInfo("mini", 4, 1024, 2), Map.of("mapreduce.map.speculative", "true"), null, List.of(),
        List.of(), List.of(), attempts, List.of(),
        new RunRecord.JobOutcome("job_1_0001", "SUCCEEDED", true, 0, 30_000L, 8, 1, null), Map.of(), List.of(),
        new RunRecord.Speculation("s", "p", List.of()), null, List.of(), new RunRecord.Block(block, 0, 2), null,
        List.of(), null, null, null, null, null, null, null, null);
  }

  @Test
  void fewerUselessBackupsInEveryDifferingBlockIsSignificantOnlyWithEnoughBlocks() {
    List<RunRecord> records = new ArrayList<>();
    for (int b = 0; b < 7; b++) {
      records.add(run("native", b, 3, 1));
      records.add(run("base", b, b == 6 ? 3 : 1, 0)); // fewer in six blocks, a tie in the seventh
    }
    UselessBackups u = UselessBackups.of(records, "native", "base").orElseThrow();
    assertEquals(7, u.blocks());
    assertEquals(21, u.baselineUseless());
    assertEquals(9, u.candidateUseless());
    assertEquals(6, u.candidateFewer());
    assertEquals(0, u.candidateMore());
    assertEquals(Math.pow(0.5, 6), u.pFewer(), 1e-12); // the tie carries no information
    assertTrue(u.pFewer() < 0.05);

    UselessBackups reversed = UselessBackups.of(records, "base", "native").orElseThrow();
    assertEquals(6, reversed.candidateMore());
    assertEquals(1.0, reversed.pFewer(), 1e-12);

    UselessBackups four = UselessBackups.of(records.subList(0, 8), "native", "base").orElseThrow();
    assertEquals(0.0625, four.pFewer(), 1e-12, "four blocks cannot reach 0.05");
  }

  @Test
  void variantsInNoCommonBlockAreNotCompared() {
    assertTrue(UselessBackups.of(List.of(run("native", 0, 1, 0), run("base", 1, 0, 0)), "native", "base").isEmpty());
  }
}
