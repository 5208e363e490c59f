package faultbed.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.stats.SequentialDesign.Boundary;
import faultbed.results.stats.SequentialDesign.Spending;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spending functions, the levels they give each look, which looks can reject, and what a design refuses. */
class SequentialDesignTest {

  @Test
  void obrienFlemingSpendsAlmostNothingByHalfTimeAndAlphaAtTheEnd() {
    // 2 - 2 Phi(1.959964 / sqrt(0.5)) = 2 - 2 Phi(2.771808) = 0.0055746
    assertEquals(0.0055746, Spending.OBRIEN_FLEMING.cumulativeAlpha(0.05, 0.5), 1e-7);
    assertEquals(0.05, Spending.OBRIEN_FLEMING.cumulativeAlpha(0.05, 1), 1e-12);
    // 2 - 2 Phi(1.959964 / sqrt(0.2)) = 2 - 2 Phi(4.382613)
    assertEquals(1.17264e-5, Spending.OBRIEN_FLEMING.cumulativeAlpha(0.05, 0.2), 1e-9);
  }

  @Test
  void pocockSpendsAboutEvenly() {
    // 0.05 ln(1 + (e - 1) / 2) = 0.05 ln 1.859141 = 0.031006
    assertEquals(0.031006, Spending.POCOCK.cumulativeAlpha(0.05, 0.5), 1e-6);
    assertEquals(0.05, Spending.POCOCK.cumulativeAlpha(0.05, 1), 1e-15);
  }

  @Test
  void spendingRisesWithTheInformationFraction() {
    for (Spending spending : Spending.values()) {
      double previous = 0;
      for (int k = 1; k <= 100; k++) {
        double spent = spending.cumulativeAlpha(0.05, k / 100.0);
        assertTrue(spent > previous && spent <= 0.05 + 1e-15, spending + " at " + k / 100.0 + ": " + spent);
        previous = spent;
      }
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Spending.POCOCK.cumulativeAlpha(0.05, 0));
    assertEquals("information fraction: expected in (0, 1], got 0.0", e.getMessage());
  }

  @Test
  void theLevelsAddUpToAlphaAndAnEarlyLookTooStrictToReachIsReported() {
    SequentialDesign design = SequentialDesign.lookingEvery(8, 40, 0.05, Spending.OBRIEN_FLEMING);
    assertEquals(List.of(8, 16, 24, 32, 40), design.looks());
    List<Boundary> boundaries = design.boundaries();
    assertEquals(0.05, boundaries.stream().mapToDouble(Boundary::nominalLevel).sum(), 1e-15);
    Boundary first = design.boundaryAt(8);
    // 1.2e-5 against the smallest exact p of 8 blocks, 2/256
    assertEquals(1.17264e-5, first.nominalLevel(), 1e-9);
    assertEquals(2.0 / 256, first.smallestPossibleP(), 0);
    assertFalse(first.reachable());
    assertTrue(boundaries.subList(1, 5).stream().allMatch(Boundary::reachable), boundaries.toString());
    assertEquals(first.nominalLevel(), design.unreachableAlpha(), 0);
    assertEquals(0.05, design.boundaryAt(40).cumulativeAlpha(), 0);
    assertTrue(design.describe().contains("look 1 at 8 blocks: level 1.17e-05, unreachable"), design.describe());
    System.out.println(design.describe());

    SequentialDesign pocock = SequentialDesign.lookingEvery(8, 40, 0.05, Spending.POCOCK);
    assertTrue(pocock.boundaries().stream().allMatch(Boundary::reachable), pocock.describe());
    assertEquals(0, pocock.unreachableAlpha());
    System.out.println(pocock.describe());
  }

  @Test
  void aMaximumThatIsNoMultipleOfTheIntervalGetsItsOwnLook() {
    assertEquals(List.of(10, 20, 25), SequentialDesign.lookingEvery(10, 25, 0.05, Spending.POCOCK).looks());
  }

  @Test
  void lookingAtBlocksThatAreNoLookIsRefused() {
    SequentialDesign design = SequentialDesign.lookingEvery(8, 40, 0.05, Spending.OBRIEN_FLEMING);
    assertEquals("blocks: expected one of the looks [8, 16, 24, 32, 40], got 10",
        assertThrows(IllegalArgumentException.class, () -> design.boundaryAt(10)).getMessage());
  }

  @Test
  void eachInvalidFieldIsNamedWithItsValueAndWhatWasExpected() {
    assertEquals("alpha: expected between 0 and 1, got 1.5", message(40, List.of(8, 40), 1.5, Spending.POCOCK));
    assertEquals("alpha: expected between 0 and 1, got 0.0", message(40, List.of(8, 40), 0, Spending.POCOCK));
    assertEquals("spending: expected O'Brien-Fleming or Pocock, got none", message(40, List.of(8, 40), 0.05, null));
    assertEquals("looks: expected at least one block count, got none",
        message(40, List.of(), 0.05, Spending.POCOCK));
    assertEquals("looks: expected strictly increasing block counts, got [8, 16, 16, 40]",
        message(40, List.of(8, 16, 16, 40), 0.05, Spending.POCOCK));
    assertEquals("looks: expected strictly increasing block counts, got [16, 8, 40]",
        message(40, List.of(16, 8, 40), 0.05, Spending.POCOCK));
    assertEquals("looks: expected the last at the maximum of 40 blocks, got [8, 16, 32]",
        message(40, List.of(8, 16, 32), 0.05, Spending.POCOCK));
    assertEquals("looks: expected the first at 6 blocks or more (with n blocks the exact two-sided signed-rank p"
        + " is at least 2/2^n), got 5", message(40, List.of(5, 40), 0.05, Spending.POCOCK));
    assertEquals("look interval: expected at least 1 block, got 0", assertThrows(IllegalArgumentException.class,
        () -> SequentialDesign.lookingEvery(0, 40, 0.05, Spending.POCOCK)).getMessage());
  }

  private static String message(int maxBlocks, List<Integer> looks, double alpha, Spending spending) {
    return assertThrows(IllegalArgumentException.class,
        () -> new SequentialDesign(maxBlocks, looks, alpha, spending)).getMessage();
  }
}
