package faultbed.schedulers;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the AM knows about one job at {@code nowMs}: every task with every attempt, finished ones
 * included, so per-node history (what finished where, and how fast) can be derived from it.
 */
public record JobSnapshot(long nowMs, List<TaskSnapshot> tasks) {

  public JobSnapshot {
    tasks = List.copyOf(tasks);
  }

  public List<TaskSnapshot> tasks(TaskType type) {
    return tasks.stream().filter(t -> t.type() == type).toList();
  }

  /** Every node that has run an attempt of this job, sorted. */
  public Set<String> nodes() {
    Set<String> out = new TreeSet<>();
    for (TaskSnapshot t : tasks) {
      for (AttemptSnapshot a : t.attempts()) {
        if (a.node() != null) {
          out.add(a.node());
        }
      }
    }
    return out;
  }

  /** Attempts that ran or run on {@code node}. */
  public List<AttemptSnapshot> attemptsOn(String node) {
    return tasks.stream().flatMap(t -> t.attempts().stream()).filter(a -> node.equals(a.node())).toList();
  }

  /** Backup attempts currently in flight (LATE's SpeculativeCap and SAMR's BP count these). */
  public int runningBackups() {
    return (int) tasks.stream().flatMap(t -> t.attempts().stream())
        .filter(a -> a.backup() && a.state().active()).count();
  }

  public TaskSnapshot task(String id) {
    return tasks.stream().filter(t -> t.id().equals(id)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no task " + id));
  }
}
