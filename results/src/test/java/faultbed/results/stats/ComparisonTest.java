package faultbed.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.distribution.LogNormalDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.junit.jupiter.api.Test;

class ComparisonTest {
  /**
   * Hollander and Wolfe (1973, pp. 69f), the example of R's {@code wilcox.test}: permeability
   * constants of the human chorioamnion at term (x) and between 12 and 26 weeks (y). W = U = 35;
   * {@code wilcox.test(x, y, exact = FALSE, correct = FALSE)} gives p = 0.2207 (normal
   * approximation without continuity correction, which is what commons-math computes).
   */
  private static final double[] AT_TERM = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
  private static final double[] EARLY = {1.15, 0.88, 0.90, 0.74, 1.21};

  private static double[] lognormal(long seed, int n, double median) {
    return new LogNormalDistribution(new Well19937c(seed), Math.log(median), 0.08,
        LogNormalDistribution.DEFAULT_INVERSE_ABSOLUTE_ACCURACY).sample(n);
  }

  private static Comparison compare(double[] baseline, double[] candidate) {
    return Comparison.of("a", baseline, 0, "b", candidate, 0, GateThresholds.DEFAULT, Bootstrap.DEFAULT);
  }

  @Test
  void mannWhitneyMatchesHollanderAndWolfesExample() {
    Comparison c = compare(EARLY, AT_TERM);
    assertEquals(35, c.mannWhitneyU(), 1e-12);
    assertEquals(0.2207, c.pValue(), 5e-5);
    // Cliff's delta = 2U / (n m) - 1 = 70 / 50 - 1
    assertEquals(0.4, c.cliffsDelta(), 1e-12);
    assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, c.verdict());
  }

  @Test
  void twentyPercentSlowerIsARegression() {
    double[] baseline = lognormal(1, 20, 45);
    double[] candidate = lognormal(2, 20, 45);
    for (int i = 0; i < candidate.length; i++) {
      candidate[i] *= 1.2;
    }
    Comparison c = compare(baseline, candidate);
    assertEquals(Verdict.WORSE, c.verdict(), c.reason());
    assertTrue(c.pValue() < 1e-4, c.reason());
    assertTrue(c.median().ratioInterval().contains(1.2), c.median().toString());
    assertTrue(c.median().ratioInterval().low() > 1.1, c.median().toString());
    assertTrue(c.median().differenceInterval().low() > 0);
    assertTrue(c.cliffsDelta() > 0.8);
  }

  @Test
  void anotherSampleOfTheSameVariantIsNoDifference() {
    Comparison c = compare(lognormal(1, 20, 45), lognormal(3, 20, 45));
    assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, c.verdict(), c.reason());
    assertTrue(c.median().ratioInterval().contains(1.0), c.median().toString());
  }

  @Test
  void significantlyFasterIsBetterAndSlightlySlowerIsWithinTolerance() {
    double[] baseline = lognormal(1, 30, 45);
    assertEquals(Verdict.BETTER, compare(baseline, lognormal(4, 30, 36)).verdict());
    Comparison slightly = compare(baseline, lognormal(5, 30, 48));
    assertEquals(Verdict.SLOWER_WITHIN_TOLERANCE, slightly.verdict(), slightly.reason());
    Comparison strict = Comparison.of("a", baseline, 0, "b", lognormal(5, 30, 48), 0,
        new GateThresholds(0.05, 2), Bootstrap.DEFAULT);
    assertEquals(Verdict.WORSE, strict.verdict(), "a 7% slowdown breaks a 2% budget");
  }

  @Test
  void moreFailedJobsIsARegressionByFishersExactTest() {
    double[] times = lognormal(1, 10, 45);
    // 0 of 10 against 5 of 10 failed: scipy.stats.fisher_exact([[5, 5], [0, 10]], "greater") p = 0.01625
    Comparison c = Comparison.of("a", times, 0, "b", lognormal(3, 5, 45), 5, GateThresholds.DEFAULT,
        Bootstrap.DEFAULT);
    assertEquals(0.016254, c.failurePValue(), 1e-6);
    assertEquals(Verdict.WORSE, c.verdict(), c.reason());
    assertTrue(c.reason().contains("failed jobs"), c.reason());
  }

  @Test
  void aCandidateWithoutASuccessfulJobIsWorseAndABaselineWithoutOneCannotBeCompared() {
    Comparison c = Comparison.of("a", lognormal(1, 3, 45), 0, "b", new double[0], 2, GateThresholds.DEFAULT,
        Bootstrap.DEFAULT);
    assertEquals(Verdict.WORSE, c.verdict());
    assertNull(c.median());
    assertThrows(IllegalArgumentException.class, () -> Comparison.of("a", new double[0], 3, "b",
        lognormal(1, 3, 45), 0, GateThresholds.DEFAULT, Bootstrap.DEFAULT));
  }

  @Test
  void tooFewRunsCannotShowADifferenceAndSaySo() {
    // one baseline run against four slower ones: complete separation, yet p = 2 * Phi(-2 / sqrt 2) = 0.1573
    Comparison c = compare(new double[] {20.2}, new double[] {45.2, 45.8, 49.9, 50.3});
    assertEquals(c.pValue(), c.smallestPossiblePValue(), 1e-12);
    assertEquals(0.1573, c.smallestPossiblePValue(), 1e-4);
    assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, c.verdict());
    assertTrue(compare(lognormal(1, 5, 45), lognormal(2, 5, 45)).smallestPossiblePValue() < 0.05);
  }

  @Test
  void thresholdsAreChecked() {
    assertThrows(IllegalArgumentException.class, () -> new GateThresholds(0, 10));
    assertThrows(IllegalArgumentException.class, () -> new GateThresholds(0.05, -1));
    assertEquals("alpha 0.05, max regression 10%", GateThresholds.DEFAULT.describe());
  }
}
