package faultbed.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.commons.statistics.distribution.LogNormalDistribution;
import org.junit.jupiter.api.Test;

class ComparisonTest {
  /**
   * Hollander and Wolfe (1973, pp. 69f), the example of R's {@code wilcox.test}: permeability
   * constants of the human chorioamnion at term (x) and between 12 and 26 weeks (y).
   * {@code wilcox.test(x, y, alternative = "greater")} gives W = 35, exact p = 0.1272; two-sided
   * twice that (0.2544, by enumerating all 3003 rank sets).
   */
  private static final double[] AT_TERM = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
  private static final double[] EARLY = {1.15, 0.88, 0.90, 0.74, 1.21};

  /** experiments/published/dinu-ng-thresholds: job seconds of defaults-crash and expiry-6s-crash. */
  static final double[] DEFAULTS_CRASH = {55.979, 48.276, 44.563, 55.395, 60.873};
  static final double[] EXPIRY_6S_CRASH = {40.451, 44.247, 43.058, 47.250, 49.742};

  static double[] lognormal(long seed, int n, double median, double sigma) {
    return LogNormalDistribution.of(Math.log(median), sigma).createSampler(new SplittableRandom(seed)::nextLong)
        .samples(n).toArray();
  }

  private static double[] lognormal(long seed, int n, double median) {
    return lognormal(seed, n, median, 0.08);
  }

  private static Comparison compare(double[] baseline, double[] candidate) {
    return Comparison.unpaired("a", "test", baseline, 0, candidate, 0, Analysis.DEFAULT);
  }

