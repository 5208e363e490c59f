package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.harness.Node;
import java.time.Duration;
import java.util.List;

/**
 * TCP RST packets leaving the node's ports are dropped, so peers wait for a connect timeout instead
 * of being refused. With a {@link NodeCrash} of the same node: a whole-machine failure (seed 003, §4).
 */
public record RstSuppression(Target target, Duration duration) implements PortFault {
  public static RstSuppression on(Target target) {
    return new RstSuppression(target, null);
  }

  @Override
  public String kind() {
    return "rst-suppression";
  }

  @Override
  public java.util.Set<faultbed.faults.Capability> needs(faultbed.harness.ClusterSpec cluster) {
    return cluster.network().isToxiproxy() ? java.util.Set.of() : java.util.Set.of(faultbed.faults.Capability.IPTABLES);
  }

  @Override
  public Installed apply(Node node, List<Integer> ports, FaultContext context) {
    return context.network(node).dropRst(context.runId(), ports);
  }
}
