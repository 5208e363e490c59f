package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.List;

/**
 * Each TCP packet from and to the node's ports dropped with a probability (iptables' statistic
 * match), as a lossy link drops them: TCP sends each again after its retransmission timeout (at
 * least 200 ms on Linux), a connection's first SYN after a second, so transfers slow and a request
 * may wait past a timeout. On the namespace and containers backends the node's whole link is lossy,
 * as a blackhole takes its whole link.
 */
public record PacketLoss(Target target, double probability, Duration duration) implements PortFault {
  /** What a scenario's probability may be, as its error says. */
  public static final String PROBABILITY = "a probability above 0 and below 1, such as 0.05 or \"5%\"";

  public static final FaultKind KIND = FaultKind.kind("packet-loss", FaultEffect.SLOWS)
      .does("a share of the node's packets dropped, TCP sending each again", "each TCP packet from and to its ports"
          + " dropped with a probability (iptables' statistic match); TCP sends it again after its retransmission timeout"
          + " (200 ms or more; a lost SYN a second), so transfers slow and a request may outwait a timeout. Not on the"
          + " Toxiproxy backend: a proxy relays a stream, and what a toxic drops is never sent again")
      .param(FaultKind.Param.required("probability", FaultKind.Form.PROBABILITY, "`probability` (`0.05` or `\"5%\"`)"))
      .made((target, lasts, p) -> new PacketLoss(target,
          p.probability("probability").orElseThrow(() -> p.invalid("probability", PROBABILITY)), lasts),
          FaultKind.example("packet-loss", t -> new PacketLoss(t, 0.01, null)));

  public PacketLoss {
    if (!(probability > 0 && probability < 1)) {
      throw new IllegalArgumentException("probability: expected " + PROBABILITY + ", got " + probability);
    }
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public java.util.Map<String, String> parameters() {
    return java.util.Map.of("probability", Double.toString(probability));
  }

  /** A proxy relays a stream: it cannot lose a packet for TCP to send again. */
  @Override
  public java.util.Optional<String> notByProxy() {
    return java.util.Optional.of("the toxiproxy backend sees a stream, not packets (what its toxics drop, TCP never sends again)");
  }

  @Override
  public faultbed.harness.Backend.Mechanism mechanism() {
    return faultbed.harness.Backend.Mechanism.LOSE;
  }

  @Override
  public Installed apply(Node node, List<Integer> ports, FaultContext context) {
    return context.network(node).dropRandomly(context.runId(), ports, probability);
  }
}
