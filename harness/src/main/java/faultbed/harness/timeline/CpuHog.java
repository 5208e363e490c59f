package faultbed.harness.timeline;

import faultbed.harness.Node;
import java.time.Duration;
import java.util.Map;

/** CPU spinners in the node's cgroup, competing with its containers (seed 000, §5.2.2). */
public record CpuHog(Target target, int spinners, Duration duration) implements Fault {
  @Override
  public String kind() {
    return "cpu-hog";
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    return new Injection(Map.of("spinners", Integer.toString(spinners)), node.cpuSpinners(spinners));
  }
}
