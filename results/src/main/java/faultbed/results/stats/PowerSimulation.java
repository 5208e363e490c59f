package faultbed.results.stats;

import java.util.SplittableRandom;

/**
 * Power of a comparison's exact rank test by Monte Carlo from a sample's own dispersion: draw
 * samples of the size in question from the {@link Spread}, make the candidate slower by the effect,
 * run the same test, count p-values below alpha. Seeded, and every effect and size starts from the
 * same seed, so the same sample always gives the same figures and power rises with the effect
 * smoothly enough to bisect.
 */
public record PowerSimulation(int repetitions, long seed) {
  public static final PowerSimulation DEFAULT = new PowerSimulation(1000, 20_110_601L);
  // effects are found to within 0.05%; beyond x100 a number says nothing more
  private static final double LOG_PRECISION = 0.0005;
  private static final double LARGEST_LOG_EFFECT = Math.log(100);

  public PowerSimulation {
    if (repetitions < 1) {
      throw new IllegalArgumentException("repetitions: expected at least 1, got " + repetitions);
    }
  }

  /** Share of simulated comparisons of n (blocks, or baseline runs) and m runs that reach alpha. */
  public double power(Spread spread, double logEffect, int n, int m, double alpha) {
    SplittableRandom random = new SplittableRandom(seed);
    int rejected = 0;
    for (int i = 0; i < repetitions; i++) {
      if (spread.simulatedP(random, logEffect, n, m) < alpha) {
        rejected++;
      }
    }
    return rejected / (double) repetitions;
  }

  /**
   * The smallest slowdown, as a ratio of times, that n and m runs detect with at least the given
   * power at alpha; infinite when the exact test cannot reach alpha with so few, or not below x100.
   */
  public double minimumDetectableRatio(Spread spread, int n, int m, double alpha, double power) {
    if (spread.smallestPossibleP(n, m) >= alpha) {
      return Double.POSITIVE_INFINITY;
    }
    double high = Math.max(spread.standardDeviation(), 0.01);
    double low = 0;
    while (power(spread, high, n, m, alpha) < power) {
      low = high;
      high *= 2;
      if (low > LARGEST_LOG_EFFECT) {
        return Double.POSITIVE_INFINITY;
      }
    }
    while (high - low > LOG_PRECISION) {
      double middle = (low + high) / 2;
      if (power(spread, middle, n, m, alpha) >= power) {
        high = middle;
      } else {
        low = middle;
      }
    }
    return Math.exp(high);
  }
}
