package faultbed.schedulers.policies;

import faultbed.schedulers.AttemptSnapshot;
import faultbed.schedulers.Backup;
import faultbed.schedulers.JobSnapshot;
import faultbed.schedulers.PolicySettings;
import faultbed.schedulers.SpeculationPolicy;
import faultbed.schedulers.TaskSnapshot;
import faultbed.schedulers.TaskState;
import faultbed.schedulers.TaskType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Hadoop's original speculation rule as seed 000 §2.1 describes it: a task is a straggler when its
 * progress score is below the average progress of its category (maps or reduces) minus 0.2 and it
 * has run for at least one minute; at most one speculative copy per task.
 *
 * <p>Readings: the category average is taken over the tasks of that type that are running or have
 * succeeded (a succeeded task counts 1.0), as Hadoop's job-wide map/reduce progress does once every
 * task has been started. Stragglers are "equally slow" (§2.1); Hadoop broke ties by data locality,
 * which an AM cannot see before YARN places the container, so they are returned in task-id order.
 * There is no cap beyond one backup per task, as in the seed.
 *
 * <p>Parameters: {@code progressGap} (0.2), {@code minRunSeconds} (60, scaled by the time scale).
 */
public final class Hadoop021Rule implements SpeculationPolicy {

  private double gap = 0.2;
  private long minRunMs = 60_000;

  @Override
  public String name() {
    return "hadoop-0.21";
  }

  @Override
  public void configure(PolicySettings settings) {
    gap = settings.number("progressGap", 0.2);
    minRunMs = settings.millis("minRunSeconds", 60);
  }

  @Override
  public List<Backup> choose(JobSnapshot job) {
    List<Backup> out = new ArrayList<>();
    for (TaskType type : TaskType.values()) {
      List<TaskSnapshot> counted = job.tasks(type).stream()
          .filter(t -> t.state() == TaskState.RUNNING || t.state() == TaskState.SUCCEEDED).toList();
      if (counted.isEmpty()) {
        continue;
      }
      double avg = counted.stream().mapToDouble(Tasks::progress).average().orElse(0);
      double threshold = avg - gap;
      for (TaskSnapshot t : job.tasks(type)) {
        AttemptSnapshot a = Tasks.raceable(t).orElse(null);
        if (a == null || a.elapsedMs(job.nowMs()) < minRunMs || !(a.progress() < threshold)) {
          continue;
        }
        String kind = type == TaskType.MAP ? "map" : "reduce";
        double ranSec = a.elapsedMs(job.nowMs()) / 1000.0;
        String reason = "progress " + Stats.num(a.progress()) + " below the " + kind + " average "
            + Stats.num(avg) + " minus " + Stats.num(gap) + " (= " + Stats.num(threshold) + ") of "
            + counted.size() + " running/finished " + kind + "s, after " + Stats.secs(ranSec)
            + " running (at least " + Stats.secs(minRunMs / 1000.0)
            + "); all such tasks count as equally slow, taken in task-id order";
        out.add(new Backup(t.id(), reason, Map.of("progress", a.progress(), "averageProgress", avg,
            "threshold", threshold, "runSeconds", ranSec, "minRunSeconds", minRunMs / 1000.0)));
      }
    }
    out.sort(Comparator.comparing(Backup::taskId));
    return out;
  }
}
