package faultbed.schedulers.policies;

import faultbed.schedulers.AttemptSnapshot;
import faultbed.schedulers.Backup;
import faultbed.schedulers.JobSnapshot;
import faultbed.schedulers.NodeVerdict;
import faultbed.schedulers.PolicySettings;
import faultbed.schedulers.SpeculationPolicy;
import faultbed.schedulers.TaskSnapshot;
import faultbed.schedulers.TaskState;
import faultbed.schedulers.TaskType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * BASE, Benefit Aware Speculative Execution (seed 002 §III.C): a straggler gets a backup only if the
 * backup is expected to finish before the original.
 *
 * <p>Underlying selection: the seed adds BASE to Hadoop's default policy of its time, which it
 * states as "tasks whose progress rates are one standard deviation lower than the mean of all tasks
 * are deemed as straggler tasks". Read as Hadoop did it: the mean and (population) deviation of the
 * progress rates of the running tasks of the same type, a task having run at least one minute
 * ({@code minRunSeconds}, scaled). Stragglers are ranked longest estimated time left first with
 * LATE's (1 - progress) / rate ({@link Late#timeLeftSeconds}), the estimate the seed uses, Eqs. 1-2.
 * The seed names no cap, so none is added.
 *
 * <p>Benefit test: the backup's expected run time on node N is the harmonic mean of the run times of
 * this job's completed tasks of the same type that ran on N, else of all the job's completed tasks of
 * that type. It must be below the original's estimated time left. The AM cannot pick the node, so
 * {@link #choose} proposes a straggler when the best node of the job would win, and
 * {@link #judgeBackupNode} refuses the node YARN gave when that node would not. With no completed
 * task of the type yet there is nothing to predict from, and BASE launches nothing for that type.
 *
 * <p>Parameters: {@code slowTaskStdDevs} (1.0), {@code minRunSeconds} (60).
 */
public final class Base implements SpeculationPolicy {

  /** A predicted run time for a new attempt, and what it was predicted from. */
  record Estimate(String node, double seconds, int samples, boolean fromNode) {
    String describe(TaskType type) {
      String kind = type == TaskType.MAP ? "maps" : "reduces";
      return Stats.secs(seconds) + " (harmonic mean of " + samples + " completed " + kind
          + (fromNode ? " on " + node : " of the job, none on " + node) + ")";
    }
  }

  private double stdDevs = 1.0;
  private long minRunMs = 60_000;

  @Override
  public String name() {
    return "base";
  }

  @Override
  public void configure(PolicySettings settings) {
    stdDevs = settings.number("slowTaskStdDevs", 1.0);
    minRunMs = settings.millis("minRunSeconds", 60);
  }

  @Override
  public List<Backup> choose(JobSnapshot job) {
    long now = job.nowMs();
    Map<TaskType, List<Double>> rates = runningRates(job);
    List<TaskSnapshot> stragglers = stragglers(job);
    List<Backup> out = new ArrayList<>();
    for (TaskSnapshot t : stragglers) {
      AttemptSnapshot a = t.soleRunningAttempt().orElseThrow();
      double left = Late.timeLeftSeconds(a, now);
      Optional<Estimate> best = bestNode(job, t.type());
      if (best.isEmpty() || !(best.get().seconds() < left)) {
        continue;
      }
      List<Double> r = rates.get(t.type());
      double mean = Stats.mean(r);
      double std = Stats.std(r);
      String reason = "progress rate " + Stats.rate(a.progressRate(now)) + " more than "
          + Stats.num(stdDevs) + " std dev (" + Stats.rate(std) + ") below the mean "
          + Stats.rate(mean) + " of " + r.size() + " running tasks; BASE: est. time left "
          + Stats.secs(left) + " exceeds a new attempt's expected " + best.get().describe(t.type())
          + " on the job's best node " + best.get().node() + ", saving "
          + Stats.secs(left - best.get().seconds());
      Map<String, Double> ev = new LinkedHashMap<>();
      ev.put("progress", a.progress());
      ev.put("progressRate", a.progressRate(now));
      ev.put("meanRate", mean);
      ev.put("stdRate", std);
      ev.put("timeLeftSeconds", left);
      ev.put("bestBackupSeconds", best.get().seconds());
      out.add(new Backup(t.id(), reason, ev));
    }
    return out;
  }

  /** Progress rates of the running tasks of each type (each task's fastest running attempt). */
  private static Map<TaskType, List<Double>> runningRates(JobSnapshot job) {
    long now = job.nowMs();
    Map<TaskType, List<Double>> rates = new EnumMap<>(TaskType.class);
    for (TaskType type : TaskType.values()) {
      List<Double> r = new ArrayList<>();
      for (TaskSnapshot t : job.tasks(type)) {
        if (t.state() == TaskState.RUNNING) {
          Tasks.fastestRate(t, now, a -> a.progressRate(now)).ifPresent(r::add);
        }
      }
      rates.put(type, r);
    }
    return rates;
  }

  /** The underlying rule's stragglers, longest estimated time left first, before the benefit test. */
  List<TaskSnapshot> stragglers(JobSnapshot job) {
    long now = job.nowMs();
    Map<TaskType, List<Double>> rates = runningRates(job);
    List<TaskSnapshot> out = new ArrayList<>();
    for (TaskSnapshot t : job.tasks()) {
      AttemptSnapshot a = Tasks.raceable(t).orElse(null);
      List<Double> r = rates.get(t.type());
      // Hadoop's test: mean - rate > threshold x std (strict, so equal rates never qualify).
      if (a != null && a.elapsedMs(now) >= minRunMs
          && Stats.mean(r) - a.progressRate(now) > stdDevs * Stats.std(r)) {
        out.add(t);
      }
    }
    out.sort(Late.longestTimeLeftFirst(now));
    return out;
  }

  @Override
  public NodeVerdict judgeBackupNode(String node, TaskSnapshot task, JobSnapshot job) {
    Optional<AttemptSnapshot> original = Tasks.original(task);
    if (original.isEmpty()) {
      return NodeVerdict.accept("the original attempt is no longer running");
    }
    double left = Late.timeLeftSeconds(original.get(), job.nowMs());
    Optional<Estimate> est = estimate(job, node, task.type());
    if (est.isEmpty()) {
      return NodeVerdict.accept("no completed task of this type to predict from");
    }
    String numbers = "expected " + est.get().describe(task.type()) + " vs original's est. time left "
        + Stats.secs(left);
    return est.get().seconds() < left ? NodeVerdict.accept("backup would finish first: " + numbers)
        : NodeVerdict.refuse("backup would not finish first: " + numbers);
  }

  /** The node of the job where a new attempt is expected to run shortest. */
  static Optional<Estimate> bestNode(JobSnapshot job, TaskType type) {
    Optional<Estimate> best = Optional.empty();
    for (String node : job.nodes()) {
      Optional<Estimate> e = estimate(job, node, type);
      // on a tie, a node's own history is the better evidence
      if (e.isPresent() && (best.isEmpty() || e.get().seconds() < best.get().seconds()
          || e.get().seconds() == best.get().seconds() && e.get().fromNode() && !best.get().fromNode())) {
        best = e;
      }
    }
    return best;
  }

  /** Seed 002 §III.C: harmonic mean of completed run times on the node, else of the whole job. */
  static Optional<Estimate> estimate(JobSnapshot job, String node, TaskType type) {
    List<Double> onNode = new ArrayList<>();
    List<Double> all = new ArrayList<>();
    for (TaskSnapshot t : job.tasks(type)) {
      t.successfulAttempt().filter(a -> a.finishMs() > a.startMs() && a.startMs() >= 0).ifPresent(a -> {
        double s = a.elapsedMs(job.nowMs()) / 1000.0;
        all.add(s);
        if (node.equals(a.node())) {
          onNode.add(s);
        }
      });
    }
    if (!onNode.isEmpty()) {
      return Optional.of(new Estimate(node, Stats.harmonicMean(onNode), onNode.size(), true));
    }
    if (!all.isEmpty()) {
      return Optional.of(new Estimate(node, Stats.harmonicMean(all), all.size(), false));
    }
    return Optional.empty();
  }
}
