package faultbed.results.stats;

/** A confidence interval; both ends NaN when the sample was empty. */
public record Interval(double low, double high) {
  public static final Interval UNKNOWN = new Interval(Double.NaN, Double.NaN);

  public boolean contains(double value) {
    return low <= value && value <= high;
  }
}
