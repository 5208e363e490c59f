package faultbed.results.stats;

import java.util.Arrays;
import org.apache.commons.statistics.inference.MannWhitneyUTest;
import org.apache.commons.statistics.inference.PValueMethod;
import org.apache.commons.statistics.inference.WilcoxonSignedRankTest;

/**
 * A two-sided rank test from Commons Statistics, exact wherever the library can be: its statistic,
 * p-value and how that p-value was computed ("exact", or the normal approximation and why).
 *
 * @param name "Mann-Whitney" or "Wilcoxon signed-rank"
 * @param statistic U of the candidate (pairs in which it is slower, ties half), or W+ (the rank sum
 *     of the blocks in which the candidate was slower)
 */
public record RankTest(String name, double statistic, double pValue, String method) {
  public static final String EXACT = "exact";

  // The exact U test tabulates (n+1)(m+1)(u+1) counts: up to n m = 2500 that is a few MB.
  private static final int MANN_WHITNEY_EXACT_PAIRS = 2500;
  // The library's limit for the exact signed-rank distribution.
  private static final int SIGNED_RANK_EXACT_PAIRS = 1023;

  public boolean exact() {
    return EXACT.equals(method);
  }

  /** Mann-Whitney U of {@code candidate} against {@code baseline} (any monotone scale: ranks only). */
  public static RankTest mannWhitney(double[] baseline, double[] candidate) {
    boolean small = (long) baseline.length * candidate.length <= MANN_WHITNEY_EXACT_PAIRS;
    MannWhitneyUTest.Result r = MannWhitneyUTest.withDefaults()
        .with(small ? PValueMethod.EXACT : PValueMethod.AUTO).test(candidate, baseline);
    String method = r.hasTiedValues() ? "normal approximation: tied times"
        : small ? EXACT : "normal approximation: large samples";
    return new RankTest("Mann-Whitney", r.getStatistic(), r.getPValue(), method);
  }

  /** Wilcoxon signed-rank test of per-block log ratios (candidate over baseline) against 0. */
  public static RankTest signedRank(double[] logRatios) {
    if (Arrays.stream(logRatios).allMatch(d -> d == 0)) {
      // the library refuses a sample of zeros: no block tells the variants apart
      return new RankTest("Wilcoxon signed-rank", 0, 1, "every ratio is 1");
    }
    boolean small = logRatios.length <= SIGNED_RANK_EXACT_PAIRS;
    WilcoxonSignedRankTest.Result r = WilcoxonSignedRankTest.withDefaults()
        .with(small ? PValueMethod.EXACT : PValueMethod.AUTO).test(logRatios);
    String method = r.hasZeroValues() ? "normal approximation: ratios of 1"
        : r.hasTiedValues() ? "normal approximation: tied ratios"
        : small ? EXACT : "normal approximation: many blocks";
    return new RankTest("Wilcoxon signed-rank", r.getStatistic(), r.getPValue(), method);
  }

  /** "exact p 0.0556" or "p 0.0612 (normal approximation: tied times)". */
  public String describeP() {
    return exact() ? "exact p " + Format.p(pValue) : "p " + Format.p(pValue) + " (" + method + ")";
  }
}
