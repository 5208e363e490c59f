package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.harness.Node;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Nothing to or from the node's ports gets through, and its heartbeats stop reaching the RM. */
public record Blackhole(Target target, Duration duration) implements Fault {
  public static Blackhole on(Target target) {
    return new Blackhole(target, null);
  }

  @Override
  public String kind() {
    return "blackhole";
  }

  @Override
  public boolean needsLiveNode() {
    return false;
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    List<Integer> ports = node.ports();
    Installed rules = context.iptables().dropAll(context.runId(), ports);
    node.pauseHeartbeats();
    return new Injection(Map.of("ports", ports.toString()), Installed.all(List.of(rules, node::resumeHeartbeats)));
  }
}
