package faultbed.schedulers.policies;

import static faultbed.schedulers.TaskType.MAP;
import static faultbed.schedulers.TaskType.REDUCE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.schedulers.Backup;
import faultbed.schedulers.JobSnapshot;
import faultbed.schedulers.Phase;
import faultbed.schedulers.PolicySettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Hadoop021RuleTest {

  static Hadoop021Rule rule(double timeScale) {
    Hadoop021Rule r = new Hadoop021Rule();
    r.configure(new PolicySettings(timeScale, 8, Map.of(), null));
    return r;
  }

  static List<String> ids(List<Backup> backups) {
    return backups.stream().map(Backup::taskId).toList();
  }

  /**
   * Seed 000 §3.1: average progress about 70%, a 1.4x slower task at 50% and a 10x slower task at 7%.
   * Both are below the threshold and "equally slow"; the 1.4x one comes first (here by task id).
   */
  static JobSnapshot section31Job() {
    JobBuilder b = new JobBuilder();
    for (int i = 0; i < 4; i++) {
      b.succeeded("task_m_00002" + i, MAP, "n" + (i % 4 + 1), 140);
    }
    for (int i = 0; i < 4; i++) {
      b.running("task_m_00001" + i, MAP, "n" + (i % 4 + 1), 0.7, 100);
    }
    b.running("task_m_000001", MAP, "n2", 0.5, 100);  // 1.4x slower: 0.005/s
    b.running("task_m_000009", MAP, "n4", 0.07, 100); // 10x slower: 0.0007/s
    return b.build();
  }

  @Test
  void section31_bothStragglersAreEquallySlowAndTheNearlyDoneOneComesFirst() {
    List<Backup> out = rule(1.0).choose(section31Job());
    assertEquals(List.of("task_m_000001", "task_m_000009"), ids(out));
    // average = (4 x 1.0 + 4 x 0.7 + 0.5 + 0.07) / 10 = 0.737, threshold 0.537
    assertEquals(0.737, out.get(0).evidence().get("averageProgress"), 1e-9);
    assertEquals(0.537, out.get(0).evidence().get("threshold"), 1e-9);
    assertTrue(out.get(0).reason().contains("0.500 below the map average 0.737 minus 0.200 (= 0.537)"),
        out.get(0).reason());
  }

  /** Seed 001 §II.B: reducers at 0.33, 0.66, 0.66: average 0.55, so R_i (0.33 &lt; 0.35) is backed up. */
  @Test
  void samrSection2B_backsUpTheReducerThatOnlyHasTheShortSortLeft() {
    JobSnapshot job = new JobBuilder()
        .running("r_i", REDUCE, "n1", 0.33, 100, Phase.SORT)
        .running("r_j", REDUCE, "n2", 0.66, 100, Phase.REDUCE)
        .running("r_k", REDUCE, "n3", 0.66, 100, Phase.REDUCE)
        .build();
    List<Backup> out = rule(1.0).choose(job);
    assertEquals(List.of("r_i"), ids(out));
    assertEquals(0.55, out.get(0).evidence().get("averageProgress"), 1e-9);
  }

  /** Seed 000 §4.2: T1 at 60% and T2 at 50% are within 0.2 of their average: neither is a straggler. */
  @Test
  void section42_neitherPhasedTaskIsBehindTheAverageByPointTwo() {
    JobSnapshot job = new JobBuilder()
        .running("T1", MAP, "n1", 0.6, 80)
        .running("T2", MAP, "n2", 0.5, 70)
        .build();
    assertEquals(List.of(), rule(1.0).choose(job));
  }

  /** 60 s scaled by the time scale: at 0.1 the gate is 6 s. */
  @Test
  void minimumRunTimeScalesWithTimeScale() {
    JobSnapshot job = new JobBuilder()
        .succeeded("m_done1", MAP, "n1", 8)
        .succeeded("m_done2", MAP, "n2", 8)
        .running("m_7s", MAP, "n3", 0.1, 7)
        .running("m_5s", MAP, "n4", 0.1, 5)
        .build();
    // average (1 + 1 + 0.1 + 0.1) / 4 = 0.55: both are below 0.35 by progress
    assertEquals(List.of("m_7s"), ids(rule(0.1).choose(job)));
    assertEquals(List.of(), ids(rule(1.0).choose(job)));
  }

  @Test
  void pendingTasksDoNotCountAndBackedUpTasksAreSkipped() {
    JobSnapshot job = new JobBuilder()
        .succeeded("m_done", MAP, "n1", 70)
        .running("m_slow", MAP, "n2", 0.2, 100)
        .runningWithBackup("m_slow2", MAP, "n3", 0.1, 100, "n1", 0.3, 10)
        .pending("m_wait", MAP)
        .build();
    // average over running and finished = (1 + 0.2 + 0.3) / 3 = 0.5 (a pending task would lower it)
    List<Backup> out = rule(1.0).choose(job);
    assertEquals(List.of("m_slow"), ids(out));
    assertEquals(0.5, out.get(0).evidence().get("averageProgress"), 1e-9);
  }

  @Test
  void mapsAndReducesHaveSeparateAverages() {
    JobSnapshot job = new JobBuilder()
        .running("m_1", MAP, "n1", 0.3, 100)
        .running("m_2", MAP, "n2", 0.4, 100)
        .running("r_1", REDUCE, "n1", 0.9, 100)
        .running("r_2", REDUCE, "n2", 0.95, 100)
        .running("r_3", REDUCE, "n3", 0.5, 100)
        .build();
    // maps: 0.35 - 0.2 = 0.15, none; reduces: 0.783 - 0.2 = 0.583, r_3. (Pooled, 0.41 would take the maps.)
    assertEquals(List.of("r_3"), ids(rule(1.0).choose(job)));
  }
}
