package faultbed.results.stats;

import faultbed.results.Distribution;
import java.util.Arrays;
import java.util.function.ToDoubleFunction;
import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.FisherExactTest;

/**
 * Completion times of a candidate against a baseline. Effects are candidate minus (or over)
 * baseline, so a positive difference or a ratio above 1 means the candidate is slower.
 *
 * <p>Paired when both variants ran in the same randomized blocks (same seed, same fault draw,
 * interleaved): then the test is on per-block log ratios (Wilcoxon signed-rank) and the bootstrap
 * resamples blocks. Otherwise the runs are independent samples (Mann-Whitney). Both tests are
 * exact where Commons Statistics can make them so; {@link RankTest#method()} says.
 *
 * @param design paired (how many blocks) or unpaired (why)
 * @param median ratio and difference of the medians (paired: of the paired runs)
 * @param shift Hodges-Lehmann estimate as a ratio, with its exact interval
 * @param test the rank test on completion times; null when no candidate job succeeded
 * @param adjustedPValue the test's p-value, Holm-adjusted over the comparisons checked together
 *     (the raw p-value when alone); verdicts use it
 * @param failurePValue one-sided Fisher exact p-value that the candidate fails jobs more often
 * @param detectable the smallest slowdown this sample's test sees 80% of the time
 */
