package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.List;

/** Every packet from and to the node's ports delayed by {@code delay} +- {@code jitter} (tc netem). */
public record Latency(Target target, Duration delay, Duration jitter, Duration duration) implements PortFault {
  public static final FaultKind KIND = FaultKind.kind("latency", FaultEffect.SLOWS)
      .does("delay added to the node's packets", "packets from and to its ports delayed (tc netem; needs a kernel with"
          + " netem, else use the Toxiproxy backend)")
      .param(FaultKind.Param.required("delay", FaultKind.Form.DURATION, "`delay`"))
      .param(FaultKind.Param.optional("jitter", FaultKind.Form.DURATION, "`jitter`"))
      .made((target, lasts, p) -> new Latency(target,
          p.duration("delay").orElseThrow(() -> p.invalid("delay", "a delay such as \"50ms\"")),
          p.duration("jitter").orElse(Duration.ZERO), lasts),
          FaultKind.example("latency", t -> new Latency(t, Duration.ofMillis(1), Duration.ZERO, null)));

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public java.util.Map<String, String> parameters() {
    return java.util.Map.of("delayMs", Long.toString(delay.toMillis()), "jitterMs", Long.toString(jitter.toMillis()));
  }

  @Override
  public faultbed.harness.Backend.Mechanism mechanism() {
    return faultbed.harness.Backend.Mechanism.DELAY;
  }

  @Override
  public Installed apply(Node node, List<Integer> ports, FaultContext context) {
    return context.network(node).delay(context.runId(), ports, delay, jitter);
  }
}
