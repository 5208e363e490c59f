package faultbed.results.stats;

import java.util.Arrays;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.SplittableRandom;

/**
 * How often a suite of n blocks (or n runs per variant) would fail the gate, from a pilot's own
 * blocks, and how far that figure could be off because the pilot has few of them. The one power
 * method of 'faultbed plan' and 'faultbed calibrate'.
 *
 * <p>A drawn suite is n of the pilot's blocks drawn with replacement, the candidate made slower by
 * the effect, judged by the gate's rule ({@link GateThresholds#slowerThanAllowed}: the exact rank
 * test significant and the candidate's median slower than allowed). Paired, the pair's own
 * difference (its Hodges-Lehmann ratio) is taken out first and the two runs of a block swap roles
 * half the time, so a drawn suite holds the pilot's noise and nothing else; unpaired, both
 * variants' runs are drawn from one variant's runs. A block drawn twice would tie ranks, which the
 * exact tests cannot take, so ties are broken by a relative jitter of 1e-6.
 *
 * <p>The uncertainty is a bootstrap over the pilot itself: the pilot's blocks are re-drawn with
 * replacement, the power is recomputed on each re-drawn pilot, and the 5th and 95th percentiles of
 * those powers are the 90 % interval. A pilot whose figure rests on one outlying block gets a wide
 * interval. A suite of more blocks than the pilot has is an extrapolation: its draws re-use the
 * pilot's few distinct blocks ({@link Estimate#distinctBlocks}), so its interval is too narrow.
 */
public final class PilotPower {
  private static final double JITTER = 1e-6;

  /**
   * @param suites suites drawn from the pilot as recorded, for the point estimate
   * @param redraws re-drawn pilots for the interval
   * @param suitesPerRedraw suites drawn from each re-drawn pilot
   */
  public record Method(int suites, int redraws, int suitesPerRedraw, long seed) {
    public static final Method DEFAULT = new Method(2000, 200, 200, 20_110_601L);
    /** The interval's level: from the 5th to the 95th percentile. */
    public static final double LEVEL = 0.90;

    public Method {
      if (suites < 1 || redraws < 1 || suitesPerRedraw < 1) {
        throw new IllegalArgumentException("suites, redraws and suites per redraw: expected at least 1, got "
            + suites + ", " + redraws + ", " + suitesPerRedraw);
      }
    }

    public Method withSuites(int count) {
      return new Method(count, redraws, suitesPerRedraw, seed);
    }

    /** The method in one sentence, for the output that uses it. */
    public String describe(boolean paired) {
      String unit = paired ? "blocks" : "runs";
      return String.format(Locale.ROOT, "power: share of %d suites of n %s drawn with replacement from the pilot's"
          + " %s (%s) that the gate fails; [5%%, 95%%]: the same over %d re-draws of the pilot's %s, %d suites each;"
          + " seed %d", suites, unit, unit, paired ? "the pair's own difference taken out, roles swapped at random"
          : "both variants' runs from one variant's", redraws, unit, suitesPerRedraw, seed);
    }
  }

  /**
   * Power at one suite size.
   *
   * @param point on the pilot as recorded
   * @param median median over the re-drawn pilots
   * @param interval 5th to 95th percentile over the re-drawn pilots
   * @param distinctBlocks how many of the pilot's blocks a drawn suite holds on average
   */
  public record Estimate(int size, int pilotBlocks, double point, double median, Interval interval,
      double distinctBlocks) {
    /** More blocks than the pilot has: the suites re-use its few, and the interval understates. */
    public boolean extrapolated() {
      return size > pilotBlocks;
    }

    /** "0.875 [0.520, 1.000]". */
    public String describe() {
      return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", point, interval.low(), interval.high());
    }
  }

  private final boolean paired;
  /** Paired: each block's baseline time; unpaired: the runs. */
  private final double[] baseline;
  /** Paired: each block's candidate time with the pair's difference taken out; unpaired: null. */
  private final double[] candidate;

  private PilotPower(boolean paired, double[] baseline, double[] candidate) {
    this.paired = paired;
    this.baseline = baseline;
    this.candidate = candidate;
  }

  /** Two variants' times in the pilot's blocks: {@code baseline[i]} and {@code candidate[i]} ran in block i. */
  public static PilotPower paired(double[] baseline, double[] candidate) {
    if (baseline.length != candidate.length || baseline.length == 0) {
      throw new IllegalArgumentException("expected times of the same blocks, got " + baseline.length + " and "
          + candidate.length);
    }
    double[] logRatios = new double[baseline.length];
    for (int i = 0; i < logRatios.length; i++) {
      logRatios[i] = Math.log(candidate[i] / baseline[i]);
    }
    double own = Shift.paired(logRatios, 0.95).ratio();
    return new PilotPower(true, baseline.clone(), Arrays.stream(candidate).map(c -> c / own).toArray());
  }

