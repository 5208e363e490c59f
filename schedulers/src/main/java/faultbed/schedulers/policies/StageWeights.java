package faultbed.schedulers.policies;

import faultbed.schedulers.AttemptSnapshot;
import faultbed.schedulers.AttemptState;
import faultbed.schedulers.JobSnapshot;
import faultbed.schedulers.Phase;
import faultbed.schedulers.TaskSnapshot;
import faultbed.schedulers.TaskType;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * SAMR's per-node historical stage weights and the progress score built on them (seed 001 §III-A,
 * §III-E), shared by {@link Samr} and the history flavour of {@link Late}, each with its own
 * directory so that they learn independently.
 *
 * <p>Each node keeps M1, M2 (map: map function, reorder) and R1, R2, R3 (reduce: copy, sort, merge);
 * defaults 1, 0, 0.33, 0.33, 0.34. During a job a node's weights are HP * history + (1 - HP) * the
 * weights measured on this job's finished tasks there (history alone until one finishes); at job end
 * the same blend is written back to {@code <dir>/<node>.properties}, the node name's unsafe
 * characters replaced by '_'. A null directory means no persistence (history kept in memory only).
 */
final class StageWeights {

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

  private final double hp;
  private final Path dir;
  /** History per node, read once per node and replaced when a job finishes. */
  private final Map<String, Weights> history = new HashMap<>();

  /**
   * @param hp  weight of history against this job's measurements (SAMR's HP)
   * @param dir where the per-node files live, or null for no persistence
   */
  StageWeights(double hp, Path dir) {
    this.hp = hp;
    this.dir = dir;
  }

  /** §III-A line 8: blend what this job measured into each node's history and write it back. */
  void jobFinished(JobSnapshot job) {
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

  /**
   * Eqs. 16-18: weights of the finished stages + weight of the current stage * SubPS, SubPS being
   * Hadoop's score within that stage's share of it. {@code cache} holds the weights of each node for
   * one snapshot; in a map-only job a map has one stage and its score is Hadoop's.
   */
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

  // ---- stage weights (§III-A) ----

  /** The weights used now on a node: history blended with this job's finished tasks there. */
  Weights weightsOf(JobSnapshot job, String node, Map<String, Weights> cache) {
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

  /** A node's stored weights, read once; defaults when there is no file or no directory. */
  Weights history(String node) {
    return history.computeIfAbsent(node, this::read);
  }

  static String fileName(String node) {
    return node.replaceAll("[^A-Za-z0-9._-]", "_") + ".properties";
  }

  private Weights read(String node) {
    if (dir == null) {
      return Weights.DEFAULT;
    }
    Path file = dir.resolve(fileName(node));
    if (!Files.isRegularFile(file)) {
      return Weights.DEFAULT;
    }
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException e) {
      throw new UncheckedIOException("stage-weight history " + file + ": cannot read", e);
    }
    double[] v = new double[KEYS.length];
    for (int i = 0; i < KEYS.length; i++) {
      String s = p.getProperty(KEYS[i]);
      try {
        v[i] = Double.parseDouble(s == null ? "" : s.trim());
      } catch (NumberFormatException e) {
        throw new IllegalStateException("stage-weight history " + file + ": " + KEYS[i]
            + " expected a number, got " + (s == null ? "nothing" : "\"" + s + "\""));
      }
    }
    return new Weights(v[0], v[1], v[2], v[3], v[4]);
  }

  private void write(String node, Weights w) {
    if (dir == null) {
      return;
    }
    double[] v = {w.m1(), w.m2(), w.r1(), w.r2(), w.r3()};
    StringBuilder b = new StringBuilder("# SAMR stage weights (seed 001 section III-A)\n");
    b.append("node=").append(node.replace("\\", "\\\\").replace(":", "\\:")).append('\n');
    for (int i = 0; i < KEYS.length; i++) {
      b.append(KEYS[i]).append('=').append(String.format(Locale.ROOT, "%.6f", v[i])).append('\n');
    }
    try {
      Files.createDirectories(dir);
      Path file = dir.resolve(fileName(node));
      Path tmp = Files.createTempFile(dir, fileName(node), ".tmp");
      Files.writeString(tmp, b, StandardCharsets.UTF_8);
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("stage-weight history for " + node + ": cannot write to " + dir, e);
    }
  }

  /** Weights as "0.33/0.33/0.34", for reasons. */
  static String format(double[] w) {
    StringBuilder b = new StringBuilder();
    for (double x : w) {
      b.append(b.length() == 0 ? "" : "/").append(String.format(Locale.ROOT, "%.2f", x));
    }
    return b.toString();
  }
}
