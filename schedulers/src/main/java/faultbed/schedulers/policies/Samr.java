package faultbed.schedulers.policies;

import faultbed.schedulers.AttemptSnapshot;
import faultbed.schedulers.AttemptState;
import faultbed.schedulers.Backup;
import faultbed.schedulers.JobSnapshot;
import faultbed.schedulers.NodeVerdict;
import faultbed.schedulers.Phase;
import faultbed.schedulers.PolicySettings;
import faultbed.schedulers.SpeculationPolicy;
import faultbed.schedulers.TaskSnapshot;
import faultbed.schedulers.TaskState;
import faultbed.schedulers.TaskType;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
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
 * the node name's unsafe characters replaced by '_'; no state directory means no persistence.
 */
public final class Samr implements SpeculationPolicy {

  /** Stage weights of one node: M1 + M2 = 1, R1 + R2 + R3 = 1. */
  record Weights(double m1, double m2, double r1, double r2, double r3) {
    static final Weights DEFAULT = new Weights(1.0, 0.0, 0.33, 0.33, 0.34);

    double[] of(TaskType type) {
      return type == TaskType.MAP ? new double[] {m1, m2} : new double[] {r1, r2, r3};
    }

    Weights with(TaskType type, double[] w) {
      return type == TaskType.MAP ? new Weights(w[0], w[1], r1, r2, r3)
          : new Weights(m1, m2, w[0], w[1], w[2]);
    }
  }

  private static final String[] KEYS = {"M1", "M2", "R1", "R2", "R3"};

  private double hp = 0.2;
  private double staC = 0.3;
  private double strC = 0.2;
  private double strP = 0.3;
  private double bp = 0.2;
  private long minRunMs = 60_000;
  private Path stateDir;
  /** History per node, read once per node and replaced when a job finishes. */
  private final Map<String, Weights> history = new HashMap<>();

  @Override
  public String name() {
    return "samr";
  }

  @Override
  public void configure(PolicySettings settings) {
    hp = settings.number("HP", 0.2);
    staC = settings.number("STaC", 0.3);
    strC = settings.number("STrC", 0.2);
    strP = settings.number("STrP", 0.3);
    bp = settings.number("BP", 0.2);
    minRunMs = settings.millis("minRunSeconds", 60);
    stateDir = settings.stateDir();
    history.clear();
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
          + ", stage " + stage(a) + ", node weights "
          + fmt(weightsOf(job, a.node(), weights).of(s.task().type())) + ") gives rate "
          + Stats.rate(s.pr()) + " below (1 - STaC " + Stats.num(staC) + ") x average " + kind
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
    for (String node : job.nodes()) {
      Weights before = history(node);
      Weights after = before;
      for (TaskType type : TaskType.values()) {
        Optional<double[]> measured = measured(job, node, type);
        if (measured.isPresent()) {
          after = after.with(type, blend(before.of(type), measured.get()));
        }
      }
      if (!after.equals(before)) {
        history.put(node, after);
        write(node, after);
      }
    }
  }

  // ---- progress score (§III-E) ----

  /** The stage an attempt is in: the later of its reported phase and the latest phase start seen. */
  static Phase stage(AttemptSnapshot a) {
    Phase p = a.phase();
    for (Phase seen : a.phaseStartMs().keySet()) {
      if (seen.ordinal() > p.ordinal()) {
        p = seen;
      }
    }
    return p;
  }

