package faultbed.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.stats.SequentialDesign.Spending;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** False alarms, power and cost of a sequential design, from a pilot's blocks. */
class SequentialOperatingCharacteristicsTest {
  private static final SequentialGate GATE = new SequentialGate(
      SequentialDesign.lookingEvery(8, 40, 0.05, Spending.OBRIEN_FLEMING), 0);

  /** A pilot of n blocks with log ratios spread like today's suites (sd 0.13) and a small difference of its own. */
  private static double[] pilot(int n, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = 0.03 + 0.13 * random.nextGaussian();
    }
    return d;
  }

  @Test
  void thePilotsNoiseGivesFewFalseAlarmsAndASlowdownStopsEarly() {
    long start = System.nanoTime();
    SequentialOperatingCharacteristics oc = SequentialOperatingCharacteristics.simulate(GATE, pilot(20, 7), 1.10,
        1000, 11);
    System.out.println("took " + (System.nanoTime() - start) / 1e6 + " ms\n" + oc.describe() + oc);
    SequentialOperatingCharacteristics.Scenario none = oc.underNull();
    SequentialOperatingCharacteristics.Scenario slower = oc.atRatio();
    // the pilot's own difference is taken out: what is left is noise, half of alpha on the slower side at most
    double bound = 0.025 + 3 * Math.sqrt(0.025 * 0.975 / 1000);
    assertTrue(none.worse() <= bound, oc.describe());
    assertTrue(none.fixedWorse() <= bound, oc.describe());
    assertTrue(none.expectedBlocks() > 39, oc.describe());
    assertTrue(slower.worse() > 0.9, oc.describe());
    assertTrue(slower.expectedBlocks() < 30, oc.describe());
    assertEquals(40, slower.maximumBlocks());
    assertEquals(1, slower.endedAtLook().stream().mapToDouble(Double::doubleValue).sum(), 1e-12);
    assertEquals(0, slower.endedAtLook().get(0), "8 blocks cannot reach the first look's level");
  }

  @Test
  void theSameSeedGivesTheSameFigures() {
    double[] p = pilot(12, 3);
    assertEquals(SequentialOperatingCharacteristics.simulate(GATE, p, 1.05, 200, 5),
        SequentialOperatingCharacteristics.simulate(GATE, p, 1.05, 200, 5));
  }

  @Test
  void aPilotOfOneBlockIsRefused() {
    assertEquals("pilot log ratios: expected at least 2 finite numbers, got [0.1]",
        assertThrows(IllegalArgumentException.class,
            () -> SequentialOperatingCharacteristics.simulate(GATE, new double[] {0.1}, 1.1, 10, 1)).getMessage());
    assertEquals("ratio: expected a slowdown above 0, got 0.0", assertThrows(IllegalArgumentException.class,
        () -> SequentialOperatingCharacteristics.simulate(GATE, pilot(5, 1), 0, 10, 1)).getMessage());
  }
}
