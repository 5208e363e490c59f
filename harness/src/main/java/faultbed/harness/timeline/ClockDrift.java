package faultbed.harness.timeline;

import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The node's wall clock running {@code speed} times as fast as true time (2: a minute gained every
 * minute; 0.5: half a minute lost) for the fault's duration, then stepped back to the true time, as
 * a machine whose clock drifts until NTP steps it. Its daemons see the drift from the moment it
 * starts; a container started during it starts at the true time and drifts from there (each
 * process keeps its own reckoning). Whatever Hadoop times by the time of day on the node runs fast
 * or slow with it: an ApplicationMaster's task timeouts and speculation estimates, a NodeManager's
 * view of token lives.
 */
public record ClockDrift(Target target, double speed, Duration duration) implements ClockFault {
  public static final FaultKind KIND = FaultKind.kind("clock-drift", FaultEffect.NONE)
      .does("the node's clock running fast or slow", "the node's wall clock of its own (`cluster.clocks`) running"
          + " `speed` times as fast as true time (2: a minute gained each minute; 0.5: half lost) from the start,"
          + " stepped back to the true time when healed; a container started meanwhile drifts from its own start."
          + " namespace and containers backends")
      .param(FaultKind.Param.required("speed", FaultKind.Form.FACTOR, "`speed` (`2`, `0.5`)")
          .noted("how many times as fast as true time the clock runs (not 1)"))
      .made((target, lasts, p) -> new ClockDrift(target, p.factor("speed")
              .orElseThrow(() -> p.invalid("speed", "how fast the clock runs, e.g. 2 or 0.5")), lasts),
          FaultKind.example("clock-drift", t -> new ClockDrift(t, 2, null)));

  public ClockDrift {
    if (!(speed > 0) || speed == 1 || Double.isInfinite(speed)) {
      throw new IllegalArgumentException("speed: expected a number above 0 other than 1, got " + speed);
    }
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    return new Injection(Map.of("clockSpeed", String.format(Locale.ROOT, "%s", speed)), clockOf(node).drift(speed));
  }
}
