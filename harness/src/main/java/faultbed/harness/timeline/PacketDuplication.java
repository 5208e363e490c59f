package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.harness.Backend;
import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Each TCP packet the node sends sent twice with a probability, as from a link or switch that
 * duplicates frames: iptables' TEE target sends a copy of it to its own destination. TCP takes a
 * second copy of a segment as a duplicate (answering with a D-SACK) and of an ACK as a duplicate
 * ACK; three of those in a row read as a loss, and the sender retransmits and halves its window.
 * On the namespace and containers backends, the node's whole link.
 */
public record PacketDuplication(Target target, double probability, Duration duration) implements PortFault {
  public static final FaultKind KIND = FaultKind.kind("packet-duplication", FaultEffect.NONE)
      .does("a share of the node's packets sent twice", "each TCP packet the node sends on its link sent twice with a"
          + " probability (iptables' TEE copies it to its own destination), as a link that duplicates frames; TCP"
          + " drops the copies (D-SACK), and enough duplicate ACKs in a row read as a loss. namespace and containers"
          + " backends; not on the Toxiproxy backend, which relays streams")
      .param(FaultKind.Param.required("probability", FaultKind.Form.PROBABILITY, "`probability` (`0.05` or `\"5%\"`)"))
      .made((target, lasts, p) -> new PacketDuplication(target,
          p.probability("probability").orElseThrow(() -> p.invalid("probability", PacketLoss.PROBABILITY)), lasts),
          FaultKind.example("packet-duplication", t -> new PacketDuplication(t, 0.01, null)));

  public PacketDuplication {
    if (!(probability > 0 && probability < 1)) {
      throw new IllegalArgumentException("probability: expected " + PacketLoss.PROBABILITY + ", got " + probability);
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

  /** A proxy relays a stream: it has no packet to send twice. */
  @Override
  public Optional<String> notByProxy() {
    return Optional.of("the toxiproxy backend sees a stream, not packets (it has none to send twice)");
  }

  @Override
  public Backend.Mechanism mechanism() {
    return Backend.Mechanism.DUPLICATE;
  }

  /** To the master and every other node: the cluster's hosts the node sends to. */
  @Override
  public Installed apply(Node node, List<Integer> ports, FaultContext context) {
    List<String> hosts = new java.util.ArrayList<>();
    if (context.master() != null) {
      hosts.add(context.master());
    }
    context.nodes().stream().filter(n -> n.index() != node.index()).map(Node::address).forEach(hosts::add);
    return context.network(node).duplicate(context.runId(), hosts, probability);
  }
}
