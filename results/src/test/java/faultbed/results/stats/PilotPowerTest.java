package faultbed.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalInt;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Power from a pilot's blocks, and how much a pilot of few blocks leaves it uncertain. */
class PilotPowerTest {
  private static final GateThresholds GATE = new GateThresholds(0.05, 0);
  private static final PilotPower.Method METHOD = PilotPower.Method.DEFAULT;

  /** Blocks of two identical variants: 50 s jobs with a 3 % within-block spread, block levels 15 % apart. */
  private static double[][] homogeneous(int blocks, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    double[][] t = new double[2][blocks];
    for (int i = 0; i < blocks; i++) {
      double level = 50 * Math.exp(0.15 * random.nextGaussian());
      t[0][i] = level * Math.exp(0.03 * random.nextGaussian());
      t[1][i] = level * Math.exp(0.03 * random.nextGaussian());
    }
    return t;
  }

  @Test
  void aHomogeneousPilotGivesANarrowIntervalThatHoldsThePointEstimate() {
    double[][] t = homogeneous(8, 1);
    PilotPower pilot = PilotPower.paired(t[0], t[1]);
    long start = System.nanoTime();
    PilotPower.Estimate e = pilot.estimate(10, 1.10, GATE, METHOD);
    System.out.println("estimate took " + (System.nanoTime() - start) / 1e6 + " ms: " + e);
    assertTrue(e.interval().contains(e.point()), e.toString());
    assertTrue(e.interval().contains(e.median()), e.toString());
    assertTrue(e.point() > 0.8, e.toString());
    assertTrue(e.interval().high() - e.interval().low() < 0.35, e.toString());
    assertTrue(e.extrapolated(), "10 blocks from 8");
  }

  @Test
  void oneOutlyingBlockWidensTheInterval() {
    double[][] t = homogeneous(8, 1);
    PilotPower calm = PilotPower.paired(t[0], t[1]);
    t[1][0] = t[0][0] * 1.27;
    PilotPower outlier = PilotPower.paired(t[0], t[1]);
    PilotPower.Estimate c = calm.estimate(10, 1.10, GATE, METHOD);
    PilotPower.Estimate o = outlier.estimate(10, 1.10, GATE, METHOD);
    System.out.println(c.describe() + " against " + o.describe());
    assertTrue(o.interval().contains(o.point()), o.toString());
    assertTrue(o.interval().high() - o.interval().low() > 1.5 * (c.interval().high() - c.interval().low()),
        c.describe() + " against " + o.describe());
    assertTrue(o.interval().low() < c.interval().low() - 0.1, c.describe() + " against " + o.describe());
  }

  @Test
  void noDifferenceFailsAtMostAboutHalfOfAlpha() {
    double[][] t = homogeneous(16, 2);
    PilotPower.Estimate e = PilotPower.paired(t[0], t[1]).estimate(12, 1, GATE, METHOD);
    // two-sided 0.05, only the slower side fails the gate
    assertTrue(e.point() > 0.01 && e.point() < 0.045, e.toString());
    assertFalse(e.extrapolated());
  }

  @Test
  void theSizeNeededReachesThePowerAndOneFewerDoesNot() {
    double[][] t = homogeneous(12, 3);
    PilotPower pilot = PilotPower.paired(t[0], t[1]);
    OptionalInt n = pilot.sizeNeeded(1.05, GATE, 0.8, 500, METHOD);
    assertTrue(n.isPresent());
    assertTrue(pilot.estimate(n.getAsInt(), 1.05, GATE, METHOD).point() >= 0.8);
    assertTrue(pilot.estimate(n.getAsInt() - 1, 1.05, GATE, METHOD).point() < 0.8);
    assertFalse(pilot.sizeNeeded(1.001, GATE, 0.8, 40, METHOD).isPresent());
  }

  @Test
  void theSameSeedGivesTheSameFigures() {
    double[][] t = homogeneous(8, 4);
    assertEquals(PilotPower.paired(t[0], t[1]).estimate(8, 1.05, GATE, METHOD),
        PilotPower.paired(t[0], t[1]).estimate(8, 1.05, GATE, METHOD));
  }

  @Test
  void independentRunsSpreadingLikeThePilotNeedAboutWhatTheTextbookSays() {
    SplittableRandom random = new SplittableRandom(5);
    double[] runs = new double[20];
    for (int i = 0; i < runs.length; i++) {
      runs[i] = 45 * Math.exp(0.06 * random.nextGaussian());
    }
    PilotPower pilot = PilotPower.unpaired(runs);
    // normal theory: 2 (1.96 + 0.84)^2 (0.06 / ln 1.05)^2 = 24 per variant, a rank test a little more
    int n = pilot.sizeNeeded(1.05, GATE, 0.8, 500, METHOD).orElseThrow();
    assertTrue(n >= 18 && n <= 40, "needed " + n);
  }
}
