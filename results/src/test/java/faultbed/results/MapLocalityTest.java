package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RunRecord.AttemptRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MapLocalityTest {

  private static AttemptRecord map(int task, long startMs, long finishMs, String state, boolean backup, String locality) {
    return new AttemptRecord("attempt_1_0001_m_" + task + (backup ? "_1" : "_0"), "task_1_0001_m_" + task, "MAP",
        backup ? 1 : 0, 0, "localhost:0", "container_" + task, startMs, finishMs, finishMs, null, null, state, backup,
        null, 1, "SUCCEEDED".equals(state) ? finishMs : null, locality);
  }

  private static RunRecord run(String variant, List<AttemptRecord> attempts) {
    return new RunRecord(RunRecord.SCHEMA_VERSION, variant + "-000", "s", variant, 0, 1, "t",
        new RunRecord.ClusterInfo("namespace", 4, 1024, 2), Map.of(), null, List.of(), List.of(), List.of(), attempts,
        List.of(), new RunRecord.JobOutcome("job_1_0001", "SUCCEEDED", true, 0, 60_000L, 4, 1, null), Map.of(),
        List.of(), null, null, List.of(), null, null, List.of(), null, null, null, null, null, null, null, null);
  }

  /**
   * Two local maps and one that lost its locality and ended last: the rows count first attempts only
   * (the backup is YARN's second placement, not the task's), and the last map is the rack-local one.
   */
  @Test
  void countsFirstAttemptsByLocalityAndNamesTheLastMapsLocality() {
    RunRecord r = run("two-classes", List.of(
        map(0, 1_000, 5_000, "SUCCEEDED", false, "NODE_LOCAL"),
        map(1, 1_000, 7_000, "SUCCEEDED", false, "NODE_LOCAL"),
        map(2, 6_000, 15_000, "SUCCEEDED", false, "RACK_LOCAL"),
        map(2, 12_000, 16_000, "KILLED", true, "NODE_LOCAL")));
    MapLocality l = MapLocality.of(List.of(r));
    assertFalse(l.isEmpty());
    MapLocality.Variant v = l.variants().get(0);
    assertEquals(List.of("NODE_LOCAL", "RACK_LOCAL"), v.rows().stream().map(MapLocality.Row::locality).toList());
    MapLocality.Row local = v.rows().get(0);
    MapLocality.Row rack = v.rows().get(1);
    assertEquals(2, local.maps());
    assertEquals(5.0, local.median(), 1e-9);
    assertEquals(0, local.lastMapRuns());
    assertEquals(1, rack.maps());
    assertEquals(1.0 / 3, rack.share(), 1e-9);
    assertEquals(9.0, rack.median(), 1e-9);
    assertEquals(1, rack.lastMapRuns());
  }

  /** Every map on its split (the mini backend), or records without locality: nothing to show. */
  @Test
  void allLocalOrUnknownIsEmpty() {
    assertTrue(MapLocality.of(List.of(run("a", List.of(map(0, 0, 1_000, "SUCCEEDED", false, "NODE_LOCAL"))))).isEmpty());
    assertTrue(MapLocality.of(List.of(run("a", List.of(map(0, 0, 1_000, "SUCCEEDED", false, null))))).isEmpty());
  }
}
