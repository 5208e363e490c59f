package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.List;

/**
 * TCP RST packets leaving the node's ports are dropped, so peers wait for a connect timeout instead
 * of being refused. With a {@link NodeCrash} of the same node: a whole-machine failure (seed 003, §4).
 */
public record RstSuppression(Target target, Duration duration) implements PortFault {
  public static final FaultKind KIND = FaultKind.kind("rst-suppression", FaultEffect.NONE)
      .does("the node's RSTs dropped: connects to it wait for their timeout", "TCP RSTs from its ports are dropped"
          + " (iptables): peers time out instead of being refused. With `crash` on `\"same\"`: a whole-machine failure")
      .made((target, lasts, p) -> new RstSuppression(target, lasts), FaultKind.example("rst-suppression", RstSuppression::on));

  public static RstSuppression on(Target target) {
    return new RstSuppression(target, null);
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  /** A proxy answers every connect itself. */
  @Override
  public java.util.Optional<String> notByProxy() {
    return java.util.Optional.of("the toxiproxy backend cannot hide a live port's RSTs (a proxy answers every connect itself)");
  }

  @Override
  public faultbed.harness.Backend.Mechanism mechanism() {
    return faultbed.harness.Backend.Mechanism.DROP_RST;
  }

  @Override
  public Installed apply(Node node, List<Integer> ports, FaultContext context) {
    return context.network(node).dropRst(context.runId(), ports);
  }
}
