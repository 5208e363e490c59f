package faultbed.schedulers.policies;

import java.util.Collection;
import java.util.Locale;

/** The few statistics and number formats the policies share (JDK only: they run inside the AM). */
final class Stats {
  private Stats() {}

  /**
   * The {@code pct}-th percentile (0..100) by linear interpolation between order statistics
   * (Hyndman-Fan type 7, the spreadsheet/NumPy default); NaN when there are no values.
   */
  static double percentile(Collection<Double> values, double pct) {
    double[] x = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    if (x.length == 0) {
      return Double.NaN;
    }
    double h = (x.length - 1) * Math.min(100, Math.max(0, pct)) / 100.0;
    int lo = (int) Math.floor(h);
    int hi = Math.min(lo + 1, x.length - 1);
    return x[lo] + (h - lo) * (x[hi] - x[lo]);
  }

  static double mean(Collection<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  /** Population standard deviation, as Hadoop's own DataStatistics computes it. */
  static double std(Collection<Double> values) {
    double m = mean(values);
    double sq = values.stream().mapToDouble(v -> (v - m) * (v - m)).average().orElse(Double.NaN);
    return Math.sqrt(sq);
  }

  /** n / sum(1/x): the mean that averages rates rather than times (seed 002 §III.C). */
  static double harmonicMean(Collection<Double> values) {
    double inv = values.stream().mapToDouble(v -> 1.0 / v).sum();
    return values.isEmpty() ? Double.NaN : values.size() / inv;
  }

  static double clamp01(double v) {
    return Math.max(0.0, Math.min(1.0, v));
  }

  static String secs(double s) {
    return Double.isFinite(s) ? String.format(Locale.ROOT, "%.1f s", s) : "unbounded (no progress yet)";
  }

  static String rate(double r) {
    return String.format(Locale.ROOT, "%.4f/s", r);
  }

  static String num(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }
}
