package faultbed.schedulers.policies;

import static faultbed.schedulers.TaskType.MAP;
import static faultbed.schedulers.policies.Hadoop021RuleTest.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.schedulers.AttemptSnapshot;
import faultbed.schedulers.Backup;
import faultbed.schedulers.JobSnapshot;
import faultbed.schedulers.NodeVerdict;
import faultbed.schedulers.PolicySettings;
import faultbed.schedulers.TaskSnapshot;
import faultbed.schedulers.TaskState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BaseTest {

  static Base base(double timeScale) {
    Base b = new Base();
    b.configure(new PolicySettings(timeScale, 8, Map.of(), null));
    return b;
  }

  /**
   * Seed 002 §III.C in percent per second: T1 at 90% progressing at 1%/s, T2 (and two peers) at 50%
   * progressing at 5%/s. Two maps already completed on n2 in 20 s each, the time a copy running as
   * fast as T2 needs.
   */
  static JobBuilder section3CJob() {
    return new JobBuilder()
        .succeeded("m_done1", MAP, "n2", 20)
        .succeeded("m_done2", MAP, "n2", 20)
        .running("T1", MAP, "n1", 0.9, 90)
        .running("T2", MAP, "n2", 0.5, 10)
        .running("T3", MAP, "n3", 0.5, 10)
        .running("T4", MAP, "n4", 0.5, 10);
  }

  /** T1 is a straggler (1%/s vs mean 4%/s, std 1.7%/s) but has 10 s left; a copy needs 20 s: declined. */
  @Test
  void section3C_declinesTheUselessBackupOfTheNearlyDoneStraggler() {
    JobSnapshot job = section3CJob().build();
    assertEquals(10.0, Late.timeLeftSeconds(job.task("T1").attempts().get(0), job.nowMs()), 1e-9);
    assertEquals(20.0, Base.bestNode(job, MAP).orElseThrow().seconds(), 1e-9);
    assertEquals(List.of(), base(1.0).choose(job));
    // Hadoop's rate rule alone would back T1 up: 0.04 - 0.01 > 1 x 0.0173.
    assertEquals(List.of("T1"), base(1.0).stragglers(job).stream().map(TaskSnapshot::id).toList());
  }

  /** Add T5 at 70% after 70 s (also 1%/s): 30 s left, more than a copy's 20 s, so T5 and only T5. */
  @Test
  void section3C_backsUpTheStragglerAFreshCopyWouldBeat() {
    JobSnapshot job = section3CJob().running("T5", MAP, "n3", 0.7, 70).build();
    List<Backup> out = base(1.0).choose(job);
    assertEquals(List.of("T5"), ids(out));
    assertEquals(30.0, out.get(0).evidence().get("timeLeftSeconds"), 1e-9);
    assertEquals(20.0, out.get(0).evidence().get("bestBackupSeconds"), 1e-9);
    assertTrue(out.get(0).reason().contains("est. time left 30.0 s exceeds a new attempt's expected 20.0 s"
        + " (harmonic mean of 2 completed maps on n2)"), out.get(0).reason());
  }

  /** The node YARN picks is judged by its own completed tasks, else by the job's. */
  @Test
  void refusesANodeWhereTheBackupWouldNotWin() {
    JobSnapshot before = section3CJob()
        .succeeded("m_done3", MAP, "n3", 60)
        .build();
    // T5 has 30 s left and a backup placed somewhere
    AttemptSnapshot original = JobBuilder.runningAttempt("T5_0", MAP, "n3", 0.7, 70,
        JobBuilder.phaseOf(MAP, 0.7), false);
    Base b = base(1.0);
    for (String node : List.of("n2", "n3", "n5")) {
      AttemptSnapshot backup = JobBuilder.runningAttempt("T5_1", MAP, node, 0.0, 1,
          JobBuilder.phaseOf(MAP, 0.0), true);
      TaskSnapshot t5 = new TaskSnapshot("T5", MAP, TaskState.RUNNING, List.of(original, backup), true);
      List<TaskSnapshot> tasks = new java.util.ArrayList<>(before.tasks());
      tasks.add(t5);
      JobSnapshot job = new JobSnapshot(before.nowMs(), tasks);
      NodeVerdict v = b.judgeBackupNode(node, t5, job);
      switch (node) {
        case "n2" -> assertTrue(v.accepted(), v.reason());   // 20 s on n2
        case "n3" -> {                                        // 60 s on n3
          assertFalse(v.accepted(), v.reason());
          assertTrue(v.reason().contains("expected 60.0 s (harmonic mean of 1 completed maps on n3)"
              + " vs original's est. time left 30.0 s"), v.reason());
        }
        default -> {                                          // no history on n5: the job's 20, 20, 60
          assertTrue(v.accepted(), v.reason());
          assertTrue(v.reason().contains("25.7 s (harmonic mean of 3 completed maps of the job, none on n5)"),
              v.reason());
        }
      }
    }
  }

  @Test
  void harmonicMeanOfCompletedTimes() {
    JobSnapshot job = new JobBuilder()
        .succeeded("m_1", MAP, "n1", 10)
        .succeeded("m_2", MAP, "n1", 40)
        .succeeded("m_3", MAP, "n2", 100)
        .build();
    assertEquals(16.0, Base.estimate(job, "n1", MAP).orElseThrow().seconds(), 1e-9);   // 2 / (1/10 + 1/40)
    assertEquals(3 / (0.1 + 0.025 + 0.01), Base.estimate(job, "n9", MAP).orElseThrow().seconds(), 1e-9);
    assertTrue(Base.estimate(job, "n1", faultbed.schedulers.TaskType.REDUCE).isEmpty());
  }

  @Test
  void nothingToPredictFromMeansNoBackup() {
    JobSnapshot job = new JobBuilder()
        .running("T1", MAP, "n1", 0.1, 90)
        .running("T2", MAP, "n2", 0.5, 10)
        .running("T3", MAP, "n3", 0.5, 10)
        .running("T4", MAP, "n4", 0.5, 10)
        .build();
    assertEquals(List.of(), base(1.0).choose(job));
  }

  @Test
  void minimumRunTimeScalesWithTimeScale() {
    JobSnapshot job = new JobBuilder()
        .succeeded("m_done", MAP, "n2", 2)
        .running("m_7s", MAP, "n1", 0.01, 7)
        .running("m_5s", MAP, "n1", 0.01, 5)
        .running("m_f1", MAP, "n2", 0.9, 7)
        .running("m_f2", MAP, "n3", 0.9, 7)
        .running("m_f3", MAP, "n4", 0.9, 7)
        .running("m_f4", MAP, "n4", 0.9, 7)
        .build();
    assertEquals(List.of("m_7s"), ids(base(0.1).choose(job)));
    assertEquals(List.of(), ids(base(1.0).choose(job)));
  }
}
