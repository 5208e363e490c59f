package faultbed.schedulers.policies;

import static faultbed.schedulers.TaskType.MAP;
import static faultbed.schedulers.TaskType.REDUCE;
import static faultbed.schedulers.policies.Hadoop021RuleTest.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.schedulers.Backup;
import faultbed.schedulers.JobSnapshot;
import faultbed.schedulers.NodeVerdict;
import faultbed.schedulers.Phase;
import faultbed.schedulers.PolicySettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SamrTest {

  @TempDir
  Path dir;

  static Samr samr(Map<String, String> params, Path stateDir) {
    Samr s = new Samr();
    s.configure(new PolicySettings(1.0, 8, params, stateDir));
    return s;
  }

  /** A node whose history says copy takes 60%, sort 10%, reduce 30% of a reduce (cf. seed 001 Fig. 8). */
  void history(String node, double r1, double r2, double r3) throws IOException {
    Files.writeString(dir.resolve(StageWeights.fileName(node)),
        "M1=1.0\nM2=0.0\nR1=" + r1 + "\nR2=" + r2 + "\nR3=" + r3 + "\n");
  }

  static JobSnapshot section2BJob() {
    return new JobBuilder()
        .running("r_i", REDUCE, "n1", 0.33, 100, Phase.SORT)
        .running("r_j", REDUCE, "n2", 0.66, 100, Phase.REDUCE)
        .running("r_k", REDUCE, "n3", 0.66, 100, Phase.REDUCE)
        .build();
  }

  /**
   * Seed 001 §II.B: R_i at 0.33 has finished copying and has only the short sort left. With the
   * nodes' history (R1 0.6, R2 0.1, R3 0.3) its score is 0.6, the others' 0.7: rates 0.006 vs 0.007,
   * APR 0.00667, threshold 0.7 x APR = 0.00467. Nothing is slow, where Hadoop and LATE back up R_i.
   */
  @Test
  void section2B_withHistoryTheReducerInSortIsNotSlow() throws IOException {
    for (String n : List.of("n1", "n2", "n3")) {
      history(n, 0.6, 0.1, 0.3);
    }
    JobSnapshot job = section2BJob();
    Samr s = samr(Map.of(), dir);
    assertEquals(List.of(), s.choose(job));
    assertEquals(0.6, s.progressScore(job, REDUCE, job.task("r_i").attempts().get(0), new HashMap<>()), 1e-9);
    assertEquals(0.7, s.progressScore(job, REDUCE, job.task("r_j").attempts().get(0), new HashMap<>()), 1e-9);
    assertEquals(List.of("r_i"), ids(Hadoop021RuleTest.rule(1.0).choose(job)));
    assertEquals(List.of("r_i"), ids(LateTest.late(1.0, 20, Map.of()).choose(job)));
  }

  /** Without history SAMR starts from Hadoop's weights (0.33/0.33/0.34) and also flags R_i. */
  @Test
  void section2B_withDefaultWeightsRiLooksSlow() {
    List<Backup> out = samr(Map.of(), null).choose(section2BJob());
    assertEquals(List.of("r_i"), ids(out));
    assertEquals(0.33, out.get(0).evidence().get("progressScore"), 1e-9);
    // APR = (0.0033 + 0.0066 + 0.0066) / 3 = 0.0055; 0.0033 < 0.7 x 0.0055 = 0.00385
    assertEquals(0.0055, out.get(0).evidence().get("averageProgressRate"), 1e-12);
  }

  /** A reducer still copying (Hadoop 0.1, so SubPS 0.3, PS 0.18) among reducers near the end is slow. */
  @Test
  void findsTheReducerStillCopying() throws IOException {
    for (String n : List.of("n1", "n2", "n3", "n4")) {
      history(n, 0.6, 0.1, 0.3);
    }
    JobSnapshot job = new JobBuilder()
        .running("r_a", REDUCE, "n1", 0.1, 100)
        .running("r_b", REDUCE, "n2", 0.8, 100)
        .running("r_c", REDUCE, "n3", 0.8, 100)
        .running("r_d", REDUCE, "n4", 0.8, 100)
        .build();
    List<Backup> out = samr(Map.of(), dir).choose(job);
    assertEquals(List.of("r_a"), ids(out));
    assertEquals(0.18, out.get(0).evidence().get("progressScore"), 1e-9);
    assertEquals(0.82 / 0.0018, out.get(0).evidence().get("timeToEndSeconds"), 1e-6);
    assertEquals(0.0066, out.get(0).evidence().get("averageProgressRate"), 1e-12);
  }

  static JobBuilder tenMaps() {
    JobBuilder b = new JobBuilder().pending("r_0", REDUCE);
    for (int i = 0; i < 7; i++) {
      b.running("m_f" + i, MAP, "n" + (i % 3 + 1), 0.6, 100); // PS 0.9, 0.009/s
    }
    return b.running("m_s1", MAP, "n1", 0.1, 100)   // PS 0.15: 566.7 s to end
        .running("m_s2", MAP, "n2", 0.2, 100)       // PS 0.30: 233.3 s
        .running("m_s3", MAP, "n3", 0.3, 100);      // PS 0.45: 122.2 s
  }

  /** BP: backups in flight stay below 0.2 x running tasks, checked before each launch. */
  @Test
  void backupsCappedByBp() {
    List<Backup> out = samr(Map.of(), null).choose(tenMaps().build());
    // APR = (7 x 0.009 + 0.0015 + 0.003 + 0.0045) / 10 = 0.0072, threshold 0.00504: three slow, cap 2
    assertEquals(List.of("m_s1", "m_s2"), ids(out));
    assertEquals(2.0, out.get(0).evidence().get("maxBackups"), 1e-9);
    assertEquals(List.of("m_s1", "m_s2", "m_s3"), ids(samr(Map.of("BP", "0.3"), null).choose(tenMaps().build())));

    JobSnapshot withBackup = tenMaps().runningWithBackup("m_b", MAP, "n2", 0.6, 100, "n3", 0.3, 10).build();
    // 11 running tasks: 0.2 x 11 = 2.2, one backup in flight, so two more may start
    assertEquals(List.of("m_s1", "m_s2"), ids(samr(Map.of(), null).choose(withBackup)));
    assertEquals(List.of("m_s1"), ids(samr(Map.of("BP", "0.15"), null).choose(withBackup)));
  }

  static JobSnapshot fiveNodes() {
    JobBuilder b = new JobBuilder();
    for (String n : List.of("n1", "n2", "n3")) {
      b.succeeded("m_" + n + "a", MAP, n, 20).succeeded("m_" + n + "b", MAP, n, 20);
    }
    return b.succeeded("m_n4", MAP, "n4", 80)
        .succeeded("m_n5", MAP, "n5", 100)
        .running("m_run", MAP, "n1", 0.6, 20)
        .succeeded("r_n4", REDUCE, "n4", 30)
        .succeeded("r_n1", REDUCE, "n1", 30)
        .running("r_run", REDUCE, "n2", 0.2, 20)
        .build();
  }

  /**
   * Map rates per node: n1 mean(0.05, 0.05, 0.045) = 0.0483, n2, n3 0.05, n4 0.0125, n5 0.01; mean
   * 0.0342, (1 - STrC) x mean = 0.0273: n4 and n5 are slow map nodes, within STrP 0.3 x 5 = 1.5.
   */
  @Test
  void refusesBackupsOnSlowNodesOfTheTasksType() {
    JobSnapshot job = fiveNodes();
    Samr s = samr(Map.of(), null);
    NodeVerdict v = s.judgeBackupNode("n5", job.task("m_run"), job);
    assertFalse(v.accepted());
    assertTrue(v.reason().contains("map rate 0.0100/s"), v.reason());
    assertFalse(s.judgeBackupNode("n4", job.task("m_run"), job).accepted());
    assertTrue(s.judgeBackupNode("n2", job.task("m_run"), job).accepted());
    // n4 is a slow map node but not a slow reduce node: reduces ran there as fast as on n1
    assertTrue(s.judgeBackupNode("n4", job.task("r_run"), job).accepted());
    // STrP 0.2 x 5 = 1: only the slowest node is slow
    Samr strict = samr(Map.of("STrP", "0.2"), null);
    assertFalse(strict.judgeBackupNode("n5", job.task("m_run"), job).accepted());
    assertTrue(strict.judgeBackupNode("n4", job.task("m_run"), job).accepted());
  }

  /** §III-A: new history = HP x old + (1 - HP) x measured, written per node, read by a fresh instance. */
  @Test
  void historyWrittenAtJobEndAndReadBack() throws IOException {
    String node = "host-1:8041";
    JobSnapshot job = new JobBuilder()
        .succeededMap("m_1", node, 40, 10)            // M 0.8 / 0.2
        .succeededReduce("r_1", node, 60, 10, 30)     // R 0.6 / 0.1 / 0.3
        .succeededReduce("r_2", "other:1", 50, 25, 25)
        .build();
    samr(Map.of(), dir).jobFinished(job);

    Path file = dir.resolve("host-1_8041.properties");
    assertTrue(Files.isRegularFile(file));
    Samr fresh = samr(Map.of(), dir);
    StageWeights.Weights w = fresh.stageWeights().history(node);
    assertEquals(0.2 * 1.0 + 0.8 * 0.8, w.m1(), 1e-6);
    assertEquals(0.2 * 0.0 + 0.8 * 0.2, w.m2(), 1e-6);
    assertEquals(0.2 * 0.33 + 0.8 * 0.6, w.r1(), 1e-6);   // 0.546
    assertEquals(0.2 * 0.33 + 0.8 * 0.1, w.r2(), 1e-6);   // 0.146
    assertEquals(0.2 * 0.34 + 0.8 * 0.3, w.r3(), 1e-6);   // 0.308
    assertEquals(0.2 * 0.33 + 0.8 * 0.25, fresh.stageWeights().history("other:1").r2(), 1e-6);

    // The fresh instance scores a reduce halfway through sort on that node with the learnt weights.
    JobSnapshot next = new JobBuilder().running("r_x", REDUCE, node, 0.5, 50).build();
    assertEquals(0.546 + 0.146 * 0.5,
        fresh.progressScore(next, REDUCE, next.task("r_x").attempts().get(0), new HashMap<>()), 1e-6);

    // A second job blends again from the stored values.
    fresh.jobFinished(new JobBuilder().succeededReduce("r_1", node, 60, 10, 30).build());
    assertEquals(0.2 * 0.546 + 0.8 * 0.6, samr(Map.of(), dir).stageWeights().history(node).r1(), 1e-6);
  }

  @Test
  void withoutStateDirNothingIsWrittenAndDefaultsApply() throws IOException {
    Samr s = samr(Map.of(), null);
    assertEquals(StageWeights.Weights.DEFAULT, s.stageWeights().history("n1"));
    s.jobFinished(new JobBuilder().succeededReduce("r_1", "n1", 60, 10, 30).build());
    assertEquals(0.546, s.stageWeights().history("n1").r1(), 1e-6);   // kept in memory for the next job
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count());
    }
  }

  /** During a job, a node's finished tasks already tune its weights: HP x history + (1 - HP) x now. */
  @Test
  void currentJobTunesWeightsBeforeItEnds() {
    JobSnapshot job = new JobBuilder()
        .succeededReduce("r_1", "n1", 60, 10, 30)
        .running("r_2", REDUCE, "n1", 0.5, 50)
        .build();
    // weights 0.546 / 0.146 / 0.308: halfway through sort scores 0.546 + 0.073
    assertEquals(0.619, samr(Map.of(), null).progressScore(job, REDUCE, job.task("r_2").attempts().get(0),
        new HashMap<>()), 1e-6);
  }

  @Test
  void malformedHistoryIsReportedWithTheFileAndKey() throws IOException {
    Files.writeString(dir.resolve(StageWeights.fileName("n1")), "M1=1\nM2=0\nR1=abc\nR2=0.3\nR3=0.3\n");
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> samr(Map.of(), dir).stageWeights().history("n1"));
    assertTrue(e.getMessage().contains("R1 expected a number, got \"abc\""), e.getMessage());
  }

  @Test
  void minimumRunTimeScalesWithTimeScale() {
    JobBuilder b = new JobBuilder().pending("r_0", REDUCE)
        .running("m_7s", MAP, "n1", 0.02, 7)
        .running("m_5s", MAP, "n2", 0.01, 5);
    for (int i = 0; i < 8; i++) {
      b.running("m_f" + i, MAP, "n3", 0.6, 7);
    }
    JobSnapshot job = b.build();
    Samr scaled = new Samr();
    scaled.configure(new PolicySettings(0.1, 8, Map.of(), null));
    assertEquals(List.of("m_7s"), ids(scaled.choose(job)));
    assertEquals(List.of(), ids(samr(Map.of(), null).choose(job)));
  }
}
