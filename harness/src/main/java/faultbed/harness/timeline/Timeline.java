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

  /**
   * One step as a run draws it: when it falls due (null for a job-event trigger) and its order of
   * preference among the nodes for a choice among several.
   */
  public record Drawn(Step step, Long scheduledMs, List<Integer> preference) {
    public Drawn {
      preference = List.copyOf(preference);
    }
  }

  /**
   * Every step's draws for run {@code runIndex} with {@code seed}, among nodes {@code nodes}: a
   * uniform trigger's time and each step's preference, each from its own stream, so a real cluster
   * and a simulated one make the same choices for the same seed.
   */
  public List<Drawn> draws(long seed, int runIndex, List<Integer> nodes) {
    java.util.Random times = new java.util.Random(seed);
    java.util.SplittableRandom nodeChoices = new java.util.SplittableRandom(seed);
    List<Drawn> out = new ArrayList<>();
    for (Step s : steps) {
      Long scheduled = null;
      if (s.trigger() instanceof Trigger.At at) {
        scheduled = at.offset().toMillis();
      } else if (s.trigger() instanceof Trigger.Uniform u) {
        scheduled = u.pickMs(runIndex, times.nextDouble());
      }
      List<Integer> preference = new ArrayList<>(nodes);
      java.util.Collections.shuffle(preference, new java.util.Random(nodeChoices.split().nextLong()));
      out.add(new Drawn(s, scheduled, preference));
    }
    return out;
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
