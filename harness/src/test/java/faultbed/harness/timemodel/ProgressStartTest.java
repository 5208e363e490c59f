package faultbed.harness.timemodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RunRecord.AttemptRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where a map's progress began, read from progress clocks as Hadoop's AM writes them (clocks taken
 * from WordCount maps of this machine's records).
 */
class ProgressStartTest {
  @Test
  void aFirstReportPartWayThroughTheMapPhaseIsTracedBackAtThePhasesRate() {
    // the first report showed 7/12 at 16.4 s; the map phase (to 8/12) ended at 16.9 s, 0.46 s a twelfth
    AttemptRecord a = map(1_000L, 1_000L + 16_896, List.of(2347, 2348, 2348, 2348, 2348, 2348, 2347, 890, 2042, 153,
        152, 153));
    assertEquals(1_000L + 16_434 - 7 * 462, ProgressStart.of(a).getAsLong());
  }

  @Test
  void aReportOfNoProgressBoundsTheStartWhenTheFirstShowingReportCameAfterTheMapPhase() {
    // a report of none at 12.9 s, the next at 14.2 s already past 2/3, the map phase over at 13.85 s:
    // progress began in between, taken at the middle
    AttemptRecord a = map(0L, 13_853L, List.of(13006, 160, 160, 160, 160, 160, 160, 160, 809, 61, 61, 61));
    assertEquals((12_846L + 13_853L) / 2, ProgressStart.of(a).getAsLong());
    // a report of none after the phase's end (the task's clock and the AM's differ by milliseconds)
    AttemptRecord late = map(0L, 13_853L, List.of(13916, 40, 41, 40, 41, 40, 41, 40, 809, 61, 61, 61));
    assertEquals(13_876L, ProgressStart.of(late).getAsLong());
  }

  @Test
  void withoutAClockOrAReportOfNoneItSaysNothing() {
    assertTrue(ProgressStart.of(map(0L, 10_000L, null)).isEmpty());
    assertTrue(ProgressStart.of(map(0L, 10_000L, List.of(100, 100, 100))).isEmpty(), "a killed map's short clock");
    // one report, after the map phase, and none before it: anywhere from the launch
    assertTrue(ProgressStart.of(map(0L, 9_000L, List.of(800, 800, 800, 800, 800, 800, 800, 800, 800, 800, 800, 1200)))
        .isEmpty());
  }

  @Test
  void aConditionOfEveryNodeFromStartToEndIsTheBaselineAndNothingLessIs() {
    Map<String, String> half = Map.of("cpuCores", "0.5", "injectionMs", "40");
    List<Baseline.Condition> all = List.of(new Baseline.Condition("slow-node", 0, true, true, half),
        new Baseline.Condition("slow-node", 1, true, true, Map.of("cpuCores", "0.5", "injectionMs", "52")),
        new Baseline.Condition("cpu-hog", 1, false, true, Map.of("spinners", "2")));
    assertEquals(List.of("slow-node cpuCores=0.5"), Baseline.of(2, all));
    assertEquals(List.of(), Baseline.of(3, all), "a node without it");
    assertEquals(List.of(), Baseline.of(2, List.of(all.get(0),
        new Baseline.Condition("slow-node", 1, true, false, half))), "healed before the end on one node");
  }

  private static AttemptRecord map(Long start, Long mapFinish, List<Integer> clock) {
    return new AttemptRecord("attempt_1_0001_m_000000_0", "task_1_0001_m_000000", "MAP", 0, 0, "h", null, start,
        mapFinish + 2_000, mapFinish, null, null, "SUCCEEDED", false, null, 1, mapFinish + 2_000, null, clock);
  }
}