  double progressScore(JobSnapshot job, TaskType type, AttemptSnapshot a, Map<String, Weights> cache) {
    if (a.state() == AttemptState.SUCCEEDED) {
      return 1.0;
    }
    double p = a.progress();
    Phase phase = stage(a);
    if (phase == Phase.CLEANUP) {
      return 1.0;
    }
    if (phase == Phase.STARTING) {
      return 0.0;
    }
    if (type == TaskType.MAP && job.tasks(TaskType.REDUCE).isEmpty()) {
      return Stats.clamp01(p);
    }
    double[] w = weightsOf(job, a.node(), cache).of(type);
    // Hadoop's own split of its score: a map is 2/3 map + 1/3 sort, a reduce copy/sort/reduce thirds.
    double[] cuts = type == TaskType.MAP ? new double[] {0, 2.0 / 3, 1} : new double[] {0, 1.0 / 3, 2.0 / 3, 1};
    int k = switch (phase) {
      case SORT -> 1;
      case REDUCE -> type == TaskType.REDUCE ? 2 : 0;
      default -> 0;
    };
    double subPs = Stats.clamp01((p - cuts[k]) / (cuts[k + 1] - cuts[k]));
    double ps = 0;
    for (int i = 0; i < k; i++) {
      ps += w[i];
    }
    return ps + w[k] * subPs;
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

  // ---- stage weights (§III-A) ----

  /** The weights used now on a node: history blended with this job's finished tasks there. */
  private Weights weightsOf(JobSnapshot job, String node, Map<String, Weights> cache) {
    if (node == null) {
      return Weights.DEFAULT;
    }
    return cache.computeIfAbsent(node, n -> {
      Weights w = history(n);
      for (TaskType type : TaskType.values()) {
        Weights base = w;
        w = measured(job, n, type).map(m -> base.with(type, blend(base.of(type), m))).orElse(w);
      }
      return w;
    });
  }

  private double[] blend(double[] hist, double[] now) {
    double[] out = new double[hist.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = hp * hist[i] + (1 - hp) * now[i];
    }
    return out;
  }

  /**
   * Mean stage fractions of this job's succeeded attempts of a type on a node, from their phase
   * start times (map: start..SORT, SORT..finish; reduce: start..SORT..REDUCE..finish).
   */
  static Optional<double[]> measured(JobSnapshot job, String node, TaskType type) {
    List<Phase> cuts = type == TaskType.MAP ? List.of(Phase.SORT) : List.of(Phase.SORT, Phase.REDUCE);
    double[] sum = new double[cuts.size() + 1];
    int n = 0;
    for (TaskSnapshot t : job.tasks(type)) {
      for (AttemptSnapshot a : t.attempts()) {
        if (a.state() != AttemptState.SUCCEEDED || !node.equals(a.node()) || a.finishMs() <= a.startMs()
            || !a.phaseStartMs().keySet().containsAll(cuts)) {
          continue;
        }
        long[] bounds = new long[cuts.size() + 2];
        bounds[0] = a.startMs();
        for (int i = 0; i < cuts.size(); i++) {
          bounds[i + 1] = a.phaseStartMs().get(cuts.get(i));
        }
        bounds[bounds.length - 1] = a.finishMs();
        double total = a.finishMs() - a.startMs();
        boolean ordered = true;
        for (int i = 1; i < bounds.length; i++) {
          ordered &= bounds[i] >= bounds[i - 1];
        }
        if (!ordered) {
          continue;
        }
        for (int i = 0; i < sum.length; i++) {
          sum[i] += (bounds[i + 1] - bounds[i]) / total;
        }
        n++;
      }
    }
    if (n == 0) {
      return Optional.empty();
    }
    for (int i = 0; i < sum.length; i++) {
      sum[i] /= n;
    }
    return Optional.of(sum);
  }

  /** A node's stored weights, read once; defaults when there is no file or no state directory. */
  Weights history(String node) {
    return history.computeIfAbsent(node, this::read);
  }

  static String fileName(String node) {
    return node.replaceAll("[^A-Za-z0-9._-]", "_") + ".properties";
  }

  private Weights read(String node) {
    if (stateDir == null) {
      return Weights.DEFAULT;
    }
    Path file = stateDir.resolve(fileName(node));
    if (!Files.isRegularFile(file)) {
      return Weights.DEFAULT;
    }
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException e) {
      throw new UncheckedIOException("SAMR history " + file + ": cannot read", e);
    }
    double[] v = new double[KEYS.length];
    for (int i = 0; i < KEYS.length; i++) {
      String s = p.getProperty(KEYS[i]);
      try {
        v[i] = Double.parseDouble(s == null ? "" : s.trim());
      } catch (NumberFormatException e) {
        throw new IllegalStateException("SAMR history " + file + ": " + KEYS[i]
            + " expected a number, got " + (s == null ? "nothing" : "\"" + s + "\""));
      }
    }
    return new Weights(v[0], v[1], v[2], v[3], v[4]);
  }

  private void write(String node, Weights w) {
    if (stateDir == null) {
      return;
    }
    double[] v = {w.m1(), w.m2(), w.r1(), w.r2(), w.r3()};
    StringBuilder b = new StringBuilder("# SAMR stage weights (seed 001 section III-A)\n");
    b.append("node=").append(node.replace("\\", "\\\\").replace(":", "\\:")).append('\n');
    for (int i = 0; i < KEYS.length; i++) {
      b.append(KEYS[i]).append('=').append(String.format(Locale.ROOT, "%.6f", v[i])).append('\n');
    }
    try {
      Files.createDirectories(stateDir);
      Path file = stateDir.resolve(fileName(node));
      Path tmp = Files.createTempFile(stateDir, fileName(node), ".tmp");
      Files.writeString(tmp, b, StandardCharsets.UTF_8);
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("SAMR history for " + node + ": cannot write to " + stateDir, e);
    }
  }

  private static String fmt(double[] w) {
    StringBuilder b = new StringBuilder();
    for (double x : w) {
      b.append(b.length() == 0 ? "" : "/").append(String.format(Locale.ROOT, "%.2f", x));
    }
    return b.toString();
  }
}
