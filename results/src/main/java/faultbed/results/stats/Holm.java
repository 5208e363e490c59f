package faultbed.results.stats;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Holm's step-down adjustment (Holm 1979; R's {@code p.adjust(p, "holm")}): the i-th smallest of k
 * p-values is multiplied by k - i + 1, and adjusted values never decrease in that order. Comparing
 * the adjusted values with alpha keeps the chance of any false finding in the family at most alpha,
 * whatever the dependence between the tests. NaN (no test) stays NaN and is not counted.
 */
public final class Holm {
  private Holm() {}

  public static double[] adjust(double... p) {
    Integer[] order = IntStream.range(0, p.length).filter(i -> !Double.isNaN(p[i])).boxed()
        .sorted(Comparator.comparingDouble(i -> p[i])).toArray(Integer[]::new);
    double[] adjusted = new double[p.length];
    Arrays.fill(adjusted, Double.NaN);
    double running = 0;
    for (int rank = 0; rank < order.length; rank++) {
      running = Math.max(running, Math.min(1, (order.length - rank) * p[order[rank]]));
      adjusted[order[rank]] = running;
    }
    return adjusted;
  }
}
