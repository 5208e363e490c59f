package faultbed.results;

import java.util.Arrays;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.apache.commons.math3.stat.descriptive.rank.Percentile.EstimationType;

/**
 * Order statistics of one sample. Quantiles use the R-7 definition (linear interpolation between
 * order statistics, the default of R and NumPy) so figures match what users compute elsewhere.
 */
public record Distribution(int n, double min, double median, double mean, double p90, double p99,
    double max) {

  public static Distribution of(double... values) {
    if (values.length == 0) {
      return new Distribution(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
    double[] v = values.clone();
    Arrays.sort(v);
    Percentile p = r7();
    p.setData(v);
    return new Distribution(v.length, v[0], p.evaluate(50), Arrays.stream(v).average().orElseThrow(),
        p.evaluate(90), p.evaluate(99), v[v.length - 1]);
  }

  /** The {@code percent} (0 < percent <= 100) quantile of {@code values} by the same R-7 rule; NaN if empty. */
  public static double quantile(double[] values, double percent) {
    return values.length == 0 ? Double.NaN : r7().evaluate(values, percent);
  }

  private static Percentile r7() {
    return new Percentile().withEstimationType(EstimationType.R_7);
  }
}