  @Test
  void mannWhitneyIsExactAndMatchesR() {
    Comparison c = compare(EARLY, AT_TERM);
    assertEquals(35, c.test().statistic(), 1e-12);
    assertEquals(0.2544, c.test().pValue(), 5e-5);
    assertEquals(RankTest.EXACT, c.test().method());
    // Cliff's delta = 2U / (n m) - 1 = 70 / 50 - 1
    assertEquals(0.4, ((Comparison.Design.Unpaired) c.design()).cliffsDelta(), 1e-12);
    assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, c.verdict());
  }

  @Test
  void theThresholdSweepsCrashSpeedUpIsNotSignificantOnceTheTestIsExact() {
    // U = 3 of 25; P(U <= 3) = 7/252 (U = 0, 1, 2, 2, 3, 3, 3), so p = 14/252. The normal
    // approximation said 0.047 and the README said BETTER.
    Comparison c = compare(DEFAULTS_CRASH, EXPIRY_6S_CRASH);
    assertEquals(3, c.test().statistic(), 1e-12);
    assertEquals(14 / 252.0, c.test().pValue(), 1e-12);
    assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, c.verdict(), c.reason());
    assertTrue(c.reason().contains("Mann-Whitney exact p 0.0556"), c.reason());
    // Hodges-Lehmann: median of the 25 log differences; interval between the 3rd smallest and
    // 3rd largest, qwilcox(0.025, 5, 5) = 3, at 1 - 2 P(U <= 2) = 1 - 8/252 (brute-force enumeration)
    assertEquals(0.844067, c.shift().ratio(), 1e-6);
    assertEquals(0.722610, c.shift().interval().low(), 1e-6);
    assertEquals(1.030367, c.shift().interval().high(), 1e-6);
    assertEquals(1 - 8 / 252.0, c.shift().confidence(), 1e-12);
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
    assertTrue(c.test().pValue() < 1e-4, c.reason());
    assertTrue(c.test().exact());
    assertTrue(c.median().ratioInterval().contains(1.2), c.median().toString());
    assertTrue(c.median().ratioInterval().low() > 1.1, c.median().toString());
    assertTrue(c.shift().interval().contains(1.2), c.shift().toString());
    assertTrue(c.median().differenceInterval().low() > 0);
    assertTrue(((Comparison.Design.Unpaired) c.design()).cliffsDelta() > 0.8);
    // a 20% change is well beyond what 20 runs of 8% spread can see
    assertTrue(c.detectable().ratio() > 1.03 && c.detectable().ratio() < 1.15, c.detectable().toString());
  }

  @Test
  void anotherSampleOfTheSameVariantIsNoDifference() {
    Comparison c = compare(lognormal(1, 20, 45), lognormal(3, 20, 45));
    assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, c.verdict(), c.reason());
    assertTrue(c.median().ratioInterval().contains(1.0), c.median().toString());
    assertTrue(c.shift().interval().contains(1.0), c.shift().toString());
  }

  @Test
  void significantlyFasterIsBetterAndSlightlySlowerIsWithinTolerance() {
    double[] baseline = lognormal(1, 30, 45);
    assertEquals(Verdict.BETTER, compare(baseline, lognormal(4, 30, 36)).verdict());
    // the same spread 6% slower: significant, and the medians' ratio exactly 1.06
    double[] slower = Arrays.stream(baseline).map(t -> t * 1.06).toArray();
    Comparison slightly = compare(baseline, slower);
    assertEquals(Verdict.SLOWER_WITHIN_TOLERANCE, slightly.verdict(), slightly.reason());
    Comparison strict = Comparison.unpaired("a", "test", baseline, 0, slower, 0,
        Analysis.DEFAULT.withThresholds(new GateThresholds(0.05, 2)));
    assertEquals(Verdict.WORSE, strict.verdict(), "a 6% slowdown breaks a 2% budget");
  }

  @Test
  void moreFailedJobsIsARegressionByFishersExactTest() {
    double[] times = lognormal(1, 10, 45);
    // 0 of 10 against 5 of 10 failed: scipy.stats.fisher_exact([[5, 5], [0, 10]], "greater") p = 0.01625
    Comparison c = Comparison.unpaired("a", "test", times, 0, lognormal(3, 5, 45), 5, Analysis.DEFAULT);
    assertEquals(0.016254, c.failurePValue(), 1e-6);
    assertEquals(Verdict.WORSE, c.verdict(), c.reason());
    assertTrue(c.reason().contains("failed jobs"), c.reason());
  }

  @Test
  void aCandidateWithoutASuccessfulJobIsWorseAndABaselineWithoutOneCannotBeCompared() {
    Comparison c = Comparison.unpaired("a", "test", lognormal(1, 3, 45), 0, new double[0], 2, Analysis.DEFAULT);
    assertEquals(Verdict.WORSE, c.verdict());
    assertNull(c.median());
    assertNull(c.test());
    assertThrows(IllegalArgumentException.class, () -> Comparison.unpaired("a", "test", new double[0], 3,
        lognormal(1, 3, 45), 0, Analysis.DEFAULT));
  }

  @Test
  void tooFewRunsCannotShowADifferenceAndSaySo() {
    // one baseline run against four slower ones: complete separation, yet exact p = 2 / C(5, 1) = 0.4
    Comparison c = compare(new double[] {20.2}, new double[] {45.2, 45.8, 49.9, 50.3});
    assertEquals(0.4, c.test().pValue(), 1e-12);
    assertEquals(c.test().pValue(), c.smallestPossiblePValue(), 1e-12);
    assertFalse(c.detectable().possible());
    assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, c.verdict());
    // 4 and 4: 2 / C(8, 4) = 0.0286 < 0.05; 3 and 3: 2 / 20 = 0.1
    assertEquals(2 / 70.0, compare(lognormal(1, 4, 45), lognormal(2, 4, 45)).smallestPossiblePValue(), 1e-12);
    assertEquals(0.1, compare(lognormal(1, 3, 45), lognormal(2, 3, 45)).smallestPossiblePValue(), 1e-12);
  }

  /**
   * Blocks that share a fault draw vary together: here the block effect (30% spread) dwarfs a 5%
   * slowdown within blocks (1% noise). Pairs see it; independent samples cannot.
   */
  @Test
  void pairsByBlockSeeWhatIndependentSamplesCannot() {
    int blocks = 10;
    double[] blockEffect = lognormal(7, blocks, 40, 0.3);
    double[] noise = lognormal(8, 2 * blocks, 1, 0.01);
    double[] baseline = new double[blocks];
    double[] candidate = new double[blocks];
    for (int i = 0; i < blocks; i++) {
      baseline[i] = blockEffect[i] * noise[i];
      candidate[i] = blockEffect[i] * 1.05 * noise[blocks + i];
    }
    Comparison.Tally all = new Comparison.Tally(11, 1);
    Comparison paired = Comparison.paired("p", baseline, candidate, 1, all, new Comparison.Tally(11, 0),
        Analysis.DEFAULT);
    Comparison.Design.Paired design = assertInstanceOf(Comparison.Design.Paired.class, paired.design());
    assertEquals(10, design.pairs());
    assertEquals(1, design.unpairedBlocks());
    assertEquals(10, design.slowerBlocks());
    assertEquals("Wilcoxon signed-rank", paired.test().name());
    // all ten blocks slower: W+ = 55, exact p = 2 / 2^10
    assertEquals(55, paired.test().statistic(), 1e-12);
    assertEquals(2 / 1024.0, paired.test().pValue(), 1e-15);
    assertTrue(paired.shift().interval().contains(1.05), paired.shift().toString());
    assertEquals(1.05, design.medianBlockRatio(), 0.01);
    assertEquals(Verdict.SLOWER_WITHIN_TOLERANCE, paired.verdict(), paired.reason());
    assertEquals(11, paired.candidate().runs());

    Comparison unpaired = compare(baseline, candidate);
    assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, unpaired.verdict(), unpaired.reason());
    assertTrue(paired.detectable().ratio() < 1.03, paired.detectable().toString());
    assertTrue(unpaired.detectable().ratio() > 1.3, unpaired.detectable().toString());
  }

  @Test
  void thresholdsAreChecked() {
    assertThrows(IllegalArgumentException.class, () -> new GateThresholds(0, 10));
    assertThrows(IllegalArgumentException.class, () -> new GateThresholds(0.05, -1));
    assertEquals("alpha 0.05, max regression 10%", GateThresholds.DEFAULT.describe());
  }
}