  /** One variant's runs, independent of each other: a candidate is assumed to spread like them. */
  public static PilotPower unpaired(double[] times) {
    if (times.length == 0) {
      throw new IllegalArgumentException("expected at least one run, got none");
    }
    return new PilotPower(false, times.clone(), null);
  }

  public boolean isPaired() {
    return paired;
  }

  /** Blocks (paired) or runs (unpaired) in the pilot. */
  public int pilotBlocks() {
    return baseline.length;
  }

  /** Standard deviation of the per-block log ratios about the pair's own difference, or of the log times about their median. */
  public double logSd() {
    double[] values = new double[baseline.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = paired ? Math.log(candidate[i] / baseline[i]) : Math.log(baseline[i]);
    }
    double centre = paired ? 0 : Math.log(Bootstrap.median(baseline));
    return Math.sqrt(Arrays.stream(values).map(v -> (v - centre) * (v - centre)).sum() / values.length);
  }

  /**
   * The power of a suite of n blocks (paired) or n runs per variant against a slowdown of
   * {@code ratio} (1: the false-alarm rate), with its interval.
   */
  public Estimate estimate(int n, double ratio, GateThresholds thresholds, Method method) {
    // one stream per size, the same for every ratio: power then rises smoothly with the effect
    SplittableRandom root = new SplittableRandom(method.seed() + n);
    SplittableRandom pointRandom = root.split();
    SplittableRandom redrawRandom = root.split();
    double point = power(baseline, candidate, n, ratio, thresholds, method.suites(), pointRandom);
    double[] powers = new double[method.redraws()];
    int size = baseline.length;
    for (int r = 0; r < powers.length; r++) {
      double[] b = new double[size];
      double[] c = paired ? new double[size] : null;
      for (int i = 0; i < size; i++) {
        int j = redrawRandom.nextInt(size);
        b[i] = baseline[j];
        if (paired) {
          c[i] = candidate[j];
        }
      }
      powers[r] = power(b, c, n, ratio, thresholds, method.suitesPerRedraw(), redrawRandom);
    }
    double tail = (1 - Method.LEVEL) / 2 * 100;
    return new Estimate(n, size, point, percentile(powers, 50),
        new Interval(percentile(powers, tail), percentile(powers, 100 - tail)), distinct(size, n));
  }

  /**
   * The fewest blocks (runs per variant) whose point estimate of power against {@code ratio}
   * reaches {@code power}; empty when not even {@code max} do. Exact up to 20, within 5 % above.
   */
  public OptionalInt sizeNeeded(double ratio, GateThresholds thresholds, double power, int max, Method method) {
    int fails = 1;
    int passes;
    for (int n = 2; ; n = Math.min(2 * n, max)) {
      if (pointPower(n, ratio, thresholds, method) >= power) {
        passes = n;
        break;
      }
      fails = n;
      if (n >= max) {
        return OptionalInt.empty();
      }
    }
    while (passes - fails > Math.max(1, fails / 20)) {
      int middle = (fails + passes) >>> 1;
      if (pointPower(middle, ratio, thresholds, method) >= power) {
        passes = middle;
      } else {
        fails = middle;
      }
    }
    return OptionalInt.of(passes);
  }

  private double pointPower(int n, double ratio, GateThresholds thresholds, Method method) {
    return power(baseline, candidate, n, ratio, thresholds, method.suites(),
        new SplittableRandom(method.seed() + n).split());
  }

  /** Share of {@code suites} drawn suites of n from these blocks (or runs) that the gate fails. */
  private double power(double[] b, double[] c, int n, double ratio, GateThresholds thresholds, int suites,
      SplittableRandom random) {
    int failed = 0;
    double[] x = new double[n];
    double[] y = new double[n];
    double[] logRatios = new double[n];
    for (int s = 0; s < suites; s++) {
      double p;
      if (c != null) {
        for (int i = 0; i < n; i++) {
          int j = random.nextInt(b.length);
          boolean swap = random.nextBoolean();
          x[i] = swap ? c[j] : b[j];
          y[i] = (swap ? b[j] : c[j]) * ratio * Math.exp(JITTER * random.nextGaussian());
          logRatios[i] = Math.log(y[i] / x[i]);
        }
        p = RankTest.signedRank(logRatios).pValue();
      } else {
        for (int i = 0; i < n; i++) {
          x[i] = b[random.nextInt(b.length)] * Math.exp(JITTER * random.nextGaussian());
          y[i] = b[random.nextInt(b.length)] * ratio * Math.exp(JITTER * random.nextGaussian());
        }
        p = RankTest.mannWhitney(x, y).pValue();
      }
      if (thresholds.slowerThanAllowed(p, Bootstrap.median(y) / Bootstrap.median(x))) {
        failed++;
      }
    }
    return failed / (double) suites;
  }

  /** Expected distinct values among n draws with replacement from {@code size}. */
  private static double distinct(int size, int n) {
    return size * (1 - Math.pow(1 - 1.0 / size, n));
  }

  private static double percentile(double[] values, double p) {
    return faultbed.results.Distribution.quantile(values, p);
  }
}
