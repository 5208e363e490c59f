package faultbed.harness.timeline;

import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A node made slower through its cgroup: a CPU quota in cores and disk read/write throttles, like a
 * VM sharing its host (seed 000, Tables 2 and 4). Null leaves that resource alone.
 */
public record SlowNode(Target target, Double cpuCores, Long readBytesPerSecond, Long writeBytesPerSecond,
    Duration duration) implements Fault {
  public static final FaultKind KIND = FaultKind.kind("slow-node", FaultEffect.SLOWS)
      .does("the node's CPU and disk capped", "cgroup CPU quota and disk throttles")
      .param(FaultKind.Param.optional("cpu", FaultKind.Form.CORES, "`cpu` (cores, e.g. 0.25)")
          .noted("cores (at most this machine's)"))
      .param(FaultKind.Param.optional("readRate", FaultKind.Form.RATE, "`readRate`"))
      .param(FaultKind.Param.optional("writeRate", FaultKind.Form.RATE, "`writeRate`"))
      .anyOf("cpu", "readRate", "writeRate")
      .made(SlowNode::of,
          t -> java.util.List.of(new FaultKind.Example("slow-node cpu", new SlowNode(t, 0.5, null, null, null)),
              new FaultKind.Example("slow-node disk", new SlowNode(t, null, 1L, 1L, null))));

  @Override
  public String kind() {
    return KIND.name();
  }

  private static SlowNode of(Target target, Duration lasts, FaultParams p) {
    SlowNode s = new SlowNode(target, p.cores("cpu").orElse(null), p.rate("readRate").orElse(null),
        p.rate("writeRate").orElse(null), lasts);
    if (s.cpuCores == null && s.readBytesPerSecond == null && s.writeBytesPerSecond == null) {
      throw p.invalid(null, "at least one of \"cpu\" (cores, e.g. 0.25), \"readRate\", \"writeRate\"");
    }
    return s;
  }

  /** A backend may lack a limit: Docker sets a container's device limits only when it creates it. */
  @Override
  public java.util.Optional<Unsupported> unsupported(faultbed.harness.ClusterSpec cluster) {
    var kind = Fault.super.unsupported(cluster);
    if (kind.isPresent()) {
      return kind;
    }
    if (cpuCores != null) {
      var why = cluster.backend().refuses(faultbed.harness.Backend.Mechanism.CPU_LIMIT);
      if (why.isPresent()) {
        return java.util.Optional.of(new Unsupported("cpu", why.get()));
      }
    }
    if (readBytesPerSecond != null || writeBytesPerSecond != null) {
      return cluster.backend().refuses(faultbed.harness.Backend.Mechanism.IO_LIMIT)
          .map(why -> new Unsupported(readBytesPerSecond != null ? "readRate" : "writeRate", why));
    }
    return java.util.Optional.empty();
  }

  @Override
  public java.util.Set<faultbed.faults.Capability> needs(faultbed.harness.ClusterSpec cluster) {
    java.util.Set<faultbed.faults.Capability> needs = java.util.EnumSet.noneOf(faultbed.faults.Capability.class);
    if (cpuCores != null) {
      needs.addAll(cluster.backend().needs(faultbed.harness.Backend.Mechanism.CPU_LIMIT));
    }
    if (readBytesPerSecond != null || writeBytesPerSecond != null) {
      needs.addAll(cluster.backend().needs(faultbed.harness.Backend.Mechanism.IO_LIMIT));
    }
    return needs;
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    Map<String, String> detail = new LinkedHashMap<>();
    if (cpuCores != null) {
      detail.put("cpuCores", cpuCores.toString());
    }
    if (readBytesPerSecond != null) {
      detail.put("readBytesPerSecond", readBytesPerSecond.toString());
    }
    if (writeBytesPerSecond != null) {
      detail.put("writeBytesPerSecond", writeBytesPerSecond.toString());
    }
    return new Injection(detail, node.limit(cpuCores, readBytesPerSecond, writeBytesPerSecond));
  }
}
