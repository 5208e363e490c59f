package faultbed.results;

import java.util.Arrays;
import org.apache.commons.statistics.descriptive.Quantile;

/**
 * Order statistics of one sample. Quantiles use the R-7 definition (linear interpolation between
 * order statistics, the default of R and NumPy) so figures match what users compute elsewhere.
 */
public record Distribution(int n, double min, double median, double mean, double p90, double p99,
    double max) {

  // Hyndman and Fan's definition 7 is R's type 7; on a copy, as callers keep their arrays' order
  private static final Quantile R7 = Quantile.withDefaults().with(Quantile.EstimationMethod.HF7).withCopy(true);

  public static Distribution of(double... values) {
    if (values.length == 0) {
      return new Distribution(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
    double[] v = values.clone();
    Arrays.sort(v);
    double[] q = R7.evaluate(v, 0.5, 0.9, 0.99);
    return new Distribution(v.length, v[0], q[0], Arrays.stream(v).average().orElseThrow(), q[1], q[2],
        v[v.length - 1]);
  }

  /** The {@code percent} (0 <= percent <= 100) quantile of {@code values} by the same R-7 rule; NaN if empty. */
  public static double quantile(double[] values, double percent) {
    return values.length == 0 ? Double.NaN : R7.evaluate(values, percent / 100);
  }
}