public record Comparison(Side baseline, Side candidate, Design design, Effect median, Effect p90,
    Shift shift, RankTest test, double adjustedPValue, double failurePValue, double adjustedFailurePValue,
    DetectableChange detectable, Analysis analysis, Verdict verdict, String reason) {

  /** The power a detectable change is stated for. */
  public static final double POWER = 0.8;

  /** One side: its label, how many runs it had, and the completion times compared. */
  public record Side(String label, int runs, int failed, Distribution times) {}

  /** How runs were matched. */
  public sealed interface Design {
    /**
     * Runs paired by block. {@code unpairedBlocks}: blocks left out because a job failed (counted
     * by the failure test) or only one of the variants ran there.
     */
    record Paired(int pairs, int unpairedBlocks, int slowerBlocks, double medianBlockRatio) implements Design {}

    /** Independent samples, {@code why} they are, and Cliff's delta: P(candidate slower) - P(faster). */
    record Unpaired(String why, double cliffsDelta) implements Design {}
  }

  /**
   * The smallest slowdown, as a ratio, that this sample's test detects with {@code power} at
   * {@code alpha} (the level of one test of the family); infinite when none can be.
   */
  public record DetectableChange(double ratio, double power, double alpha) {
    public boolean possible() {
      return Double.isFinite(ratio);
    }
  }

  /** A statistic's change: difference and ratio, each with its bootstrap interval. */
  public record Effect(double difference, Interval differenceInterval, double ratio, Interval ratioInterval) {
    static Effect unpaired(double[] baseline, double[] candidate, ToDoubleFunction<double[]> statistic,
        Bootstrap bootstrap) {
      double b = statistic.applyAsDouble(baseline);
      double c = statistic.applyAsDouble(candidate);
      return new Effect(c - b, bootstrap.difference(baseline, candidate, statistic), c / b,
          bootstrap.ratio(baseline, candidate, statistic));
    }

    static Effect paired(double[] baseline, double[] candidate, ToDoubleFunction<double[]> statistic,
        Bootstrap bootstrap) {
      double b = statistic.applyAsDouble(baseline);
      double c = statistic.applyAsDouble(candidate);
      return new Effect(c - b, bootstrap.pairedDifference(baseline, candidate, statistic), c / b,
          bootstrap.pairedRatio(baseline, candidate, statistic));
    }
  }

  /** Runs of one side and how many of them failed their job. */
  public record Tally(int runs, int failed) {}

  /**
   * Independent samples.
   *
   * @param baselineTimes completion times of the baseline's successful runs (at least one)
   * @param baselineFailed how many baseline runs failed (not in the times)
   */
  public static Comparison unpaired(String label, String why, double[] baselineTimes, int baselineFailed,
      double[] candidateTimes, int candidateFailed, Analysis analysis) {
    if (baselineTimes.length == 0) {
      throw new IllegalArgumentException(label + ": no successful runs to compare against");
    }
    Side base = new Side(label, baselineTimes.length + baselineFailed, baselineFailed, Distribution.of(baselineTimes));
    Side cand = new Side(label, candidateTimes.length + candidateFailed, candidateFailed,
        Distribution.of(candidateTimes));
    double failureP = moreFailuresPValue(base, cand);
    if (candidateTimes.length == 0) {
      return new Comparison(base, cand, new Design.Unpaired(why, Double.NaN), null, null, null, null, Double.NaN,
          failureP, failureP, null, analysis, null, null).adjusted(Double.NaN, failureP);
    }
    Bootstrap bootstrap = analysis.bootstrap();
    RankTest test = RankTest.mannWhitney(baselineTimes, candidateTimes);
    double cliffsDelta = 2 * test.statistic() / ((double) baselineTimes.length * candidateTimes.length) - 1;
    double[] logBaseline = log(baselineTimes);
    double[] logCandidate = log(candidateTimes);
    DetectableChange detectable = analysis.detectable(Spread.unpaired(logBaseline, logCandidate),
        baselineTimes.length, candidateTimes.length);
    return new Comparison(base, cand, new Design.Unpaired(why, cliffsDelta),
        Effect.unpaired(baselineTimes, candidateTimes, Bootstrap::median, bootstrap),
        Effect.unpaired(baselineTimes, candidateTimes, Bootstrap::p90, bootstrap),
        Shift.unpaired(logBaseline, logCandidate, bootstrap.level()), test, test.pValue(), failureP, failureP,
        detectable, analysis, null, null).adjusted(test.pValue(), failureP);
  }

  /**
   * Runs paired by block: {@code baselineTimes[i]} and {@code candidateTimes[i]} ran in the same
   * block, both jobs succeeded.
   *
   * @param unpairedBlocks blocks left out: a failed job, or only one variant ran there
   * @param baseline all the baseline's runs and failed jobs, paired or not (for the failure test)
   */
  public static Comparison paired(String label, double[] baselineTimes, double[] candidateTimes,
      int unpairedBlocks, Tally baseline, Tally candidate, Analysis analysis) {
    if (baselineTimes.length != candidateTimes.length || baselineTimes.length == 0) {
      throw new IllegalArgumentException(label + ": expected at least one pair, got " + baselineTimes.length
          + " baseline and " + candidateTimes.length + " candidate times");
    }
    Side base = new Side(label, baseline.runs(), baseline.failed(), Distribution.of(baselineTimes));
    Side cand = new Side(label, candidate.runs(), candidate.failed(), Distribution.of(candidateTimes));
    double failureP = moreFailuresPValue(base, cand);
    Bootstrap bootstrap = analysis.bootstrap();
    int pairs = baselineTimes.length;
    double[] logRatios = new double[pairs];
    double[] ratios = new double[pairs];
    for (int i = 0; i < pairs; i++) {
      ratios[i] = candidateTimes[i] / baselineTimes[i];
      logRatios[i] = Math.log(ratios[i]);
    }
    int slower = (int) Arrays.stream(logRatios).filter(d -> d > 0).count();
    RankTest test = RankTest.signedRank(logRatios);
    DetectableChange detectable = analysis.detectable(Spread.paired(logRatios), pairs, pairs);
    return new Comparison(base, cand,
        new Design.Paired(pairs, unpairedBlocks, slower, Bootstrap.median(ratios)),
        Effect.paired(baselineTimes, candidateTimes, Bootstrap::median, bootstrap),
        Effect.paired(baselineTimes, candidateTimes, Bootstrap::p90, bootstrap),
        Shift.paired(logRatios, bootstrap.level()), test, test.pValue(), failureP, failureP, detectable,
        analysis, null, null).adjusted(test.pValue(), failureP);
  }

  /**
   * This comparison judged with adjusted p-values (Holm's, over the comparisons checked together).
   * WORSE: slower by more than allowed, or more failed jobs, or no candidate job succeeded; BETTER:
   * faster; SLOWER_WITHIN_TOLERANCE; otherwise NO_SIGNIFICANT_DIFFERENCE.
   */
  public Comparison adjusted(double timePValue, double failuresPValue) {
    GateThresholds thresholds = analysis.thresholds();
    Verdict verdict;
    String reason;
    if (test == null) {
      verdict = Verdict.WORSE;
      reason = "no candidate job succeeded";
    } else {
      boolean significant = timePValue < thresholds.alpha();
      String stats = "median " + Format.ratio(median.ratio()) + ", " + test.name() + " " + test.describeP()
          + holm(timePValue);
      if (thresholds.slowerThanAllowed(timePValue, median.ratio())) {
        verdict = Verdict.WORSE;
        reason = stats + ": slower by more than the allowed, at " + thresholds.describe();
      } else if (failuresPValue < thresholds.alpha()) {
        verdict = Verdict.WORSE;
        reason = moreFailures(failuresPValue);
      } else if (significant && median.ratio() < 1) {
        verdict = Verdict.BETTER;
        reason = stats;
      } else if (significant) {
        verdict = Verdict.SLOWER_WITHIN_TOLERANCE;
        reason = stats + ": within the allowed, at " + thresholds.describe();
      } else {
        verdict = Verdict.NO_SIGNIFICANT_DIFFERENCE;
        reason = stats + ": not significant at alpha " + Format.plain(thresholds.alpha());
      }
    }
    if (test == null && failuresPValue < thresholds.alpha()) {
      reason += "; " + moreFailures(failuresPValue);
    }
    return new Comparison(baseline, candidate, design, median, p90, shift, test, timePValue, failurePValue,
        failuresPValue, detectable, analysis, verdict, reason);
  }

  private String moreFailures(double adjusted) {
    return String.format("more failed jobs: %d/%d against %d/%d, Fisher exact p %s%s", candidate.failed(),
        candidate.runs(), baseline.failed(), baseline.runs(), Format.p(failurePValue), holm(adjusted));
  }

  private String holm(double adjusted) {
    return analysis.adjustment(adjusted);
  }

  /**
   * The smallest p-value the exact test allows with these many pairs or runs (all of one side
   * slower). When it is not below alpha, no difference in times can be significant: run more.
   */
  public double smallestPossiblePValue() {
    if (design instanceof Design.Paired p) {
      return RankDistribution.smallestSignedRankP(p.pairs());
    }
    return candidate.times().n() == 0 ? Double.NaN
        : RankDistribution.smallestMannWhitneyP(baseline.times().n(), candidate.times().n());
  }

  private static double[] log(double[] times) {
    return Arrays.stream(times).map(Math::log).toArray();
  }

  /**
   * Fisher's exact test, one-sided: the chance of the candidate holding at least its share of all
   * failed jobs if failures fell on runs regardless of side. 1 when there are no failures.
   */
  static double moreFailuresPValue(Side baseline, Side candidate) {
    if (baseline.failed() + candidate.failed() == 0) {
      return 1;
    }
    int[][] table = {
        {candidate.failed(), candidate.runs() - candidate.failed()},
        {baseline.failed(), baseline.runs() - baseline.failed()}};
    return FisherExactTest.withDefaults().with(AlternativeHypothesis.GREATER_THAN).test(table).getPValue();
  }
}
