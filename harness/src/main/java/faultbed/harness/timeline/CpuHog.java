package faultbed.harness.timeline;

import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.Map;

/** CPU spinners in the node's cgroup, competing with its containers (seed 000, §5.2.2). */
public record CpuHog(Target target, int spinners, Duration duration) implements Fault {
  public static final FaultKind KIND = new FaultKind("cpu-hog", java.util.List.of("spinners"), false,
      FaultEffect.SLOWS,
      (target, lasts, p) -> new CpuHog(target, p.count("spinners", 1).orElse(4), lasts),
      FaultKind.example("cpu-hog", t -> new CpuHog(t, 1, null)));

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    return new Injection(Map.of("spinners", Integer.toString(spinners)), node.cpuSpinners(spinners));
  }
}
