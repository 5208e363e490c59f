package faultbed.schedulers.policies;

import faultbed.schedulers.AttemptSnapshot;
import faultbed.schedulers.AttemptState;
import faultbed.schedulers.Backup;
import faultbed.schedulers.JobSnapshot;
import faultbed.schedulers.NodeVerdict;
import faultbed.schedulers.PolicySettings;
import faultbed.schedulers.SpeculationPolicy;
import faultbed.schedulers.TaskSnapshot;
import faultbed.schedulers.TaskState;
import faultbed.schedulers.TaskType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * LATE, Longest Approximate Time to End (seed 000 §4): back up the running, not yet speculated tasks
 * that will finish farthest in the future, estimated as (1 - progress) / progress rate, but only
 * tasks whose progress rate is below SlowTaskThreshold, only while fewer than SpeculativeCap backups
 * run, only after a task has run one minute, and never on a node below SlowNodeThreshold.
 *
 * <p>Readings: SpeculativeCap is a fraction of the cluster's slots and is checked before each launch
 * ("less than SpeculativeCap speculative tasks running"), so 10% of 8 slots still allows one backup.
 * SlowTaskThreshold is the 25th percentile of the progress rates of the tasks of the same type (a
 * map's rate is not comparable to a reduce's) that run or have finished, a finished task counting
 * with its winning attempt's rate (1 / its running time). The paper says "task progress rates"
 * without limiting them to running tasks; counting only running ones would, at the end of a job when
 * only stragglers remain, compare stragglers with each other and back up none of them, the very case
 * LATE is for. A node's total progress is the paper's "sum of
 * progress scores for all succeeded and in-progress tasks on the node", summed over this job's
 * attempts there; SlowNodeThreshold is the 25th percentile of those sums over the nodes the job has
 * used, and a node the job never used has done no work and scores 0. Percentiles interpolate linearly
 * (type 7). A slot request in LATE launches one backup; here the ranked list is cut at the cap.
 *
 * <p>Parameters: {@code speculativeCap} (0.1 of slots), {@code slowTaskThreshold} and
 * {@code slowNodeThreshold} (percentiles, 25), {@code minRunSeconds} (60, scaled).
 */
public final class Late implements SpeculationPolicy {

  private double capFraction = 0.1;
  private double slowTaskPct = 25;
  private double slowNodePct = 25;
  private long minRunMs = 60_000;
  private int slots = PolicySettings.defaults().slots();

  @Override
  public String name() {
    return "late";
  }

  @Override
  public void configure(PolicySettings settings) {
    capFraction = settings.number("speculativeCap", 0.1);
    slowTaskPct = settings.number("slowTaskThreshold", 25);
    slowNodePct = settings.number("slowNodeThreshold", 25);
    minRunMs = settings.millis("minRunSeconds", 60);
    slots = settings.slots();
  }

  /** LATE's estimate of seconds left, (1 - progress) / rate (seed 000 §4); infinite with no progress. */
  static double timeLeftSeconds(AttemptSnapshot a, long nowMs) {
    double rate = a.progressRate(nowMs);
    return rate > 0 ? (1.0 - Math.min(1.0, a.progress())) / rate : Double.POSITIVE_INFINITY;
  }

  /** Longest estimated time left first; task id breaks ties so runs are repeatable. */
  static Comparator<TaskSnapshot> longestTimeLeftFirst(long nowMs) {
    return Comparator.<TaskSnapshot>comparingDouble(
            t -> -timeLeftSeconds(t.soleRunningAttempt().orElseThrow(), nowMs))
        .thenComparing(TaskSnapshot::id);
  }

  @Override
  public List<Backup> choose(JobSnapshot job) {
    long now = job.nowMs();
    double cap = capFraction * slots;
    int running = job.runningBackups();
    if (!(running < cap)) {
      return List.of();
    }
    Map<TaskType, Double> slowTask = new EnumMap<>(TaskType.class);
    for (TaskType type : TaskType.values()) {
      List<Double> rates = new ArrayList<>();
      for (TaskSnapshot t : job.tasks(type)) {
        if (t.state() == TaskState.RUNNING) {
          Tasks.fastestRunning(t, now).ifPresent(a -> rates.add(a.progressRate(now)));
        } else if (t.state() == TaskState.SUCCEEDED) {
          t.successfulAttempt().filter(a -> a.elapsedMs(now) > 0).ifPresent(a -> rates.add(a.progressRate(now)));
        }
      }
      slowTask.put(type, Stats.percentile(rates, slowTaskPct));
    }
    List<TaskSnapshot> candidates = new ArrayList<>();
    for (TaskSnapshot t : job.tasks()) {
      AttemptSnapshot a = Tasks.raceable(t).orElse(null);
      if (a != null && a.elapsedMs(now) >= minRunMs && a.progressRate(now) < slowTask.get(t.type())) {
        candidates.add(t);
      }
    }
    candidates.sort(longestTimeLeftFirst(now));
    List<Backup> out = new ArrayList<>();
    for (TaskSnapshot t : candidates) {
      if (!(running + out.size() < cap)) {
        break;
      }
      AttemptSnapshot a = t.soleRunningAttempt().orElseThrow();
      double rate = a.progressRate(now);
      double left = timeLeftSeconds(a, now);
      double threshold = slowTask.get(t.type());
      String reason = "progress rate " + Stats.rate(rate) + " below SlowTaskThreshold "
          + Stats.rate(threshold) + " (" + Stats.num(slowTaskPct) + "th percentile of running and finished "
          + (t.type() == TaskType.MAP ? "maps" : "reduces") + "); est. time left " + Stats.secs(left)
          + ", rank " + (out.size() + 1) + " of " + candidates.size() + " candidates by time left; "
          + (running + out.size()) + " backups running, SpeculativeCap " + Stats.num(cap) + " ("
          + Stats.num(capFraction) + " of " + slots + " slots)";
      Map<String, Double> ev = new LinkedHashMap<>();
      ev.put("progress", a.progress());
      ev.put("progressRate", rate);
      ev.put("slowTaskThreshold", threshold);
      ev.put("timeLeftSeconds", left);
      ev.put("runningBackups", (double) (running + out.size()));
      ev.put("speculativeCap", cap);
      out.add(new Backup(t.id(), reason, ev));
    }
    return out;
  }

  @Override
  public NodeVerdict judgeBackupNode(String node, TaskSnapshot task, JobSnapshot job) {
    Map<String, Double> totals = nodeTotals(job);
    double threshold = Stats.percentile(totals.values(), slowNodePct);
    double total = totals.getOrDefault(node, 0.0);
    String numbers = "node total progress " + Stats.num(total) + " vs SlowNodeThreshold "
        + Stats.num(threshold) + " (" + Stats.num(slowNodePct) + "th percentile of " + totals.size()
        + " nodes' summed progress of succeeded and running attempts)";
    if (total < threshold) {
      return NodeVerdict.refuse("slow node: " + numbers);
    }
    return NodeVerdict.accept("not a slow node: " + numbers);
  }

  /** Per node: sum of progress of succeeded (1.0) and in-progress attempts (seed 000 §4). */
  static Map<String, Double> nodeTotals(JobSnapshot job) {
    Map<String, Double> totals = new TreeMap<>();
    for (String node : job.nodes()) {
      double sum = 0;
      for (AttemptSnapshot a : job.attemptsOn(node)) {
        if (a.state() == AttemptState.SUCCEEDED) {
          sum += 1.0;
        } else if (a.state() == AttemptState.RUNNING) {
          sum += a.progress();
        }
      }
      totals.put(node, sum);
    }
    return totals;
  }
}
