package faultbed.harness.timeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The schedule of faults for one run: an ordered list of (trigger, fault) steps. Immutable; build
 * it with {@code Timeline.when(trigger).inject(fault).then(trigger2).inject(fault2)}.
 */
public record Timeline(List<Step> steps) {
  public Timeline {
    steps = List.copyOf(steps);
  }

  public record Step(Trigger trigger, Fault fault) {}

  public static Timeline none() {
    return new Timeline(List.of());
  }

  public static Pending when(Trigger trigger) {
    return new Pending(none(), trigger);
  }

  public static Pending at(Duration offset) {
    return when(Trigger.at(offset));
  }

  public static Pending when(JobEvent event) {
    return when(Trigger.on(event));
  }

  public Pending then(Trigger trigger) {
    return new Pending(this, trigger);
  }

  public Timeline plus(Timeline more) {
    List<Step> all = new ArrayList<>(steps);
    all.addAll(more.steps);
    return new Timeline(all);
  }

  /** A trigger waiting for its fault. */
  public record Pending(Timeline before, Trigger trigger) {
    public Timeline inject(Fault fault) {
      List<Step> all = new ArrayList<>(before.steps());
      all.add(new Step(trigger, fault));
      return new Timeline(all);
    }
  }
}
