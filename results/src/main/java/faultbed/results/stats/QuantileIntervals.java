package faultbed.results.stats;

/** Bootstrap confidence intervals for the median and p90 of one sample, with the bootstrap that made them. */
public record QuantileIntervals(Bootstrap bootstrap, Interval median, Interval p90) {
  public static QuantileIntervals of(double[] sample, Bootstrap bootstrap) {
    return new QuantileIntervals(bootstrap, bootstrap.interval(sample, Bootstrap::median),
        bootstrap.interval(sample, Bootstrap::p90));
  }
}
