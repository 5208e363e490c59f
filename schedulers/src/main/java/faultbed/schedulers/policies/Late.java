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
import faultbed.schedulers.policies.StageWeights.Weights;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
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
 *
 * <p>{@link #withHistory()} makes "late-history", seed 001's "LATE using historical information",
 * which its §IV-C compares with LATE and SAMR (Figures 9 and 10): the same rules, but every progress
 * they read (rates, time left, node totals) is SAMR's progress score from per-node historical stage
 * weights ({@link StageWeights}, blended with parameter {@code HP}, 0.2). It keeps that history in
 * {@code <stateDir>/late-history/}, apart from SAMR's own; until a node has any, SAMR's default
 * weights (1, 0, 0.33, 0.33, 0.34) apply.
 */
public final class Late implements SpeculationPolicy {

  /** The history flavour's stage weights; null in plain LATE, which reads Hadoop's progress. */
  private StageWeights stageWeights;
  private double capFraction = 0.1;
  private double slowTaskPct = 25;
  private double slowNodePct = 25;
  private long minRunMs = 60_000;
  private int slots = PolicySettings.defaults().slots();

  /** Plain LATE ("late"), on Hadoop's progress. */
  public Late() {}

  private Late(StageWeights stageWeights) {
    this.stageWeights = stageWeights;
  }

  /** LATE using historical information ("late-history", seed 001 §IV-C): SAMR's progress scores. */
  public static Late withHistory() {
    return new Late(new StageWeights(0.2, null));
  }

  @Override
  public String name() {
    return stageWeights == null ? "late" : "late-history";
  }

  @Override
  public void configure(PolicySettings settings) {
    capFraction = settings.number("speculativeCap", 0.1);
    slowTaskPct = settings.number("slowTaskThreshold", 25);
    slowNodePct = settings.number("slowNodeThreshold", 25);
    minRunMs = settings.millis("minRunSeconds", 60);
    slots = settings.slots();
    if (stageWeights != null) {
      // A subfolder, so that it learns on its own even when SAMR keeps history in the same stateDir.
      stageWeights = new StageWeights(settings.number("HP", 0.2),
          settings.stateDir() == null ? null : settings.stateDir().resolve("late-history"));
    }
  }

  /** The history flavour's stage weights (null in plain LATE). */
  StageWeights stageWeights() {
    return stageWeights;
  }

  /** The progress LATE reads in one snapshot: Hadoop's, or in the history flavour SAMR's score. */
  private final class Progress {
    private final JobSnapshot job;
    private final long now;
    /** Each node's weights for this snapshot (history blended with the job's finished tasks). */
    private final Map<String, Weights> weights = new HashMap<>();

    Progress(JobSnapshot job) {
      this.job = job;
      this.now = job.nowMs();
    }

    double of(TaskType type, AttemptSnapshot a) {
      return stageWeights == null ? a.progress() : stageWeights.progressScore(job, type, a, weights);
    }

    double rate(TaskType type, AttemptSnapshot a) {
      if (stageWeights == null) {
        return a.progressRate(now);
      }
      long t = a.elapsedMs(now);
      return t <= 0 ? 0.0 : of(type, a) / (t / 1000.0);
    }

    /** (1 - progress) / rate, as {@link Late#timeLeftSeconds} but on this flavour's progress. */
    double timeLeftSeconds(TaskType type, AttemptSnapshot a) {
      double rate = rate(type, a);
      return rate > 0 ? (1.0 - Math.min(1.0, of(type, a))) / rate : Double.POSITIVE_INFINITY;
    }
  }

  /**
   * LATE's estimate of seconds left on Hadoop's progress, (1 - progress) / rate (seed 000 §4);
   * infinite with no progress.
   */
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
    Progress progress = new Progress(job);
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
          Tasks.fastestRate(t, now, a -> progress.rate(type, a)).ifPresent(rates::add);
        } else if (t.state() == TaskState.SUCCEEDED) {
          t.successfulAttempt().filter(a -> a.elapsedMs(now) > 0)
              .ifPresent(a -> rates.add(progress.rate(type, a)));
        }
      }
      slowTask.put(type, Stats.percentile(rates, slowTaskPct));
    }
    List<TaskSnapshot> candidates = new ArrayList<>();
    for (TaskSnapshot t : job.tasks()) {
      AttemptSnapshot a = Tasks.raceable(t).orElse(null);
      if (a != null && a.elapsedMs(now) >= minRunMs && progress.rate(t.type(), a) < slowTask.get(t.type())) {
        candidates.add(t);
      }
    }
    candidates.sort(Comparator.<TaskSnapshot>comparingDouble(
            t -> -progress.timeLeftSeconds(t.type(), t.soleRunningAttempt().orElseThrow()))
        .thenComparing(TaskSnapshot::id));
    List<Backup> out = new ArrayList<>();
    for (TaskSnapshot t : candidates) {
      if (!(running + out.size() < cap)) {
        break;
      }
      AttemptSnapshot a = t.soleRunningAttempt().orElseThrow();
      double score = progress.of(t.type(), a);
      double rate = progress.rate(t.type(), a);
      double left = progress.timeLeftSeconds(t.type(), a);
      double threshold = slowTask.get(t.type());
      String scoreText = stageWeights == null ? ""
          : "history-weighted progress score " + Stats.num(score) + " (Hadoop's " + Stats.num(a.progress())
              + ", stage " + StageWeights.stage(a) + ", node weights "
              + StageWeights.format(stageWeights.weightsOf(job, a.node(), progress.weights).of(t.type()))
              + ") gives ";
      String reason = scoreText + "progress rate " + Stats.rate(rate) + " below SlowTaskThreshold "
          + Stats.rate(threshold) + " (" + Stats.num(slowTaskPct) + "th percentile of running and finished "
          + (t.type() == TaskType.MAP ? "maps" : "reduces") + "); est. time left " + Stats.secs(left)
          + ", rank " + (out.size() + 1) + " of " + candidates.size() + " candidates by time left; "
          + (running + out.size()) + " backups running, SpeculativeCap " + Stats.num(cap) + " ("
          + Stats.num(capFraction) + " of " + slots + " slots)";
      Map<String, Double> ev = new LinkedHashMap<>();
      ev.put("progress", a.progress());
      if (stageWeights != null) {
        ev.put("progressScore", score);
      }
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
    Map<String, Double> totals = nodeTotals(job, new Progress(job));
    double threshold = Stats.percentile(totals.values(), slowNodePct);
    double total = totals.getOrDefault(node, 0.0);
    String numbers = "node total " + (stageWeights == null ? "progress " : "history-weighted progress score ")
        + Stats.num(total) + " vs SlowNodeThreshold "
        + Stats.num(threshold) + " (" + Stats.num(slowNodePct) + "th percentile of " + totals.size()
        + " nodes' summed progress of succeeded and running attempts)";
    if (total < threshold) {
      return NodeVerdict.refuse("slow node: " + numbers);
    }
    return NodeVerdict.accept("not a slow node: " + numbers);
  }

  /** The history flavour learns like SAMR: this job's stage times blended into each node's history. */
  @Override
  public void jobFinished(JobSnapshot job) {
    if (stageWeights != null) {
      stageWeights.jobFinished(job);
    }
  }

  /** Per node: sum of progress of succeeded (1.0) and in-progress attempts (seed 000 §4). */
  private static Map<String, Double> nodeTotals(JobSnapshot job, Progress progress) {
    Map<String, Double> totals = new TreeMap<>();
    for (String node : job.nodes()) {
      double sum = 0;
      for (TaskSnapshot t : job.tasks()) {
        for (AttemptSnapshot a : t.attempts()) {
          if (!node.equals(a.node())) {
            continue;
          }
          if (a.state() == AttemptState.SUCCEEDED) {
            sum += 1.0;
          } else if (a.state() == AttemptState.RUNNING) {
            sum += progress.of(t.type(), a);
          }
        }
      }
      totals.put(node, sum);
    }
    return totals;
  }
}
