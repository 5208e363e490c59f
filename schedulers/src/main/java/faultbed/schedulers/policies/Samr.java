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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * SAMR, Self-Adaptive MapReduce scheduling (seed 001 §III): progress scores from per-node stage
 * weights learnt across jobs, slow tasks and slow nodes relative to averages, a cap on backups.
 *
 * <ul>
 *   <li>§III-A: each node keeps M1, M2 (map: map function, reorder) and R1, R2, R3 (reduce: copy,
 *       sort, merge); defaults 1, 0, 0.33, 0.33, 0.34. During a job a node's weights are
 *       HP * history + (1 - HP) * the weights measured on this job's finished tasks there (history
 *       alone until one finishes); at job end the same blend is written back, one file per node.
 *   <li>§III-E, Eqs. 16-18: the stage comes from the attempt's phase (or the latest phase start
 *       seen), SubPS from Hadoop's score within that phase's third (maps: two thirds map, one third
 *       sort); PS = weights of finished stages + weight of the current stage * SubPS. PR = PS / run
 *       time, TTE = (1 - PS) / PR (Eqs. 4, 5).
 *   <li>§III-B, Eq. 6: a task is slow when PR &lt; (1 - STaC) * APR. APR averages the running tasks
 *       of the same type, since SAMR keeps separate slow-map and slow-reduce queues.
 *   <li>§III-C, Eqs. 8-14: a node's map (reduce) rate is the mean PR of this job's running and
 *       succeeded maps (reduces) on it; it is a slow map (reduce) node when below (1 - STrC) times
 *       the mean over nodes and, taking the slowest first, while fewer than STrP * (nodes of the job)
 *       nodes are already slow of that kind. Backups are refused on nodes slow for their type.
 *   <li>§III-D, Eq. 15: a backup is launched only while backups in flight &lt; BP * running tasks,
 *       checked before each launch. Slow tasks go out longest TTE first (SAMR follows LATE there).
 * </ul>
 *
 * <p>Not in the SAMR text: like Hadoop and LATE, on which it builds, a task is judged only after it
 * has run {@code minRunSeconds} (60 s, scaled); otherwise every task just launched would have a
 * near-zero rate and look slow. Set it to 0 for the bare rule. In a map-only job a map has one stage
 * and its PS is Hadoop's score.
 *
 * <p>Parameters: {@code HP} (0.2), {@code STaC} (0.3), {@code STrC} (0.2), {@code STrP} (0.3),
 * {@code BP} (0.2), {@code minRunSeconds} (60). History: {@code <stateDir>/<node>.properties} with
 * the node name's unsafe characters replaced by '_'; no state directory means no persistence. The
 * weights and the score are {@link StageWeights}, which LATE's history flavour shares.
 */
public final class Samr implements SpeculationPolicy {

  private double staC = 0.3;
  private double strC = 0.2;
  private double strP = 0.3;
  private double bp = 0.2;
  private long minRunMs = 60_000;
  /** Per-node stage weights in {@code <stateDir>}, learnt across jobs (§III-A). */
  private StageWeights stageWeights = new StageWeights(0.2, null);

  @Override
  public String name() {
    return "samr";
  }

  @Override
  public void configure(PolicySettings settings) {
    staC = settings.number("STaC", 0.3);
    strC = settings.number("STrC", 0.2);
    strP = settings.number("STrP", 0.3);
    bp = settings.number("BP", 0.2);
    minRunMs = settings.millis("minRunSeconds", 60);
    stageWeights = new StageWeights(settings.number("HP", 0.2), settings.stateDir());
  }

  @Override
  public List<Backup> choose(JobSnapshot job) {
    long now = job.nowMs();
    Map<String, Weights> weights = new HashMap<>();
    int runningTasks = (int) job.tasks().stream().filter(t -> t.state() == TaskState.RUNNING).count();
    int backups = job.runningBackups();
    double maxBackups = bp * runningTasks;
    if (!(backups < maxBackups)) {
      return List.of();
    }
    record Slow(TaskSnapshot task, double ps, double pr, double tte, double apr) {}
    List<Slow> slow = new ArrayList<>();
    for (TaskType type : TaskType.values()) {
      List<Double> rates = new ArrayList<>();
      for (TaskSnapshot t : job.tasks(type)) {
        if (t.state() == TaskState.RUNNING) {
          bestRate(job, t, weights).ifPresent(rates::add);
        }
      }
      double apr = Stats.mean(rates);
      for (TaskSnapshot t : job.tasks(type)) {
        AttemptSnapshot a = Tasks.raceable(t).orElse(null);
        if (a == null || a.elapsedMs(now) < minRunMs) {
          continue;
        }
        double ps = progressScore(job, t.type(), a, weights);
        double pr = ps / (a.elapsedMs(now) / 1000.0);
        if (pr < (1.0 - staC) * apr) {
          slow.add(new Slow(t, ps, pr, pr > 0 ? (1.0 - ps) / pr : Double.POSITIVE_INFINITY, apr));
        }
      }
    }
    slow.sort(Comparator.comparingDouble((Slow s) -> -s.tte()).thenComparing(s -> s.task().id()));
    List<Backup> out = new ArrayList<>();
    for (Slow s : slow) {
      if (!(backups + out.size() < maxBackups)) {
        break;
      }
      AttemptSnapshot a = s.task().soleRunningAttempt().orElseThrow();
      String kind = s.task().type() == TaskType.MAP ? "map" : "reduce";
      String reason = "SAMR progress score " + Stats.num(s.ps()) + " (Hadoop's " + Stats.num(a.progress())
          + ", stage " + StageWeights.stage(a) + ", node weights "
          + StageWeights.format(stageWeights.weightsOf(job, a.node(), weights).of(s.task().type()))
          + ") gives rate " + Stats.rate(s.pr()) + " below (1 - STaC " + Stats.num(staC) + ") x average " + kind
          + " rate " + Stats.rate(s.apr()) + " = " + Stats.rate((1 - staC) * s.apr())
          + "; time to end " + Stats.secs(s.tte()) + ", rank " + (out.size() + 1) + " of "
          + slow.size() + " slow tasks; " + (backups + out.size()) + " backups running < BP "
          + Stats.num(bp) + " x " + runningTasks + " running tasks";
      Map<String, Double> ev = new LinkedHashMap<>();
      ev.put("hadoopProgress", a.progress());
      ev.put("progressScore", s.ps());
      ev.put("progressRate", s.pr());
      ev.put("averageProgressRate", s.apr());
      ev.put("slowTaskThreshold", (1 - staC) * s.apr());
      ev.put("timeToEndSeconds", s.tte());
      ev.put("runningBackups", (double) (backups + out.size()));
      ev.put("maxBackups", maxBackups);
      out.add(new Backup(s.task().id(), reason, ev));
    }
    return out;
  }

