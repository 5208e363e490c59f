package faultbed.results.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

class HolmTest {
  @Test
  void adjustsStepDownAsRsPAdjust() {
    // sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> kept at 0.06;
    // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02
    assertArrayEquals(new double[] {0.03, 0.06, 0.06, 0.02}, Holm.adjust(0.01, 0.04, 0.03, 0.005), 1e-15);
    // Holm (1979)'s point: Bonferroni would reject only the first at 0.05, Holm all three
    assertArrayEquals(new double[] {0.03, 0.04, 0.04}, Holm.adjust(0.01, 0.02, 0.04), 1e-15);
    assertArrayEquals(new double[] {1, 1}, Holm.adjust(0.6, 0.9), 1e-15);
  }

  @Test
  void aMissingTestIsNotCounted() {
    assertArrayEquals(new double[] {0.02, Double.NaN, 0.03}, Holm.adjust(0.01, Double.NaN, 0.03), 1e-15);
  }
}
