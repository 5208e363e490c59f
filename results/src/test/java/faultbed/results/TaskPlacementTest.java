package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.PlacementEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where tasks ran and what a placement policy did, from hand-made records. */
class TaskPlacementTest {
  static AttemptRecord map(int i, int node, String locality, long start, long finish) {
    return new AttemptRecord("attempt_1_0001_m_00000" + i + "_0", "task_1_0001_m_00000" + i, "MAP", 0, node, "h",
        "container_m" + i, start, finish, finish, null, null, "SUCCEEDED", false, null, 1, finish, locality);
  }

  static AttemptRecord reduce(int i, int node) {
    return new AttemptRecord("attempt_1_0001_r_00000" + i + "_0", "task_1_0001_r_00000" + i, "REDUCE", 0, node, "h",
        "container_r" + i, 5_000L, 20_000L, null, 15_000L, 16_000L, "SUCCEEDED", false, null, 1, 20_000L);
  }

  static RunRecord run(String variant, String policy, List<AttemptRecord> attempts, List<PlacementEvent> events) {
    return RunRecordBuilder.builder().schemaVersion(RunRecord.SCHEMA_VERSION).runId(variant + "-000").scenario("s")
        .variant(variant).runIndex(0).seed(1).startedAt("t").attempts(attempts)
        .job(new RunRecord.JobOutcome("job_1_0001", "SUCCEEDED", true, 0, 21_000L, 2, 1, null))
        .mapPlacement(policy).placementEvents(events).build();
  }

  @Test
  void stockAndAPolicyAreSeenSideBySide() {
    RunRecord stock = run("stock", null, List.of(map(1, 0, "NODE_LOCAL", 0, 4_000), map(2, 2, "RACK_LOCAL", 0, 9_000),
        reduce(1, 2)), List.of());
    RunRecord placed = run("min", "min-completion", List.of(map(1, 0, "NODE_LOCAL", 1_000, 5_000),
        map(2, 1, "NODE_LOCAL", 1_000, 7_000), reduce(1, 1)), List.of(
        new PlacementEvent(1_000, "assigned", "MAP", 0, "attempt_1_0001_m_000001_0", 4_000.0, 2, null, "x"),
        new PlacementEvent(1_000, "assigned", "MAP", 1, "attempt_1_0001_m_000002_0", 3_000.0, 1, null, "x"),
        new PlacementEvent(1_200, "released", "MAP", 2, null, null, null, null, "x"),
        new PlacementEvent(4_000, "released", "REDUCE", 2, null, 9_000.0, null, 1, "x")));
    TaskPlacement p = TaskPlacement.of(List.of(stock, placed));
    assertEquals(2, p.variants().size());
    TaskPlacement.Variant s = p.variants().get(0);
    assertEquals("stock", s.policy());
    assertEquals(Map.of(2, 1), s.reducesByNode());
    assertEquals(1, s.mapsOffSplit());
    assertEquals(2, s.maps());
    assertEquals(0, s.releasedPerRun().length);

    TaskPlacement.Variant m = p.variants().get(1);
    assertEquals("min-completion", m.policy());
    assertEquals(Map.of(1, 1), m.reducesByNode());
    assertEquals(0, m.mapsOffSplit());
    assertArrayEquals(new double[] {2}, m.releasedPerRun());
    // map 1: 4 s from placement to end, expected 4 s; map 2: 6 s, expected 3 s
    assertArrayEquals(new double[] {1.0, 2.0}, m.foretold(), 1e-9);
    assertEquals(1.5, m.median(m.foretold()), 1e-9);
  }

  @Test
  void aSuiteWithoutAPlacementPolicyShowsNothing() {
    assertTrue(TaskPlacement.of(List.of(run("stock", null, List.of(reduce(1, 0)), List.of()))).isEmpty());
  }
}
