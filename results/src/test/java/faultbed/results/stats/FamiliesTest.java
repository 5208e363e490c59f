package faultbed.results.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FamiliesTest {
  @Test
  void benjaminiHochbergAsRsPAdjust() {
    // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") = 0.02 0.04 0.04 0.02
    assertArrayEquals(new double[] {0.02, 0.04, 0.04, 0.02},
        Families.benjaminiHochberg(0.01, 0.04, 0.03, 0.005), 1e-15);
    // R: p.adjust(c(0.2, 0.5, NA), "BH") = 0.4 0.5 NA
    assertArrayEquals(new double[] {0.4, 0.5, Double.NaN}, Families.benjaminiHochberg(0.2, 0.5, Double.NaN), 1e-15);
  }

  @Test
  void oneFamilyIsHolm() {
    assertArrayEquals(Holm.adjust(0.01, 0.04, 0.03, 0.005), Families.adjust(0.05, new double[] {0.01, 0.04, 0.03, 0.005})[0],
        1e-15);
  }

  @Test
  void familiesAreSelectedByBenjaminiHochbergAndHolmIsScaledByMOverR() {
    // three families of two, as a document comparing against three references: Holm within each
    // gives {0.0156, 0.0156}, {0.0312, 0.5}, {0.6, 0.9}; smallest 0.0156, 0.0312, 0.6; BH over them
    // 0.0469, 0.0469, 0.6: two of three families selected, their Holm p-values times 3/2
    double[][] adjusted = Families.adjust(0.05, new double[] {0.0078, 0.0078}, new double[] {0.0156, 0.5},
        new double[] {0.3, 0.9});
    assertArrayEquals(new double[] {0.0234, 0.0234}, adjusted[0], 1e-4);
    assertArrayEquals(new double[] {0.0468, 0.75}, adjusted[1], 1e-4);
    assertTrue(adjusted[2][0] >= 0.05 && adjusted[2][1] >= 0.05);
    // Holm over all six would lose the third: 0.0156 x 4 = 0.0624
    assertTrue(Holm.adjust(0.0078, 0.0078, 0.0156, 0.5, 0.3, 0.9)[2] > 0.05);
  }
}
