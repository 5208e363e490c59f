package faultbed.harness.timeline;

import faultbed.harness.Node;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A node made slower through its cgroup: a CPU quota in cores and disk read/write throttles, like a
 * VM sharing its host (seed 000, Tables 2 and 4). Null leaves that resource alone.
 */
public record SlowNode(Target target, Double cpuCores, Long readBytesPerSecond, Long writeBytesPerSecond,
    Duration duration) implements Fault {
  @Override
  public String kind() {
    return "slow-node";
  }

  @Override
  public java.util.Set<faultbed.faults.Capability> needs(faultbed.harness.ClusterSpec cluster) {
    java.util.Set<faultbed.faults.Capability> needs = java.util.EnumSet.noneOf(faultbed.faults.Capability.class);
    if (cluster.backend() == faultbed.harness.NodeBackend.CONTAINERS) {
      return needs; // Docker's CPU quota; read and write limits are refused by the scenario check
    }
    if (cpuCores != null) {
      needs.add(faultbed.faults.Capability.CPU_LIMIT);
    }
    if (readBytesPerSecond != null || writeBytesPerSecond != null) {
      needs.add(faultbed.faults.Capability.IO_LIMIT);
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
