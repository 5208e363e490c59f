package faultbed.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PowerSimulationTest {
  private static final PowerSimulation SIMULATION = PowerSimulation.DEFAULT;

  private static double[] logs(double[] times) {
    return Arrays.stream(times).map(Math::log).toArray();
  }

  @Test
  void withNoChangeTheTestRejectsAboutAlphaOfTheTime() {
    Spread s = Spread.unpaired(logs(ComparisonTest.lognormal(1, 20, 45, 0.1)));
    double size = SIMULATION.power(s, 0, 10, 10, 0.05);
    assertTrue(size > 0.02 && size <= 0.07, "size " + size);
    Spread p = Spread.paired(logs(ComparisonTest.lognormal(2, 20, 1.05, 0.03)));
    double pairedSize = SIMULATION.power(p, 0, 10, 10, 0.05);
    assertTrue(pairedSize > 0.02 && pairedSize <= 0.07, "size " + pairedSize);
  }

  @Test
  void theDetectableChangeShrinksWithMoreRunsAndIsSeenEightyPercentOfTheTime() {
    Spread s = Spread.unpaired(logs(ComparisonTest.lognormal(1, 20, 45, 0.1)));
    double previous = Double.POSITIVE_INFINITY;
    for (int n : new int[] {5, 10, 20, 40}) {
      double mde = SIMULATION.minimumDetectableRatio(s, n, n, 0.05, 0.8);
      assertTrue(mde < previous, n + " runs: x" + mde + " not below x" + previous);
      assertTrue(SIMULATION.power(s, Math.log(mde), n, n, 0.05) >= 0.8);
      assertTrue(SIMULATION.power(s, Math.log(mde) - 0.002, n, n, 0.05) < 0.8, "the smallest such change");
      previous = mde;
    }
    // textbook normal approximation for 40 and 40 with sd 0.1 (sd of the sample: about that):
    // 2.8 * 0.1 * sqrt(2 / 40) = 0.063, a rank test a little above
    assertTrue(previous > Math.exp(0.05) && previous < Math.exp(0.085), "x" + previous);
  }

  @Test
  void tooFewRunsSeeNothing() {
    Spread s = Spread.unpaired(logs(ComparisonTest.lognormal(1, 20, 45, 0.1)));
    assertEquals(Double.POSITIVE_INFINITY, SIMULATION.minimumDetectableRatio(s, 3, 3, 0.05, 0.8));
  }

  @Test
  void theSameSeedGivesTheSameFigures() {
    Spread s = Spread.paired(logs(ComparisonTest.lognormal(3, 8, 1.02, 0.04)));
    assertEquals(SIMULATION.minimumDetectableRatio(s, 8, 8, 0.05, 0.8),
        SIMULATION.minimumDetectableRatio(s, 8, 8, 0.05, 0.8));
  }
}
