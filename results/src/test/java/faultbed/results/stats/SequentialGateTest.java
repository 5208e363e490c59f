package faultbed.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.stats.SequentialDesign.Spending;
import faultbed.results.stats.SequentialGate.Decision;
import faultbed.results.stats.SequentialGate.Outcome;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Decisions at each look, and the gate's operating characteristics on simulated suites. */
class SequentialGateTest {
  private static final SequentialDesign EVERY_8_OF_40 = SequentialDesign.lookingEvery(8, 40, 0.05,
      Spending.OBRIEN_FLEMING);
  /** Any significant slowdown fails: the strictest gate, the most false alarms. */
  private static final SequentialGate STRICT = new SequentialGate(EVERY_8_OF_40, 0);
  /** Today's default tolerance. */
  private static final SequentialGate TOLERANT = new SequentialGate(EVERY_8_OF_40, 10);
  /** Per-block spread of today's suites: sd of the log ratios. */
  private static final double BLOCK_SD = 0.13;
  private static final int SUITES = 4000;

  /** n distinct log ratios about {@code centre}, all on its side of 0 when it is far enough. */
  private static double[] steady(int n, double centre) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = centre + 0.0001 * i;
    }
    return d;
  }

  /** n log ratios of alternating sign and growing size: nothing to find. */
  private static double[] balanced(int n) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = (i % 2 == 0 ? 1 : -1) * 0.01 * (i + 1);
    }
    return d;
  }

  @Test
  void aClearSlowdownStopsAtTheFirstLookThatCanReject() {
    Outcome o = STRICT.decide(steady(40, 0.2));
    // 8 blocks all slower give exact p 2/256, far above that look's 1.2e-5; 16 give 3.1e-5 < 0.0019
    assertEquals(Decision.STOP_WORSE, o.decision(), o.describe());
    assertEquals(16, o.blocks());
    assertTrue(o.stoppedEarly());
    assertEquals(2, o.looks().size());
    assertEquals(Decision.CONTINUE, o.looks().get(0).decision());
    assertEquals(2.0 / 256, o.looks().get(0).pValue(), 1e-12);
    assertEquals(2.0 / 65536, o.looks().get(1).pValue(), 1e-12);
    assertEquals(RankTest.EXACT, o.looks().get(1).test().method());
    assertEquals(Optional.of(Verdict.WORSE), o.decision().verdict());
    System.out.println(o.describe());
  }

  @Test
  void aClearSpeedUpStopsBetter() {
    Outcome o = TOLERANT.decide(steady(40, -0.2));
    assertEquals(Decision.STOP_BETTER, o.decision(), o.describe());
    assertEquals(16, o.blocks());
  }

  @Test
  void nothingToFindRunsToTheEndAndSaysNoDifference() {
    Outcome o = STRICT.decide(balanced(40));
    assertEquals(Decision.NO_DIFFERENCE, o.decision(), o.describe());
    assertEquals(40, o.blocks());
    assertFalse(o.stoppedEarly());
    assertEquals(5, o.looks().size());
    assertEquals(Optional.of(Verdict.NO_SIGNIFICANT_DIFFERENCE), o.decision().verdict());
  }

  @Test
  void aSignificantSlowdownWithinTheToleranceKeepsGoingAndEndsWithinTolerance() {
    Outcome o = TOLERANT.decide(steady(40, Math.log(1.05)));
    assertEquals(Decision.SLOWER_WITHIN_TOLERANCE, o.decision(), o.describe());
    assertEquals(40, o.blocks());
    assertTrue(o.looks().get(1).pValue() < o.looks().get(1).nominalLevel(), "significant at 16 already");
    assertEquals(Decision.CONTINUE, o.looks().get(1).decision());
  }

  @Test
  void aSuiteStillRunningIsToldToContinue() {
    Outcome o = STRICT.decide(balanced(20));
    assertEquals(Decision.CONTINUE, o.decision());
    assertEquals(16, o.blocks());
    assertEquals(2, o.looks().size());
    assertTrue(o.decision().verdict().isEmpty());
    Outcome none = STRICT.decide(balanced(7));
    assertEquals(Decision.CONTINUE, none.decision());
    assertEquals(0, none.blocks());
  }

  @Test
  void badInputIsRefusedWithTheFieldAndValue() {
    assertEquals("log ratios: expected at most 40 blocks, got 41", assertThrows(IllegalArgumentException.class,
        () -> STRICT.decide(balanced(41))).getMessage());
    double[] failed = balanced(10);
    failed[3] = Double.NaN;
    assertEquals("log ratios: expected finite numbers, got NaN in block 4",
        assertThrows(IllegalArgumentException.class, () -> STRICT.decide(failed)).getMessage());
    assertEquals("max regression: expected a percentage >= 0, got -1.0",
        assertThrows(IllegalArgumentException.class, () -> new SequentialGate(EVERY_8_OF_40, -1)).getMessage());
    assertEquals("design: expected a sequential design, got none",
        assertThrows(IllegalArgumentException.class, () -> new SequentialGate(null, 10)).getMessage());
  }

  /** Counts over simulated suites of N normal log ratios. */
  private record Simulated(int suites, int worse, int better, long blocks, int fixedWorse) {
    double worseRate() {
      return worse / (double) suites;
    }

    double fixedWorseRate() {
      return fixedWorse / (double) suites;
    }

    double expectedBlocks() {
      return blocks / (double) suites;
    }

    String describe() {
      return String.format(Locale.ROOT, "WORSE %.4f, BETTER %.4f, expected blocks %.2f, fixed-N WORSE %.4f",
          worseRate(), better / (double) suites, expectedBlocks(), fixedWorseRate());
    }
  }

  private static Simulated simulate(SequentialGate gate, double mean, int suites, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    SequentialGate fixed = gate.fixed();
    int n = gate.design().maxBlocks();
    int worse = 0;
    int better = 0;
    long blocks = 0;
    int fixedWorse = 0;
    double[] d = new double[n];
    for (int s = 0; s < suites; s++) {
      for (int i = 0; i < n; i++) {
        d[i] = mean + BLOCK_SD * random.nextGaussian();
      }
      Outcome o = gate.decide(d);
      worse += o.decision() == Decision.STOP_WORSE ? 1 : 0;
      better += o.decision() == Decision.STOP_BETTER ? 1 : 0;
      blocks += o.blocks();
      fixedWorse += fixed.decide(d).decision() == Decision.STOP_WORSE ? 1 : 0;
    }
    return new Simulated(suites, worse, better, blocks, fixedWorse);
  }

  /** alpha / 2 (WORSE is one side of a two-sided gate) plus three binomial standard errors. */
  private static double falseAlarmBound(double alpha, int suites) {
    double p = alpha / 2;
    return p + 3 * Math.sqrt(p * (1 - p) / suites);
  }

  @Test
  void withNoDifferenceTheFamilyWiseFalseAlarmRateOfWorseIsAtMostHalfOfAlpha() {
    long start = System.nanoTime();
    Simulated obf = simulate(STRICT, 0, SUITES, 20_260_101L);
    SequentialGate pocockGate = new SequentialGate(SequentialDesign.lookingEvery(8, 40, 0.05, Spending.POCOCK), 0);
    Simulated pocock = simulate(pocockGate, 0, 2000, 20_260_102L);
    System.out.printf(Locale.ROOT, "A/A, N 40, looks every 8, sd %.2f, tolerance 0%%, %d suites (%.1f s):%n"
        + "  O'Brien-Fleming: %s%n  Pocock (2000 suites): %s%n", BLOCK_SD, SUITES, (System.nanoTime() - start) / 1e9,
        obf.describe(), pocock.describe());
    assertTrue(obf.worseRate() <= falseAlarmBound(0.05, SUITES), obf.describe());
    assertTrue(pocock.worseRate() <= falseAlarmBound(0.05, 2000), pocock.describe());
    // two-sided, the union bound holds the whole family at alpha
    assertTrue((obf.worse() + obf.better()) / (double) SUITES <= 0.05 + 3 * Math.sqrt(0.05 * 0.95 / SUITES),
        obf.describe());
    // the fixed gate, one test at 0.05, is the yardstick: about 0.025 on the slower side
    assertTrue(obf.fixedWorseRate() > 0.015 && obf.fixedWorseRate() <= falseAlarmBound(0.05, SUITES), obf.describe());
    // with nothing to find, nearly every suite runs to N
    assertTrue(obf.expectedBlocks() > 39, obf.describe());
  }

  @Test
  void aTenPercentSlowdownIsFoundAndUsuallyEarly() {
    long start = System.nanoTime();
    Simulated strict = simulate(STRICT, Math.log(1.10), SUITES, 20_260_103L);
    Simulated tolerant = simulate(TOLERANT, Math.log(1.10), SUITES, 20_260_103L);
    System.out.printf(Locale.ROOT, "x1.10, N 40, looks every 8, O'Brien-Fleming, sd %.2f, %d suites (%.1f s):%n"
        + "  tolerance 0%%: %s%n  tolerance 10%%: %s%n", BLOCK_SD, SUITES, (System.nanoTime() - start) / 1e9,
        strict.describe(), tolerant.describe());
    // effect / sd = 0.73 per block: the statistics alone find it nearly always, well before N
    assertTrue(strict.worseRate() > 0.95, strict.describe());
    assertTrue(strict.expectedBlocks() < 30, strict.describe());
    assertTrue(strict.worseRate() <= strict.fixedWorseRate() + 0.01, strict.describe());
    // at a tolerance equal to the true slowdown the median block ratio is above it about half the time
    assertTrue(tolerant.worseRate() < strict.worseRate(), tolerant.describe());
    // and before N it stops only on evidence of more than the tolerance, which a slowdown of exactly
    // the tolerance rarely gives: most suites run to the end
    assertTrue(tolerant.expectedBlocks() > strict.expectedBlocks() + 5, tolerant.describe());
  }

  @Test
  void aSlowdownWithinTheToleranceFailsNoMoreOftenThanAtOneLook() {
    // the tolerance is a check of the median: were each look to test against no difference, every
    // look would give a slowdown near the tolerance another chance to cross it (26 % WORSE here
    // against the fixed gate's 13 %). Before the last look the gate tests the ratios over the
    // tolerance, so an interim stop adds at most the level spent there.
    Simulated near = simulate(TOLERANT, Math.log(1.07), 2000, 20_260_104L);
    System.out.printf(Locale.ROOT, "x1.07, N 40, looks every 8, O'Brien-Fleming, sd %.2f, tolerance 10%%, 2000 suites:"
        + " %s%n", BLOCK_SD, near.describe());
    double interimLevels = TOLERANT.design().boundaries().stream().filter(b -> b.blocks() < 40)
        .mapToDouble(SequentialDesign.Boundary::nominalLevel).sum();
    // 0.02: three standard errors of a share near 0.13 over 2000 suites
    assertTrue(near.worseRate() <= near.fixedWorseRate() + interimLevels + 0.02, near.describe());
    assertTrue(near.worseRate() < 0.2, near.describe());
  }
}
