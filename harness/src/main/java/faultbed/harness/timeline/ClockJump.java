package faultbed.harness.timeline;

import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.Map;

/**
 * The node's wall clock stepped by {@code by} (ahead or back) for the fault's duration, then stepped
 * back, as when a machine's clock is set wrong and NTP later corrects it. Every process of the node
 * sees it: its NodeManager and DataNode, its containers (an ApplicationMaster, tasks). Hadoop times
 * some things by the time of day and some by the monotonic clock, which does not move; which is
 * which decides what a jump does (docs/faults.md lists them). Two known consequences: an
 * ApplicationMaster whose clock jumps ahead by at least {@code mapreduce.task.timeout} finds every
 * running attempt silent for that long and fails it (its TaskHeartbeatHandler reads the time of
 * day); a NodeManager whose clock is ahead of the ResourceManager's by more than a container
 * token's life ({@code yarn.resourcemanager.rm.container-allocation.expiry-interval-ms}, 10 min)
 * refuses every container start ("This token is expired").
 */
public record ClockJump(Target target, Duration by, Duration duration) implements ClockFault {
  public static final FaultKind KIND = FaultKind.kind("clock-jump", FaultEffect.NONE)
      .does("the node's clock stepped ahead or back, every process of the node reading it", "the node's wall clock"
          + " of its own (`cluster.clocks`) stepped by `by` (`\"+15m\"` ahead, `\"-15m\"` back) in its daemons and"
          + " containers alike (faultbed's clock agent), stepped back when healed; the monotonic clock runs on. An AM whose"
          + " clock jumps past `mapreduce.task.timeout` fails its running attempts; a NodeManager ahead by a"
          + " container token's life (10 min) refuses containers. namespace and containers backends")
      .param(FaultKind.Param.required("by", FaultKind.Form.OFFSET, "`by` (`\"+15m\"`, `\"-90s\"`)")
          .noted("how far the clock is stepped: a sign, a number and a unit"))
      .made((target, lasts, p) -> new ClockJump(target, p.offset("by")
              .orElseThrow(() -> p.invalid("by", "how far the clock is stepped, e.g. \"+15m\" or \"-90s\"")), lasts),
          FaultKind.example("clock-jump", t -> new ClockJump(t, Duration.ofMinutes(15), null)));

  public ClockJump {
    if (by == null || by.isZero()) {
      throw new IllegalArgumentException("by: expected how far the clock is stepped, e.g. \"+15m\" or \"-90s\"");
    }
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    return new Injection(Map.of("clockOffsetMs", Long.toString(by.toMillis())), clockOf(node).jump(by));
  }
}
