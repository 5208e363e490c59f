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
    return new Uniform(from, to);
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

  record Uniform(Duration from, Duration to) implements Trigger {
    public Uniform {
      if (from.isNegative() || to.isNegative()) {
        throw new IllegalArgumentException("at.uniform: expected non-negative times, got [" + from + ", " + to + "]");
      }
      if (to.compareTo(from) < 0) {
        throw new IllegalArgumentException("at.uniform: expected [from, to] with from <= to, got ["
            + from.toMillis() + " ms, " + to.toMillis() + " ms]");
      }
    }

    @Override
    public String describe() {
      return "uniform in [" + from.toMillis() + " ms, " + to.toMillis() + " ms]";
    }
  }

  record On(JobEvent event) implements Trigger {
    @Override
    public String describe() {
      return "on " + event.describe();
    }
  }
}
