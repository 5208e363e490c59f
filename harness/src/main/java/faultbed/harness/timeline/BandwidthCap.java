package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.List;

/** Traffic from and to the node's ports (map output it serves, requests it gets) limited to a rate. */
public record BandwidthCap(Target target, long bytesPerSecond, Duration duration) implements PortFault {
  public static final FaultKind KIND = FaultKind.kind("bandwidth-cap", FaultEffect.SLOWS)
      .does("the node's traffic capped", "traffic from and to its ports capped (tc htb on loopback)")
      .param(FaultKind.Param.required("rate", FaultKind.Form.RATE, "`rate` (`\"1MB/s\"`)"))
      .made((target, lasts, p) -> new BandwidthCap(target,
          p.rate("rate").orElseThrow(() -> p.invalid("rate", "a positive rate such as \"1MB/s\" or \"500KB/s\"")), lasts),
          FaultKind.example("bandwidth-cap", t -> BandwidthCap.on(t, 1)));

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
    return KIND.name();
  }

  @Override
  public java.util.Map<String, String> parameters() {
    return java.util.Map.of("bytesPerSecond", Long.toString(bytesPerSecond));
  }

  @Override
  public faultbed.harness.Backend.Mechanism mechanism() {
    return faultbed.harness.Backend.Mechanism.SHAPE;
  }

  @Override
  public Installed apply(Node node, List<Integer> ports, FaultContext context) {
    return context.network(node).cap(context.runId(), ports, bytesPerSecond);
  }
}
