package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.List;

/** Nothing to or from the node's ports gets through, and its heartbeats stop reaching the RM. */
public record Blackhole(Target target, Duration duration) implements PortFault {
  public static final FaultKind KIND = FaultKind.kind("blackhole", FaultEffect.CUTS_OFF)
      .does("every packet to and from the node dropped", "nothing to or from its ports gets through (iptables), heartbeats held")
      .made((target, lasts, p) -> new Blackhole(target, lasts), FaultKind.example("blackhole", Blackhole::on));

  public static Blackhole on(Target target) {
    return new Blackhole(target, null);
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public faultbed.harness.Backend.Mechanism mechanism() {
    return faultbed.harness.Backend.Mechanism.SILENCE;
  }

  @Override
  public Installed apply(Node node, List<Integer> ports, FaultContext context) {
    Installed rules = context.network(node).dropAll(context.runId(), ports);
    node.pauseHeartbeats();
    return Installed.all(List.of(rules, node::resumeHeartbeats));
  }
}
