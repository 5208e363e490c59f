package faultbed.schedulers.stealing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Resource stealing (Guo and Fox, CCGrid 2012, §III.B and its Table I): the slots of a node that no
 * task holds are lent to the tasks running there, and taken back as soon as new tasks are given
 * the node. The policies differ only in who gets the idle slots; {@link #STRICT} lends none, every
 * task held to its own slots, which is the baseline the others are measured against.
 *
 * <p>A task is never lent more than it says it can use; what one cannot use goes to the next in the
 * policy's order, so no idle slot is left idle while some task could take it.
 */
public enum StealingPolicy {
  /** No lending: each task keeps to the slots YARN gave it. */
  STRICT("strict", null),
  /** The idle slots shared evenly; a remainder goes to the tasks that started first. */
  EVEN("even", null),
  /** All to the task that started first (first come, first served, as jobs are submitted). */
  FIRST_COME_MOST("first-come-most", Comparator.comparingLong(RunningTask::startMs)),
  /** All to the task expected to end soonest, so it makes way for the next. */
  SHORTEST_TIME_LEFT_MOST("shortest-time-left-most", null),
  /** All to the task expected to end last. */
  LONGEST_TIME_LEFT_MOST("longest-time-left-most", null);

  private final String scenarioName;
  private final Comparator<RunningTask> fixedOrder;

  StealingPolicy(String scenarioName, Comparator<RunningTask> fixedOrder) {
    this.scenarioName = scenarioName;
    this.fixedOrder = fixedOrder;
  }

  /** The name scenario files and records use. */
  public String scenarioName() {
    return scenarioName;
  }

  @Override
  public String toString() {
    return scenarioName;
  }

  /** The policy a scenario names, or an error naming the known ones. */
  public static StealingPolicy named(String name) {
    for (StealingPolicy p : values()) {
      if (p.scenarioName.equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException("expected one of " + names() + ", got \"" + name + "\"");
  }

  public static List<String> names() {
    return java.util.Arrays.stream(values()).map(StealingPolicy::scenarioName).toList();
  }

  /**
   * The slots each task is lent now, by task id (every task appears, with 0 when it gets none).
   *
   * @param idleSlots slots of the node no container holds
   * @param tasks     the tasks that can take more; containers that cannot are not in it
   * @param nowMs     the node's clock, for the time-left policies
   */
  public Map<String, Integer> lend(int idleSlots, List<RunningTask> tasks, long nowMs) {
    Map<String, Integer> lent = new LinkedHashMap<>();
    tasks.forEach(t -> lent.put(t.id(), 0));
    int left = Math.max(0, idleSlots);
    if (this == STRICT || left == 0 || tasks.isEmpty()) {
      return lent;
    }
    // ties broken by start, then name, so a decision is the same however the tasks were listed
    Comparator<RunningTask> tieBreak = Comparator.comparingLong(RunningTask::startMs).thenComparing(RunningTask::id);
    List<RunningTask> order = new ArrayList<>(tasks);
    if (this == EVEN) {
      order.sort(tieBreak);
      // round robin, one slot at a time, over the tasks with room: an even split of what they can use
      boolean gave = true;
      while (left > 0 && gave) {
        gave = false;
        for (RunningTask t : order) {
          if (left > 0 && lent.get(t.id()) < t.room()) {
            lent.merge(t.id(), 1, Integer::sum);
            left--;
            gave = true;
          }
        }
      }
      return lent;
    }
    Comparator<RunningTask> by = switch (this) {
      case SHORTEST_TIME_LEFT_MOST -> Comparator.comparingDouble(t -> t.timeLeftMs(nowMs));
      case LONGEST_TIME_LEFT_MOST -> Comparator.<RunningTask>comparingDouble(t -> t.timeLeftMs(nowMs)).reversed();
      default -> fixedOrder;
    };
    order.sort(by.thenComparing(tieBreak));
    for (RunningTask t : order) {
      int give = Math.min(left, t.room());
      lent.put(t.id(), give);
      left -= give;
    }
    return lent;
  }
}
