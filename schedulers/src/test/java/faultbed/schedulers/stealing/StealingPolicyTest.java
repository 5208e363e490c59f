package faultbed.schedulers.stealing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The four policies of Guo and Fox's Table I, and strict, on hand-built nodes. */
class StealingPolicyTest {
  static final long NOW = 100_000;

  // started at 10 s, half done: 90 s for half, 90 s left
  static final RunningTask EARLY_SLOW = new RunningTask("early-slow", 10_000, 0.5, 1, 8);
  // started at 60 s, 80 % done: 40 s for 0.8, 10 s left
  static final RunningTask LATE_FAST = new RunningTask("late-fast", 60_000, 0.8, 1, 8);
  // started at 90 s, no progress yet: time left unknown, taken as the longest
  static final RunningTask NEW = new RunningTask("new", 90_000, 0.0, 1, 8);
  static final List<RunningTask> THREE = List.of(LATE_FAST, NEW, EARLY_SLOW);

  @Test
  void timeLeftIsLatesEstimate() {
    assertEquals(90_000, EARLY_SLOW.timeLeftMs(NOW), 1e-6);
    assertEquals(10_000, LATE_FAST.timeLeftMs(NOW), 1e-6);
    assertEquals(Double.POSITIVE_INFINITY, NEW.timeLeftMs(NOW));
  }

  @Test
  void strictLendsNothing() {
    assertEquals(Map.of("late-fast", 0, "new", 0, "early-slow", 0), StealingPolicy.STRICT.lend(5, THREE, NOW));
  }

  @Test
  void evenSharesAndGivesTheRemainderToTheEarliest() {
    assertEquals(Map.of("early-slow", 2, "late-fast", 2, "new", 1), StealingPolicy.EVEN.lend(5, THREE, NOW));
    assertEquals(Map.of("early-slow", 1, "late-fast", 0, "new", 0), StealingPolicy.EVEN.lend(1, THREE, NOW));
  }

  @Test
  void firstComeMostGivesAllToTheFirstStarted() {
    assertEquals(Map.of("early-slow", 5, "late-fast", 0, "new", 0), StealingPolicy.FIRST_COME_MOST.lend(5, THREE, NOW));
  }

  @Test
  void shortestTimeLeftMostGivesAllToTheTaskNearestItsEnd() {
    assertEquals(Map.of("late-fast", 5, "early-slow", 0, "new", 0),
        StealingPolicy.SHORTEST_TIME_LEFT_MOST.lend(5, THREE, NOW));
  }

  @Test
  void longestTimeLeftMostGivesAllToTheTaskFarthestFromItsEnd() {
    assertEquals(Map.of("new", 5, "early-slow", 0, "late-fast", 0),
        StealingPolicy.LONGEST_TIME_LEFT_MOST.lend(5, THREE, NOW));
    List<RunningTask> known = List.of(LATE_FAST, EARLY_SLOW);
    assertEquals(Map.of("early-slow", 3, "late-fast", 0), StealingPolicy.LONGEST_TIME_LEFT_MOST.lend(3, known, NOW));
  }

  @Test
  void aTaskGetsNoMoreThanItCanUseAndTheRestGoesToTheNext() {
    RunningTask nearlyDone = new RunningTask("nearly-done", 60_000, 0.8, 1, 2); // one unit left beside its own
    List<RunningTask> tasks = List.of(nearlyDone, EARLY_SLOW);
    assertEquals(Map.of("nearly-done", 1, "early-slow", 3),
        StealingPolicy.SHORTEST_TIME_LEFT_MOST.lend(4, tasks, NOW));
    assertEquals(Map.of("nearly-done", 1, "early-slow", 3), StealingPolicy.EVEN.lend(4, tasks, NOW));
    RunningTask full = new RunningTask("full", 0, 0.5, 2, 2);
    assertEquals(Map.of("full", 0), StealingPolicy.FIRST_COME_MOST.lend(3, List.of(full), NOW),
        "slots nobody can use stay idle");
  }

  @Test
  void noIdleSlotsOrNoTasksLendNothing() {
    assertEquals(Map.of("late-fast", 0, "new", 0, "early-slow", 0), StealingPolicy.EVEN.lend(0, THREE, NOW));
    assertEquals(Map.of(), StealingPolicy.EVEN.lend(4, List.of(), NOW));
  }

  @Test
  void theOrderTasksAreListedInChangesNothing() {
    List<RunningTask> twins = List.of(new RunningTask("b", 5, 0.5, 1, 9), new RunningTask("a", 5, 0.5, 1, 9));
    for (StealingPolicy p : StealingPolicy.values()) {
      assertEquals(p.lend(3, twins, NOW), p.lend(3, List.of(twins.get(1), twins.get(0)), NOW), p.scenarioName());
    }
    assertEquals(Map.of("a", 3, "b", 0), StealingPolicy.SHORTEST_TIME_LEFT_MOST.lend(3, twins, NOW));
  }

  @Test
  void namesAreTheScenarioNames() {
    assertEquals(StealingPolicy.SHORTEST_TIME_LEFT_MOST, StealingPolicy.named("shortest-time-left-most"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StealingPolicy.named("fcm"));
    assertEquals("expected one of [strict, even, first-come-most, shortest-time-left-most, longest-time-left-most],"
        + " got \"fcm\"", e.getMessage());
  }
}
