package faultbed.harness.timeline;

import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.Map;

/** CPU spinners in the node's cgroup, competing with its containers (seed 000, §5.2.2). */
public record CpuHog(Target target, int spinners, Duration duration) implements Fault {
  public static final FaultKind KIND = FaultKind.kind("cpu-hog", FaultEffect.SLOWS)
      .does("CPU spinners in the node's cgroup", "CPU spinners in its cgroup, each competing with its tasks as one more"
          + " process would (on cgroup v1 their group weighs as many threads as it runs; suites before 2026-11-27 had it"
          + " weigh as one)")
      .param(FaultKind.Param.optional("spinners", FaultKind.Form.COUNT, "`spinners` (4)"))
      .made((target, lasts, p) -> new CpuHog(target, p.count("spinners", 1).orElse(4), lasts),
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
