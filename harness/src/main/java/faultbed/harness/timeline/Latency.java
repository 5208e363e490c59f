package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.List;

/**
 * Every packet from and to the node's ports delayed by {@code delay} +- {@code jitter} (tc netem),
 * but a share {@code reorder} sent at once, so it overtakes delayed packets sent before it: TCP
 * holds what arrives out of order until the gap fills, and three duplicate ACKs in a row make the
 * sender retransmit as for a loss.
 */
public record Latency(Target target, Duration delay, Duration jitter, double reorder, Duration duration)
    implements PortFault {
  public static final FaultKind KIND = FaultKind.kind("latency", FaultEffect.SLOWS)
      .does("delay added to the node's packets", "packets from and to its ports delayed (tc netem; needs a kernel with"
          + " netem, else use the Toxiproxy backend); with `reorder`, that share of them sent at once instead, ahead of"
          + " delayed ones sent before them (netem's reorder; not on the Toxiproxy backend)")
      .param(FaultKind.Param.required("delay", FaultKind.Form.DURATION, "`delay`"))
      .param(FaultKind.Param.optional("jitter", FaultKind.Form.DURATION, "`jitter`"))
      .param(FaultKind.Param.optional("reorder", FaultKind.Form.PROBABILITY, "`reorder` (none)")
          .noted("the share of packets sent at once, overtaking delayed ones (netem's reorder)"))
      .made((target, lasts, p) -> new Latency(target,
          p.duration("delay").orElseThrow(() -> p.invalid("delay", "a delay such as \"50ms\"")),
          p.duration("jitter").orElse(Duration.ZERO), p.probability("reorder").orElse(0.0), lasts),
          FaultKind.example("latency", t -> new Latency(t, Duration.ofMillis(1), Duration.ZERO, 0, null)));

  public Latency {
    if (reorder < 0 || reorder >= 1) {
      throw new IllegalArgumentException("reorder: expected " + PacketLoss.PROBABILITY + ", got " + reorder);
    }
  }

  public Latency(Target target, Duration delay, Duration jitter, Duration duration) {
    this(target, delay, jitter, 0, duration);
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public java.util.Map<String, String> parameters() {
    java.util.Map<String, String> p = new java.util.LinkedHashMap<>();
    p.put("delayMs", Long.toString(delay.toMillis()));
    p.put("jitterMs", Long.toString(jitter.toMillis()));
    if (reorder > 0) {
      p.put("reorder", Double.toString(reorder));
    }
    return p;
  }

  /** A proxy delays a stream in order: it cannot let a packet overtake another. */
  @Override
  public java.util.Optional<String> notByProxy() {
    return reorder == 0 ? java.util.Optional.empty()
        : java.util.Optional.of("reorder: the toxiproxy backend delays a stream in order, with no packet to overtake another");
  }

  @Override
  public faultbed.harness.Backend.Mechanism mechanism() {
    return reorder > 0 ? faultbed.harness.Backend.Mechanism.REORDER : faultbed.harness.Backend.Mechanism.DELAY;
  }

  /** As every port fault's, the backend's refusal to reorder blamed on the field that asks for it. */
  @Override
  public java.util.Optional<Unsupported> unsupported(faultbed.harness.ClusterSpec cluster) {
    return PortFault.super.unsupported(cluster).map(u -> reorder > 0
        && cluster.backend().refuses(mechanism()).filter(u.why()::equals).isPresent() ? new Unsupported("reorder", u.why()) : u);
  }

  @Override
  public Installed apply(Node node, List<Integer> ports, FaultContext context) {
    return context.network(node).delay(context.runId(), ports, delay, jitter, reorder);
  }
}
