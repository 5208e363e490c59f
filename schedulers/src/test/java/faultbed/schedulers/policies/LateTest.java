package faultbed.schedulers.policies;

import static faultbed.schedulers.TaskType.MAP;
import static faultbed.schedulers.TaskType.REDUCE;
import static faultbed.schedulers.policies.Hadoop021RuleTest.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.schedulers.Backup;
import faultbed.schedulers.JobSnapshot;
import faultbed.schedulers.NodeVerdict;
import faultbed.schedulers.Phase;
import faultbed.schedulers.PolicySettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LateTest {

  @TempDir
  Path dir;

  static Late late(double timeScale, int slots, Map<String, String> params) {
    Late l = new Late();
    l.configure(new PolicySettings(timeScale, slots, params, null));
    return l;
  }

  /** LATE using historical information (seed 001 §IV-C), its history in {@code stateDir/late-history}. */
  static Late lateHistory(int slots, Map<String, String> params, Path stateDir) {
    Late l = Late.withHistory();
    l.configure(new PolicySettings(1.0, slots, params, stateDir));
    return l;
  }

  /** Seed 000 §3.1 / §4.1: LATE takes the 10x slower task first, where Hadoop's rule takes the 1.4x one. */
  @Test
  void section31_backsUpTheTaskThatWillFinishLast() {
    JobSnapshot job = Hadoop021RuleTest.section31Job();
    // rates 0.0007, 0.005, 4 x 0.007 running and 4 x 1/140 finished: 25th percentile (position 2.25) = 0.007
    List<Backup> out = late(1.0, 20, Map.of()).choose(job);
    assertEquals(List.of("task_m_000009", "task_m_000001"), ids(out));
    assertEquals(0.007, out.get(0).evidence().get("slowTaskThreshold"), 1e-12);
    assertEquals(0.93 / 0.0007, out.get(0).evidence().get("timeLeftSeconds"), 1e-6);   // 1328.6 s
    assertEquals(100.0, out.get(1).evidence().get("timeLeftSeconds"), 1e-6);
    assertTrue(out.get(0).reason().contains("est. time left 1328.6 s, rank 1 of 2"), out.get(0).reason());
    assertEquals("task_m_000001", Hadoop021RuleTest.rule(1.0).choose(job).get(0).taskId());
  }

  /** SpeculativeCap: 10% of 10 slots is one backup; of 20 slots, two. */
  @Test
  void capIsTenPercentOfSlots() {
    JobSnapshot job = Hadoop021RuleTest.section31Job();
    assertEquals(List.of("task_m_000009"), ids(late(1.0, 10, Map.of()).choose(job)));
    assertEquals(2, late(1.0, 20, Map.of()).choose(job).size());
    assertEquals(2, late(1.0, 10, Map.of("speculativeCap", "0.2")).choose(job).size());
  }

  @Test
  void capCountsBackupsAlreadyRunning() {
    JobBuilder b = new JobBuilder();
    for (int i = 0; i < 4; i++) {
      b.running("task_m_00001" + i, MAP, "n" + (i + 1), 0.7, 100);
    }
    JobSnapshot job = b.running("task_m_000001", MAP, "n2", 0.5, 100)
        .running("task_m_000009", MAP, "n4", 0.07, 100)
        .runningWithBackup("task_m_000005", MAP, "n3", 0.05, 100, "n1", 0.1, 10)
        .build();
    assertEquals(1, job.runningBackups());
    // cap 2 with 1 running: one more, the longest time left; cap 3: both
    assertEquals(List.of("task_m_000009"), ids(late(1.0, 20, Map.of()).choose(job)));
    assertEquals(List.of("task_m_000009", "task_m_000001"), ids(late(1.0, 30, Map.of()).choose(job)));
    assertEquals(List.of(), ids(late(1.0, 10, Map.of()).choose(job)));
  }

  /**
   * Seed 000 §4.2: T has a 5%/s first phase to 50% and a 1%/s second phase. T1 (started at 0) and T2
   * (started at 10) seen at time 20: T1 at 60% (3%/s, 13.3 s left), T2 at 50% (5%/s, 10 s left). The
   * rate heuristic ranks T1 as finishing last, though T2 really does (T1 at 60 s, T2 at 70 s): the
   * misestimate the seed warns of.
   */
  @Test
  void section42_progressRateMisranksATaskThatSlowsDown() {
    JobSnapshot job = new JobBuilder()
        .running("T1", MAP, "n1", 0.6, 20)
        .running("T2", MAP, "n2", 0.5, 10)
        .build();
    long now = job.nowMs();
    assertEquals(40.0 / 3, Late.timeLeftSeconds(job.task("T1").attempts().get(0), now), 1e-9);
    assertEquals(10.0, Late.timeLeftSeconds(job.task("T2").attempts().get(0), now), 1e-9);
    // 25th percentile of 0.03 and 0.05 is 0.035: T1 is the one backed up, 13.3 s left by the estimate.
    List<Backup> out = late(1.0, 20, Map.of("minRunSeconds", "0")).choose(job);
    assertEquals(List.of("T1"), ids(out));
    assertEquals(0.035, out.get(0).evidence().get("slowTaskThreshold"), 1e-12);
    // The true times left: T1 40 s (40% at 1%/s), T2 50 s (50% at 1%/s).
  }

  /** Seed 001 §II.B: LATE, like Hadoop, backs up R_i (0.33 after 100 s: 203 s left by its estimate). */
  @Test
  void samrSection2B_lateAlsoBacksUpTheReducerInItsShortSortStage() {
    JobSnapshot job = new JobBuilder()
        .running("r_i", REDUCE, "n1", 0.33, 100, Phase.SORT)
        .running("r_j", REDUCE, "n2", 0.66, 100, Phase.REDUCE)
        .running("r_k", REDUCE, "n3", 0.66, 100, Phase.REDUCE)
        .build();
    List<Backup> out = late(1.0, 20, Map.of()).choose(job);
    assertEquals(List.of("r_i"), ids(out));
    assertEquals(0.67 / 0.0033, out.get(0).evidence().get("timeLeftSeconds"), 1e-6);
  }

  @Test
  void minimumRunTimeScalesWithTimeScale() {
    JobBuilder b = new JobBuilder()
        .running("m_7s", MAP, "n1", 0.05, 7)
        .running("m_5s", MAP, "n2", 0.03, 5);
    for (int i = 0; i < 6; i++) {
      b.running("m_fast" + i, MAP, "n3", 0.9, 7);
    }
    JobSnapshot job = b.build();
    // both slow ones are far below the 25th percentile; only the gate separates them
    assertEquals(List.of("m_7s"), ids(late(0.1, 20, Map.of()).choose(job)));
    assertEquals(List.of(), ids(late(1.0, 20, Map.of()).choose(job)));
    // with a 4 s gate both qualify, the younger one first: 0.97 / 0.006 = 161.7 s left vs 133.0 s
    assertEquals(List.of("m_5s", "m_7s"), ids(late(0.1, 20, Map.of("minRunSeconds", "40")).choose(job)));
  }

  @Test
  void refusesNodesBelowTheTwentyFifthPercentileOfTotalProgress() {
    JobSnapshot job = new JobBuilder()
        .succeeded("m_1", MAP, "n1", 30).succeeded("m_2", MAP, "n1", 30).succeeded("m_3", MAP, "n1", 30)
        .running("m_4", MAP, "n1", 0.5, 20)
        .succeeded("m_5", MAP, "n2", 30).succeeded("m_6", MAP, "n2", 30).succeeded("m_7", MAP, "n2", 30)
        .succeeded("m_8", MAP, "n3", 30).succeeded("m_9", MAP, "n3", 30)
        .succeeded("m_11", MAP, "n4", 90)
        .running("m_10", MAP, "n4", 0.2, 90)
        .build();
    // totals 3.5, 3.0, 2.0, 1.2: 25th percentile = 1.2 + 0.75 x 0.8 = 1.8
    Late l = late(1.0, 20, Map.of());
    NodeVerdict slow = l.judgeBackupNode("n4", job.task("m_10"), job);
    assertFalse(slow.accepted());
    assertTrue(slow.reason().contains("node total progress 1.200 vs SlowNodeThreshold 1.800"), slow.reason());
    assertTrue(l.judgeBackupNode("n3", job.task("m_10"), job).accepted());
    assertFalse(l.judgeBackupNode("n9", job.task("m_10"), job).accepted(), "a node with no work scores 0");
    assertTrue(late(1.0, 20, Map.of("slowNodeThreshold", "0")).judgeBackupNode("n4", job.task("m_10"), job)
        .accepted());
  }

  @Test
  void neverBacksUpATaskTwiceOrATaskThatIsNotRunning() {
    JobSnapshot job = new JobBuilder()
        .runningWithBackup("m_a", MAP, "n1", 0.01, 100, "n2", 0.0, 1)
        .running("m_b", MAP, "n2", 0.9, 100)
        .running("m_c", MAP, "n3", 0.9, 100)
        .pending("m_d", MAP)
        .build();
    assertEquals(List.of(), ids(late(1.0, 100, Map.of()).choose(job)));
  }

  /**
   * The end of a job, where only stragglers still run: finished tasks count in SlowTaskThreshold, so
   * two equally slow stragglers are still slow (compared with each other only, neither would be).
   */
  @Test
  void whenOnlyStragglersRemainTheyAreStillSlow() {
    JobBuilder b = new JobBuilder();
    for (int i = 0; i < 6; i++) {
      b.succeeded("task_m_00010" + i, MAP, "n" + (i % 3 + 1), 8);
    }
    b.running("task_m_000001", MAP, "n4", 0.10, 40);
    b.running("task_m_000002", MAP, "n4", 0.05, 40);
    List<Backup> out = late(1.0, 20, Map.of("minRunSeconds", "30")).choose(b.build());
    // rates 0.00125, 0.0025 running and 6 x 1/8 finished: 25th percentile (position 1.75)
    // = 0.0025 + 0.75 x (0.125 - 0.0025) = 0.094375
    assertEquals(List.of("task_m_000002", "task_m_000001"), ids(out));
    assertEquals(0.094375, out.get(0).evidence().get("slowTaskThreshold"), 1e-12);
  }

  // ---- late-history: LATE on SAMR's history-weighted progress scores ----

  /**
   * With default weights and no finished stage times, late-history takes LATE's backups with LATE's
   * numbers: a map-only job's maps score Hadoop's progress, and reducers exactly at a phase boundary
   * score the same under 0.33/0.33/0.34 as under thirds.
   */
  @Test
  void lateHistoryWithDefaultWeightsMatchesLate() {
    for (JobSnapshot job : List.of(Hadoop021RuleTest.section31Job(), new JobBuilder()
        .running("r_i", REDUCE, "n1", 0.33, 100, Phase.SORT)
        .running("r_j", REDUCE, "n2", 0.66, 100, Phase.REDUCE)
        .running("r_k", REDUCE, "n3", 0.66, 100, Phase.REDUCE)
        .build())) {
      List<Backup> plain = late(1.0, 20, Map.of()).choose(job);
      List<Backup> history = lateHistory(20, Map.of(), dir).choose(job);
      assertEquals(ids(plain), ids(history));
      for (int i = 0; i < plain.size(); i++) {
        Map<String, Double> p = plain.get(i).evidence();
        Map<String, Double> h = history.get(i).evidence();
        assertEquals(p.get("progress"), h.get("progressScore"), 1e-12);
        for (String key : p.keySet()) {
          assertEquals(p.get(key), h.get(key), 1e-12, key);
        }
        assertEquals(p.size() + 1, h.size());
      }
    }
    List<Backup> out = lateHistory(20, Map.of(), dir).choose(Hadoop021RuleTest.section31Job());
    assertEquals(List.of("task_m_000009", "task_m_000001"), ids(out));
    assertEquals(0.93 / 0.0007, out.get(0).evidence().get("timeLeftSeconds"), 1e-6);
    assertEquals(100.0, out.get(1).evidence().get("timeLeftSeconds"), 1e-6);
  }

  /**
   * n1's late-history says copying is 80% of a reduce (R1 0.8, R2 0.1, R3 0.1). r_a copying there at
   * Hadoop's 0.2 (SubPS 0.6) scores 0.48, not 0.2: 108.3 s left instead of 400 s, so r_b (0.3 on n2,
   * default weights: 0.33 x 0.9 = 0.297) now finishes last and goes first. SAMR's own file for n1
   * in the same stateDir says something else and is not read.
   */
  @Test
  void lateHistoryRanksByHistoryWeightedProgressScore() throws IOException {
    Files.createDirectories(dir.resolve("late-history"));
    Files.writeString(dir.resolve("late-history").resolve(StageWeights.fileName("n1")),
        "M1=1.0\nM2=0.0\nR1=0.8\nR2=0.1\nR3=0.1\n");
    Files.writeString(dir.resolve(StageWeights.fileName("n1")), "M1=1.0\nM2=0.0\nR1=0.1\nR2=0.1\nR3=0.8\n");
    JobBuilder b = new JobBuilder()
        .running("r_a", REDUCE, "n1", 0.2, 100)
        .running("r_b", REDUCE, "n2", 0.3, 100);
    for (int i = 0; i < 4; i++) {
      b.running("r_f" + i, REDUCE, "n3", 0.9, 100);   // 0.33 + 0.33 + 0.34 x 0.7 = 0.898
    }
    JobSnapshot job = b.build();

    // Plain LATE: rates 0.002, 0.003, 4 x 0.009; threshold 0.003 + 0.25 x 0.006 = 0.0045
    List<Backup> plain = late(1.0, 20, Map.of()).choose(job);
    assertEquals(List.of("r_a", "r_b"), ids(plain));
    assertEquals(0.0045, plain.get(0).evidence().get("slowTaskThreshold"), 1e-12);
    assertEquals(400.0, plain.get(0).evidence().get("timeLeftSeconds"), 1e-6);
    assertEquals(0.7 / 0.003, plain.get(1).evidence().get("timeLeftSeconds"), 1e-6);
    assertEquals(List.of("r_a"), ids(late(1.0, 10, Map.of()).choose(job)));

    // late-history: rates 0.0048, 0.00297, 4 x 0.00898; threshold 0.0048 + 0.25 x 0.00418 = 0.005845
    List<Backup> history = lateHistory(20, Map.of(), dir).choose(job);
    assertEquals(List.of("r_b", "r_a"), ids(history));
    Map<String, Double> b0 = history.get(0).evidence();
    assertEquals(0.3, b0.get("progress"), 1e-12);
    assertEquals(0.297, b0.get("progressScore"), 1e-9);
    assertEquals(0.00297, b0.get("progressRate"), 1e-12);
    assertEquals(0.005845, b0.get("slowTaskThreshold"), 1e-12);
    assertEquals(0.703 / 0.00297, b0.get("timeLeftSeconds"), 1e-6);    // 236.7 s
    Map<String, Double> a1 = history.get(1).evidence();
    assertEquals(0.2, a1.get("progress"), 1e-12);
    assertEquals(0.48, a1.get("progressScore"), 1e-9);
    assertEquals(0.0048, a1.get("progressRate"), 1e-12);
    assertEquals(0.52 / 0.0048, a1.get("timeLeftSeconds"), 1e-6);      // 108.3 s
    assertEquals("history-weighted progress score 0.480 (Hadoop's 0.200, stage SHUFFLE, node weights "
        + "0.80/0.10/0.10) gives progress rate 0.0048/s below SlowTaskThreshold 0.0058/s (25.000th "
        + "percentile of running and finished reduces); est. time left 108.3 s, rank 2 of 2 candidates by "
        + "time left; 1 backups running, SpeculativeCap 2.000 (0.100 of 20 slots)", history.get(1).reason());
    assertEquals(List.of("r_b"), ids(lateHistory(10, Map.of(), dir).choose(job)));

    // SlowNodeThreshold on scores: totals n1 0.48, n2 0.297, n3 3.592 (plain: 0.2, 0.3, 3.6)
    NodeVerdict n2 = lateHistory(20, Map.of(), dir).judgeBackupNode("n2", job.task("r_a"), job);
    assertFalse(n2.accepted());
    assertTrue(n2.reason().startsWith("slow node: node total history-weighted progress score 0.297 vs "
        + "SlowNodeThreshold 0.38"), n2.reason());
    assertTrue(lateHistory(20, Map.of(), dir).judgeBackupNode("n1", job.task("r_b"), job).accepted());
    assertTrue(late(1.0, 20, Map.of()).judgeBackupNode("n2", job.task("r_a"), job).accepted());
    NodeVerdict n1 = late(1.0, 20, Map.of()).judgeBackupNode("n1", job.task("r_b"), job);
    assertFalse(n1.accepted());
    assertTrue(n1.reason().startsWith("slow node: node total progress 0.200 vs SlowNodeThreshold 0.250"),
        n1.reason());
  }

  /** late-history learns at job end like SAMR (HP blend), but in its own subfolder of the stateDir. */
  @Test
  void lateHistoryWritesItsOwnHistoryApartFromSamrs() throws IOException {
    String node = "host-1:8041";
    JobSnapshot job = new JobBuilder().succeededReduce("r_1", node, 60, 10, 30).build();   // 0.6/0.1/0.3
    lateHistory(20, Map.of(), dir).jobFinished(job);

    assertTrue(Files.isRegularFile(dir.resolve("late-history").resolve("host-1_8041.properties")));
    assertFalse(Files.exists(dir.resolve("host-1_8041.properties")));
    StageWeights.Weights w = lateHistory(20, Map.of(), dir).stageWeights().history(node);
    assertEquals(0.2 * 0.33 + 0.8 * 0.6, w.r1(), 1e-6);   // 0.546
    assertEquals(0.2 * 0.33 + 0.8 * 0.1, w.r2(), 1e-6);   // 0.146
    assertEquals(0.2 * 0.34 + 0.8 * 0.3, w.r3(), 1e-6);   // 0.308
    assertEquals(StageWeights.Weights.DEFAULT, SamrTest.samr(Map.of(), dir).stageWeights().history(node));

    // SAMR learning in the same stateDir leaves late-history's file alone
    SamrTest.samr(Map.of(), dir).jobFinished(new JobBuilder().succeededReduce("r_2", node, 50, 25, 25).build());
    assertEquals(0.2 * 0.33 + 0.8 * 0.5, SamrTest.samr(Map.of(), dir).stageWeights().history(node).r1(), 1e-6);
    assertEquals(0.546, lateHistory(20, Map.of(), dir).stageWeights().history(node).r1(), 1e-6);

    // HP is late-history's parameter too; without a stateDir it learns in memory only
    Late inMemory = lateHistory(20, Map.of("HP", "0.5"), null);
    inMemory.jobFinished(job);
    assertEquals(0.5 * 0.33 + 0.5 * 0.6, inMemory.stageWeights().history(node).r1(), 1e-6);

    // plain LATE keeps no history
    Late plain = late(1.0, 20, Map.of());
    plain.jobFinished(job);
    assertEquals(null, plain.stageWeights());
  }
}
