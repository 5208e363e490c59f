package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.CpuShare;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What maps held to a CPU share used of it, from hand-made records. */
class CpuUseTest {
  static AttemptRecord map(String id, long start, long finish) {
    return new AttemptRecord("attempt_1_0001_m_00000" + id + "_0", "task_1_0001_m_00000" + id, "MAP", 0, 0,
        "h", "container_" + id, start, finish, finish, finish, finish, "SUCCEEDED", false, null, 1, finish, null);
  }

  static RunRecord run(String variant, List<CpuShare> shares) {
    return RunRecordBuilder.builder().schemaVersion(RunRecord.SCHEMA_VERSION).runId(variant + "-000").scenario("s")
        .variant(variant).runIndex(0).seed(1).startedAt("t")
        .cluster(new RunRecord.ClusterInfo("namespace", 2, 2048, 4))
        .attempts(List.of(map("1", 0, 10_000), map("2", 0, 10_000)))
        .job(new RunRecord.JobOutcome("job_1_0001", "SUCCEEDED", true, 0, 12_000L, 2, 1, null))
        .cpuShares(shares).build();
  }

  @Test
  void aMapLentASlotUsesCpuBeyondItsOwn() {
    // map 1 alone at a slot (0.5 cores) for 10 s; map 2 at one slot for 2 s, then lent 2 slots for 8 s and
    // using 1.25 cores of the 1.5
    RunRecord lent = run("even", List.of(new CpuShare(0, "c1", 0, 10_000, 0.5, 0.5),
        new CpuShare(1, "c2", 0, 2_000, 0.5, 0.5), new CpuShare(1, "c2", 2_000, 10_000, 1.5, 1.25)));
    RunRecord strict = run("strict", List.of(new CpuShare(0, "c1", 0, 10_000, 0.5, 0.5),
        new CpuShare(1, "c2", 0, 10_000, 0.5, 0.5)));
    CpuUse use = CpuUse.of(List.of(lent, strict));
    CpuUse.Variant even = use.variants().get(0);
    assertEquals("even", even.variant());
    assertEquals(0.5, even.slotCores());
    assertArrayEquals(new double[] {5 + 1 + 10}, even.mapCoreSeconds(), 1e-9);
    assertArrayEquals(new double[] {0.75 * 8}, even.beyondCoreSeconds(), 1e-9);
    // the nodes offer 2 nodes x 4 vcores x 0.5 cores over the 10 s map phase: 40 core-s
    assertArrayEquals(new double[] {16.0 / 40}, even.utilisation(), 1e-9);
    CpuUse.Variant held = use.variants().get(1);
    assertArrayEquals(new double[] {0}, held.beyondCoreSeconds(), 1e-9);
    assertArrayEquals(new double[] {10.0 / 40}, held.utilisation(), 1e-9);
  }

  @Test
  void runsWithoutSharesShowNothing() {
    assertTrue(CpuUse.of(List.of(run("off", List.of()))).isEmpty());
  }
}
