package faultbed.harness.timeline;

import faultbed.harness.Node;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Traffic from and to the node's ports (map output it serves, requests it gets) limited to a rate. */
public record BandwidthCap(Target target, long bytesPerSecond, Duration duration) implements Fault {
  public BandwidthCap {
    if (bytesPerSecond <= 0) {
      throw new IllegalArgumentException("rate: expected a positive rate, got " + bytesPerSecond);
    }
  }

  public static BandwidthCap on(Target target, long bytesPerSecond) {
    return new BandwidthCap(target, bytesPerSecond, null);
  }

  @Override
  public String kind() {
    return "bandwidth-cap";
  }

  @Override
  public boolean needsLiveNode() {
    return false;
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    List<Integer> ports = node.ports();
    return new Injection(Map.of("ports", ports.toString(), "bytesPerSecond", Long.toString(bytesPerSecond)),
        context.trafficControl().cap(ports, bytesPerSecond));
  }
}
