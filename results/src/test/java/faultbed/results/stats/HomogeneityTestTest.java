package faultbed.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.statistics.inference.FisherExactTest;
import org.apache.commons.statistics.inference.GTest;
import org.junit.jupiter.api.Test;

class HomogeneityTestTest {
  @Test
  void theSameSharesAreNotTold() {
    HomogeneityTest t = HomogeneityTest.of(new long[] {4, 2, 2}, new long[] {8, 4, 4}, 1);
    assertEquals(0, t.totalVariation(), 1e-12);
    assertEquals(1, t.pValue(), 1e-12, "every deal's G is at least 0");
  }

  @Test
  void disjointSamplesAreTold() {
    HomogeneityTest t = HomogeneityTest.of(new long[] {10, 0}, new long[] {0, 10}, 1);
    assertEquals(1, t.totalVariation(), 1e-12);
    // two of the C(20,10) = 184756 deals are as extreme: only the observed one is likely to be drawn
    assertTrue(t.pValue() < 0.001, "p " + t.pValue());
  }

  @Test
  void agreesWithFishersExactTestOnATwoByTwoTable() {
    // for 2 x 2 tables with equal row sums G orders tables as their probability does
    long[] first = {3, 7};
    long[] second = {8, 2};
    double fisher = FisherExactTest.withDefaults().test(new int[][] {{3, 7}, {8, 2}}).getPValue();
    HomogeneityTest t = HomogeneityTest.of(first, second, 7);
    assertEquals(fisher, t.pValue(), 0.01, "Fisher " + fisher + ", permutation " + t.pValue());
    assertEquals(0.5, t.totalVariation(), 1e-12);
  }

  @Test
  void agreesWithTheChiSquareApproximationOnLargeCounts() {
    long[] first = {300, 200, 100};
    long[] second = {270, 230, 100};
    double asymptotic = GTest.withDefaults().test(new long[][] {first, second}).getPValue();
    HomogeneityTest t = HomogeneityTest.of(first, second, 7);
    assertEquals(asymptotic, t.pValue(), 0.015, "asymptotic " + asymptotic + ", permutation " + t.pValue());
  }

  @Test
  void reproducibleFromItsSeed() {
    long[] first = {2, 1, 2};
    long[] second = {0, 4, 1};
    assertEquals(HomogeneityTest.of(first, second, 3), HomogeneityTest.of(first, second, 3));
  }

  @Test
  void oneCategoryBetweenThemOrAnEmptySample() {
    assertEquals(1, HomogeneityTest.of(new long[] {5, 0}, new long[] {3, 0}, 1).pValue());
    assertTrue(Double.isNaN(HomogeneityTest.of(new long[] {0, 0}, new long[] {3, 1}, 1).pValue()));
  }
}
