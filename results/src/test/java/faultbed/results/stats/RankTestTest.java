package faultbed.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The rank tests and their null distributions against R and against enumeration by hand. */
class RankTestTest {
  /**
   * Hollander and Wolfe (1973, p. 29), the paired example of R's {@code wilcox.test}: Hamilton
   * depression scale before (x) and after (y) a tranquilizer. {@code wilcox.test(x, y, paired =
   * TRUE, alternative = "greater")}: V = 40, exact p = 0.01953 (= 10/512); two-sided 20/512.
   */
  private static final double[] FIRST = {1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
  private static final double[] SECOND = {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};

  private static double[] differences() {
    double[] d = new double[FIRST.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = FIRST[i] - SECOND[i];
    }
    return d;
  }

  @Test
  void signedRankIsExactAndMatchesR() {
    RankTest t = RankTest.signedRank(differences());
    assertEquals(40, t.statistic(), 1e-12);
    assertEquals(20 / 512.0, t.pValue(), 1e-15);
    assertEquals("exact p 0.0391", t.describeP());
  }

  @Test
  void hodgesLehmannOfPairsMatchesR() {
    // as wilcox.test(x, y, paired = TRUE, conf.int = TRUE) computes it: (pseudo)median 0.46, the
    // median of the 45 Walsh averages; the interval's ends are the 6th smallest and largest of them,
    // qsignrank(0.025, 9) = 6, at 1 - 2 P(V <= 5) = 1 - 2 * 10/512 (enumerating all 512 sign
    // patterns). Shift takes the values as log ratios, so its ratio is exp of the estimate.
    Shift s = Shift.paired(differences(), 0.95);
    assertEquals(0.46, Math.log(s.ratio()), 1e-12);
    assertEquals(0.01, Math.log(s.interval().low()), 1e-12);
    assertEquals(0.786, Math.log(s.interval().high()), 1e-12);
    assertEquals(1 - 20 / 512.0, s.confidence(), 1e-12);
  }

  @Test
  void tiesAndZerosFallBackToTheNormalApproximationAndSaySo() {
    RankTest tied = RankTest.mannWhitney(new double[] {1, 2, 3}, new double[] {3, 4, 5});
    assertFalse(tied.exact());
    assertEquals("normal approximation: tied times", tied.method());
    RankTest zeros = RankTest.signedRank(new double[] {0, 0.1, 0.2, 0.3});
    assertEquals("normal approximation: ratios of 1", zeros.method());
    RankTest none = RankTest.signedRank(new double[] {0, 0});
    assertEquals(1, none.pValue());
    RankTest large = RankTest.mannWhitney(ComparisonTest.lognormal(1, 60, 45, 0.1),
        ComparisonTest.lognormal(2, 60, 45, 0.1));
    assertEquals("normal approximation: large samples", large.method());
  }

  @Test
  void nullDistributionsMatchRsQuantilesAndTheLibrarysExactTails() {
    // qsignrank(0.025, 10) = 9: P(V <= 8) = 25/1024 < 0.025 <= P(V <= 9) = 33/1024 (subset sums by hand)
    RankDistribution w = RankDistribution.signedRank(10);
    assertEquals(55, w.max());
    assertEquals(25 / 1024.0, w.cdf(8), 1e-15);
    assertEquals(9, w.quantile(0.025));
    // qwilcox(0.025, 5, 5) = 3 and qwilcox(0.025, 10, 5) = 9: P(U <= 3) = 7/252 for 5 and 5
    RankDistribution u = RankDistribution.mannWhitney(5, 5);
    assertEquals(7 / 252.0, u.cdf(3), 1e-15);
    assertEquals(3, u.quantile(0.025));
    assertEquals(9, RankDistribution.mannWhitney(10, 5).quantile(0.025));
    assertEquals(RankDistribution.mannWhitney(5, 10).cdf(20), RankDistribution.mannWhitney(10, 5).cdf(20), 1e-15);
    // the Commons Statistics exact p-value is twice the tail of the same distribution
    double[] x = ComparisonTest.lognormal(3, 12, 45, 0.1);
    double[] y = ComparisonTest.lognormal(4, 9, 47, 0.1);
    RankTest t = RankTest.mannWhitney(x, y);
    int lower = (int) Math.min(t.statistic(), 12 * 9 - t.statistic());
    assertEquals(2 * RankDistribution.mannWhitney(12, 9).cdf(lower), t.pValue(), 1e-12);
    assertTrue(RankDistribution.mannWhitney(120, 90).cdf(120 * 90) > 1 - 1e-9, "large samples sum to 1");
  }

  @Test
  void smallestPossiblePValuesAreTheExactTestsAtCompleteSeparation() {
    assertEquals(2 / 32.0, RankDistribution.smallestSignedRankP(5), 1e-15);
    assertEquals(RankTest.signedRank(new double[] {0.1, 0.2, 0.3, 0.4, 0.5}).pValue(),
        RankDistribution.smallestSignedRankP(5), 1e-15);
    assertEquals(2 / 252.0, RankDistribution.smallestMannWhitneyP(5, 5), 1e-15);
    assertEquals(RankTest.mannWhitney(new double[] {1, 2, 3, 4, 5}, new double[] {6, 7, 8, 9, 10}).pValue(),
        RankDistribution.smallestMannWhitneyP(5, 5), 1e-15);
  }
}