  @Override
  public NodeVerdict judgeBackupNode(String node, TaskSnapshot task, JobSnapshot job) {
    Map<String, Weights> weights = new HashMap<>();
    Map<String, Double> rates = trackerRates(job, task.type(), weights);
    Set<String> slow = slowNodes(job, task.type(), rates);
    String kind = task.type() == TaskType.MAP ? "map" : "reduce";
    double avg = Stats.mean(rates.values());
    String numbers = kind + " rate " + (rates.containsKey(node) ? Stats.rate(rates.get(node)) : "unknown")
        + " vs (1 - STrC " + Stats.num(strC) + ") x average " + Stats.rate(avg) + " = "
        + Stats.rate((1 - strC) * avg) + "; slow " + kind + " nodes " + slow + " (at most STrP "
        + Stats.num(strP) + " x " + job.nodes().size() + " nodes)";
    return slow.contains(node) ? NodeVerdict.refuse("slow " + kind + " node: " + numbers)
        : NodeVerdict.accept("not a slow " + kind + " node: " + numbers);
  }

  /** §III-A line 8: blend what this job measured into each node's history and write it back. */
  @Override
  public void jobFinished(JobSnapshot job) {
    stageWeights.jobFinished(job);
  }

  /** SAMR's progress score PS (§III-E, Eqs. 16-18) from the node's stage weights. */
  double progressScore(JobSnapshot job, TaskType type, AttemptSnapshot a, Map<String, Weights> cache) {
    return stageWeights.progressScore(job, type, a, cache);
  }

  /** The per-node stage weights this instance learns (history read from and written to stateDir). */
  StageWeights stageWeights() {
    return stageWeights;
  }

  private Optional<Double> bestRate(JobSnapshot job, TaskSnapshot t, Map<String, Weights> cache) {
    long now = job.nowMs();
    return t.attempts().stream()
        .filter(a -> a.state() == AttemptState.RUNNING && a.elapsedMs(now) > 0)
        .map(a -> progressScore(job, t.type(), a, cache) / (a.elapsedMs(now) / 1000.0))
        .max(Double::compare);
  }

  // ---- slow nodes (§III-C) ----

  /** TrR per node (Eqs. 8, 9): mean PR of this job's running and succeeded tasks of a type there. */
  Map<String, Double> trackerRates(JobSnapshot job, TaskType type, Map<String, Weights> cache) {
    Map<String, List<Double>> perNode = new TreeMap<>();
    long now = job.nowMs();
    for (TaskSnapshot t : job.tasks(type)) {
      for (AttemptSnapshot a : t.attempts()) {
        boolean counted = a.state() == AttemptState.RUNNING || a.state() == AttemptState.SUCCEEDED;
        if (counted && a.node() != null && a.elapsedMs(now) > 0) {
          double pr = progressScore(job, type, a, cache) / (a.elapsedMs(now) / 1000.0);
          perNode.computeIfAbsent(a.node(), n -> new ArrayList<>()).add(pr);
        }
      }
    }
    Map<String, Double> out = new TreeMap<>();
    perNode.forEach((node, prs) -> out.put(node, Stats.mean(prs)));
    return out;
  }

  /** Eqs. 12-14: below (1 - STrC) x average, slowest first, while fewer than STrP x nodes. */
  Set<String> slowNodes(JobSnapshot job, TaskType type, Map<String, Double> rates) {
    double avg = Stats.mean(rates.values());
    double max = strP * job.nodes().size();
    Set<String> slow = new TreeSet<>();
    List<Map.Entry<String, Double>> slowestFirst = new ArrayList<>(rates.entrySet());
    slowestFirst.sort(Map.Entry.<String, Double>comparingByValue().thenComparing(Map.Entry::getKey));
    for (Map.Entry<String, Double> e : slowestFirst) {
      if (!(e.getValue() < (1 - strC) * avg) || !(slow.size() < max)) {
        break;
      }
      slow.add(e.getKey());
    }
    return slow;
  }
}
