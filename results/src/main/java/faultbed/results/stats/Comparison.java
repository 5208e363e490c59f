package faultbed.results.stats;

import faultbed.results.Distribution;
import java.util.function.ToDoubleFunction;
import org.apache.commons.math3.distribution.HypergeometricDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;

/**
 * Completion times of a candidate against a baseline. Effects are candidate minus (or over)
 * baseline, so a positive difference or a ratio above 1 means the candidate is slower.
 *
 * @param mannWhitneyU U of the candidate: pairs in which the candidate is slower, ties counting half
 * @param pValue two-sided Mann-Whitney p-value (normal approximation, as commons-math computes it)
 * @param cliffsDelta P(candidate slower) - P(candidate faster), from -1 to 1
 * @param failurePValue one-sided Fisher exact p-value that the candidate fails jobs more often
 */
public record Comparison(Side baseline, Side candidate, Effect median, Effect p90, double mannWhitneyU,
    double pValue, double cliffsDelta, double failurePValue, GateThresholds thresholds,
    Bootstrap bootstrap, Verdict verdict, String reason) {

  /** One side: its label, how many runs it had, and the completion times of those that succeeded. */
  public record Side(String label, int runs, int failed, Distribution times) {}

  /** A statistic's change: difference and ratio, each with its bootstrap interval. */
  public record Effect(double difference, Interval differenceInterval, double ratio, Interval ratioInterval) {
    static Effect of(double[] baseline, double[] candidate, ToDoubleFunction<double[]> statistic,
        Bootstrap bootstrap) {
      double b = statistic.applyAsDouble(baseline);
      double c = statistic.applyAsDouble(candidate);
      return new Effect(c - b, bootstrap.difference(baseline, candidate, statistic), c / b,
          bootstrap.ratio(baseline, candidate, statistic));
    }
  }

  /**
   * @param baselineTimes completion times of the baseline's successful runs (at least one)
   * @param baselineFailed how many baseline runs failed (not in the times)
   */
  public static Comparison of(String baselineLabel, double[] baselineTimes, int baselineFailed,
      String candidateLabel, double[] candidateTimes, int candidateFailed, GateThresholds thresholds,
      Bootstrap bootstrap) {
    if (baselineTimes.length == 0) {
      throw new IllegalArgumentException(baselineLabel + ": no successful runs to compare against");
    }
    Side base = new Side(baselineLabel, baselineTimes.length + baselineFailed, baselineFailed,
        Distribution.of(baselineTimes));
    Side cand = new Side(candidateLabel, candidateTimes.length + candidateFailed, candidateFailed,
        Distribution.of(candidateTimes));
    double failureP = moreFailuresPValue(base, cand);
    if (candidateTimes.length == 0) {
      return new Comparison(base, cand, null, null, Double.NaN, Double.NaN, Double.NaN, failureP,
          thresholds, bootstrap, Verdict.WORSE, "no candidate job succeeded");
    }
    Effect median = Effect.of(baselineTimes, candidateTimes, Bootstrap::median, bootstrap);
    Effect p90 = Effect.of(baselineTimes, candidateTimes, Bootstrap::p90, bootstrap);
    double u = candidateU(baselineTimes, candidateTimes);
    double p = new MannWhitneyUTest().mannWhitneyUTest(baselineTimes, candidateTimes);
    double delta = 2 * u / ((double) baselineTimes.length * candidateTimes.length) - 1;

    double limit = 1 + thresholds.maxRegressionPercent() / 100;
    boolean significant = p < thresholds.alpha();
    String stats = String.format("median x%.3f, Mann-Whitney p=%.3g", median.ratio(), p);
    Verdict verdict;
    String reason;
    if (significant && median.ratio() > limit) {
      verdict = Verdict.WORSE;
      reason = stats + ": slower by more than the allowed, at " + thresholds.describe();
    } else if (failureP < thresholds.alpha()) {
      verdict = Verdict.WORSE;
      reason = String.format("more failed jobs: %d/%d against %d/%d, Fisher p=%.3g", cand.failed(),
          cand.runs(), base.failed(), base.runs(), failureP);
    } else if (significant && median.ratio() < 1) {
      verdict = Verdict.BETTER;
      reason = stats;
    } else if (significant) {
      verdict = Verdict.SLOWER_WITHIN_TOLERANCE;
      reason = stats + ": within the allowed, at " + thresholds.describe();
    } else {
      verdict = Verdict.NO_SIGNIFICANT_DIFFERENCE;
      reason = stats + ": not significant at alpha " + GateThresholds.plain(thresholds.alpha());
    }
    return new Comparison(base, cand, median, p90, u, p, delta, failureP, thresholds, bootstrap,
        verdict, reason);
  }

  /**
   * The smallest p-value the rank test can give for these sample sizes (complete separation). When
   * it is not below alpha, no difference in times can be significant: more runs are needed.
   */
  public double smallestPossiblePValue() {
    double n = baseline.times().n();
    double m = candidate.times().n();
    if (n == 0 || m == 0) {
      return Double.NaN;
    }
    double z = -(n * m / 2) / Math.sqrt(n * m * (n + m + 1) / 12);
    return 2 * new NormalDistribution(null, 0, 1).cumulativeProbability(z);
  }

  /** Pairs (baseline, candidate) in which the candidate took longer; ties count one half. */
  static double candidateU(double[] baseline, double[] candidate) {
    double u = 0;
    for (double c : candidate) {
      for (double b : baseline) {
        u += c > b ? 1 : c == b ? 0.5 : 0;
      }
    }
    return u;
  }

  /**
   * Fisher's exact test, one-sided: the chance of the candidate holding at least its share of all
   * failed jobs if failures fell on runs regardless of side. 1 when there are no failures.
   */
  static double moreFailuresPValue(Side baseline, Side candidate) {
    int failed = baseline.failed() + candidate.failed();
    if (failed == 0) {
      return 1;
    }
    HypergeometricDistribution h = new HypergeometricDistribution(null,
        baseline.runs() + candidate.runs(), failed, candidate.runs());
    return h.upperCumulativeProbability(candidate.failed());
  }
}
