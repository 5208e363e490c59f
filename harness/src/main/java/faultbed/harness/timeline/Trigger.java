package faultbed.harness.timeline;

import java.time.Duration;

/** When a fault fires, measured from job submission or tied to a job event. */
public sealed interface Trigger {
  String describe();

  static Trigger at(Duration offset) {
    return new At(offset);
  }

  /** A time drawn uniformly from [from, to] with the run's seed. */
  static Trigger uniform(Duration from, Duration to) {
    return new Uniform(from, to, 1);
  }

  /**
   * Stratified sampling: [from, to] cut into {@code strata} equal slices; run i draws uniformly
   * within slice i mod strata, so a few runs still cover the whole range (early, middle and late
   * failures) instead of clustering by chance.
   */
  static Trigger stratified(Duration from, Duration to, int strata) {
    return new Uniform(from, to, strata);
  }

  static Trigger on(JobEvent event) {
    return new On(event);
  }

  record At(Duration offset) implements Trigger {
    public At {
      if (offset.isNegative()) {
        throw new IllegalArgumentException("at: expected a non-negative offset, got " + offset);
      }
    }

    @Override
    public String describe() {
      return "at " + offset.toMillis() + " ms";
    }
  }

  record Uniform(Duration from, Duration to, int strata) implements Trigger {
    public Uniform {
      if (strata < 1) {
        throw new IllegalArgumentException("at.strata: expected at least 1, got " + strata);
      }
      if (from.isNegative() || to.isNegative()) {
        throw new IllegalArgumentException("at.uniform: expected non-negative times, got [" + from + ", " + to + "]");
      }
      if (to.compareTo(from) < 0) {
        throw new IllegalArgumentException("at.uniform: expected [from, to] with from <= to, got ["
            + from.toMillis() + " ms, " + to.toMillis() + " ms]");
      }
    }

    /** The time for run {@code runIndex}, given a uniform draw {@code u} in [0, 1). */
    public long pickMs(int runIndex, double u) {
      double slice = (to.toMillis() - from.toMillis()) / (double) strata;
      return from.toMillis() + (long) (slice * (Math.floorMod(runIndex, strata) + u));
    }

    @Override
    public String describe() {
      return "uniform in [" + from.toMillis() + " ms, " + to.toMillis() + " ms]"
          + (strata > 1 ? ", stratum " + strata + "ths" : "");
    }
  }

  record On(JobEvent event) implements Trigger {
    @Override
    public String describe() {
      return "on " + event.describe();
    }
  }
}
