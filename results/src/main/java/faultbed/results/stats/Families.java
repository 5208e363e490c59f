package faultbed.results.stats;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Several families of comparisons in one document: Holm within each family, and across families
 * the selective procedure of Benjamini and Bogomolov (2014, "Selective inference on multiple
 * families of hypotheses", JRSS B 76(1)): each family's p-value is its smallest Holm-adjusted
 * p-value; Benjamini-Hochberg over those selects R of the m families at alpha; within a selected
 * family a comparison holds when its Holm p-value times m / R is below alpha. The false-discovery
 * rate over families is then at most alpha, and so is the average family-wise error over the
 * families selected. Holm over a whole document would erase every finding of small suites (with 8
 * blocks the smallest exact p is 0.0078); one family alone is exactly Holm.
 */
public final class Families {
  private Families() {}

  /**
   * The adjusted p-values, family by family, for judging against {@code alpha}: in a selected
   * family, Holm's times m / R (at most 1); in a family not selected, the larger of its Holm p and
   * its family's Benjamini-Hochberg p, which is at least alpha. NaN (no test) stays NaN.
   */
  public static double[][] adjust(double alpha, double[]... families) {
    int m = families.length;
    double[][] holm = Arrays.stream(families).map(Holm::adjust).toArray(double[][]::new);
    double[] bh = benjaminiHochberg(smallestHolm(families));
    int selected = (int) Arrays.stream(bh).filter(p -> p < alpha).count();
    double[][] adjusted = new double[m][];
    for (int f = 0; f < m; f++) {
      boolean chosen = bh[f] < alpha;
      double familyBh = bh[f];
      adjusted[f] = Arrays.stream(holm[f])
          .map(p -> Double.isNaN(p) ? p : chosen ? Math.min(1, p * m / selected) : Math.max(p, familyBh)).toArray();
    }
    return adjusted;
  }

  /** Each family's p-value: its smallest Holm-adjusted p (NaN for a family with no test). */
  public static double[] smallestHolm(double[]... families) {
    return Arrays.stream(families).map(Holm::adjust)
        .mapToDouble(h -> Arrays.stream(h).filter(p -> !Double.isNaN(p)).min().orElse(Double.NaN)).toArray();
  }

  /** Each family's Benjamini-Hochberg p across the families: below alpha, the family is selected. */
  public static double[] acrossFamilies(double[]... families) {
    return benjaminiHochberg(smallestHolm(families));
  }

  /**
   * Benjamini-Hochberg (1995; R's {@code p.adjust(p, "BH")}): the i-th smallest of k p-values is
   * multiplied by k / i, and adjusted values never increase from the largest down. NaN stays NaN
   * and is not counted.
   */
  public static double[] benjaminiHochberg(double... p) {
    Integer[] order = IntStream.range(0, p.length).filter(i -> !Double.isNaN(p[i])).boxed()
        .sorted(Comparator.comparingDouble(i -> p[i])).toArray(Integer[]::new);
    double[] adjusted = new double[p.length];
    Arrays.fill(adjusted, Double.NaN);
    double running = 1;
    for (int rank = order.length - 1; rank >= 0; rank--) {
      running = Math.min(running, p[order[rank]] * order.length / (rank + 1));
      adjusted[order[rank]] = running;
    }
    return adjusted;
  }
}
