package faultbed.results;

import faultbed.results.stats.Bootstrap;
import faultbed.results.stats.Interval;

/** A median over a variant's runs (or tasks) and its bootstrap interval, as the report's tables give them. */
public interface RunMedians {
  default double median(double[] values) {
    return values.length == 0 ? Double.NaN : Bootstrap.median(values);
  }

  default Interval interval(double[] values) {
    return values.length < 2 ? Interval.UNKNOWN : Bootstrap.DEFAULT.interval(values, Bootstrap::median);
  }
}
