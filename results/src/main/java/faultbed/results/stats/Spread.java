package faultbed.results.stats;

import faultbed.results.Distribution;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A sample's dispersion in log time, with the exact rank test that goes with it: what the power
 * simulation draws from. Draws are a smoothed bootstrap: resampling with replacement repeats values
 * and the exact tests need untied data, so each draw gets Gaussian kernel noise (Silverman's
 * bandwidth), shrunk so the draws keep the residuals' variance.
 */
public sealed interface Spread {

  /**
   * Per-block log ratios (candidate over baseline), centred at their Hodges-Lehmann estimate and
   * mirrored: the ratios of two exchangeable variants run in the same blocks are symmetric about 1.
   * Tested with the Wilcoxon signed-rank test on n blocks.
   */
  static Spread paired(double[] logRatios) {
    double centre = Math.log(Shift.paired(logRatios, 0.95).ratio());
    double[] mirrored = new double[2 * logRatios.length];
    for (int i = 0; i < logRatios.length; i++) {
      mirrored[2 * i] = logRatios[i] - centre;
      mirrored[2 * i + 1] = centre - logRatios[i];
    }
    return new Paired(new Residuals(mirrored), logRatios.length);
  }

  /**
   * Log times of each sample centred at its median and pooled: with no change both variants draw
   * from one distribution. Tested with the Mann-Whitney test on n and m runs.
   */
  static Spread unpaired(double[]... logTimes) {
    double[] pooled = Arrays.stream(logTimes).flatMapToDouble(s -> {
      double median = Distribution.quantile(s, 50);
      return Arrays.stream(s).map(v -> v - median);
    }).toArray();
    return new Unpaired(new Residuals(pooled), pooled.length);
  }

  /** How many values (blocks, or runs of both samples) the spread was measured on. */
  int pilotSize();

  /** Standard deviation of what is drawn: per-block log ratios, or log times. */
  default double standardDeviation() {
    return residuals().sd;
  }

  Residuals residuals();

  /** The smallest p-value the exact test allows with n blocks (paired) or n and m runs. */
  double smallestPossibleP(int n, int m);

  /** The p-value of one simulated comparison with the candidate slower by {@code exp(logEffect)}. */
  double simulatedP(SplittableRandom random, double logEffect, int n, int m);

  record Paired(Residuals residuals, int pilotSize) implements Spread {
    @Override
    public double smallestPossibleP(int n, int m) {
      return RankDistribution.smallestSignedRankP(n);
    }

    @Override
    public double simulatedP(SplittableRandom random, double logEffect, int n, int m) {
      double[] ratios = new double[n];
      for (int i = 0; i < n; i++) {
        ratios[i] = residuals.draw(random) + logEffect;
      }
      return RankTest.signedRank(ratios).pValue();
    }
  }

  record Unpaired(Residuals residuals, int pilotSize) implements Spread {
    @Override
    public double smallestPossibleP(int n, int m) {
      return RankDistribution.smallestMannWhitneyP(n, m);
    }

    @Override
    public double simulatedP(SplittableRandom random, double logEffect, int n, int m) {
      double[] baseline = new double[n];
      double[] candidate = new double[m];
      for (int i = 0; i < n; i++) {
        baseline[i] = residuals.draw(random);
      }
      for (int i = 0; i < m; i++) {
        candidate[i] = residuals.draw(random) + logEffect;
      }
      return RankTest.mannWhitney(baseline, candidate).pValue();
    }
  }

  /** Residuals to draw from, with the smoothing's bandwidth and shrink factor. */
  final class Residuals {
    private final double[] values;
    private final double mean;
    private final double sd;
    private final double bandwidth;
    private final double shrink;

    Residuals(double[] values) {
      this.values = values.clone();
      mean = Arrays.stream(values).average().orElse(0);
      double variance = Arrays.stream(values).map(v -> (v - mean) * (v - mean)).sum() / values.length;
      sd = Math.sqrt(variance);
      double iqr = Distribution.quantile(values, 75) - Distribution.quantile(values, 25);
      double scale = iqr > 0 ? Math.min(sd, iqr / 1.34) : sd;
      double h = 0.9 * scale * Math.pow(values.length, -0.2);
      // all values equal: no spread to keep, and any noise at all breaks the ties
      bandwidth = h > 0 ? h : 1e-9;
      shrink = variance > 0 ? 1 / Math.sqrt(1 + bandwidth * bandwidth / variance) : 1;
    }

    double draw(SplittableRandom random) {
      return mean + shrink * (values[random.nextInt(values.length)] - mean + bandwidth * random.nextGaussian());
    }
  }
}
