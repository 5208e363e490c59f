package faultbed.harness.timeline;

import faultbed.harness.Node;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Every packet from and to the node's ports delayed by {@code delay} +- {@code jitter} (tc netem). */
public record Latency(Target target, Duration delay, Duration jitter, Duration duration) implements Fault {
  @Override
  public String kind() {
    return "latency";
  }

  @Override
  public boolean needsLiveNode() {
    return false;
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    List<Integer> ports = node.ports();
    return new Injection(Map.of("ports", ports.toString(), "delayMs", Long.toString(delay.toMillis())),
        context.trafficControl().delay(ports, delay, jitter));
  }
}
