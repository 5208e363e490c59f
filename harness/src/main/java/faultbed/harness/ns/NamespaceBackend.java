package faultbed.harness.ns;

import faultbed.faults.Capability;
import faultbed.faults.CgroupLayout;
import faultbed.faults.ToxiproxyServer;
import faultbed.harness.Backend;
import faultbed.harness.Cluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.NetworkBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code namespace}: each node a process tree of its own (DataNode, NodeManager and containers) in
 * its own network namespace, address and cgroup, so it dies, stalls and drops off the network the
 * way a machine does. Needs root: namespaces, iptables in them, and a cgroup per node.
 */
public final class NamespaceBackend extends Backend {
  public NamespaceBackend() {
    super("namespace", "a process tree, address and cgroup per node; root");
  }

  @Override
  public List<String> problems(ClusterSpec spec) {
    List<String> problems = new ArrayList<>();
    // heartbeat pauses and RST rules live in the node's namespace
    for (Capability c : List.of(Capability.NETNS, Capability.IPTABLES)) {
      c.problems().forEach(p -> problems.add("cluster.backend \"namespace\": " + p));
    }
    if (CgroupLayout.current().tasks() == CgroupLayout.Mechanism.SIGNALS) {
      problems.add("cluster.backend \"namespace\": the namespace backend holds each node in a cgroup: "
          + CgroupLayout.current().problems().get(0));
    }
    if (spec.disks() != null) {
      Capability.NODE_DISK.problems().forEach(p -> problems.add("cluster.disks: " + p));
    }

    if (spec.network().isToxiproxy()) {
      refusesNetwork(spec.network()).ifPresent(p -> problems.add("cluster.network.toxiproxy: " + p));
      if (ToxiproxyServer.program().isEmpty()) {
        problems.add(ToxiproxyServer.programMissing()); // a server runs inside each node's namespace
      }
    }
    return problems;
  }

  /** Each container's quota is a group below the node's in cgroup v1's cpu hierarchy. */
  @Override
  public java.util.Optional<String> refusesStealing() {
    CgroupLayout layout = CgroupLayout.current();
    if (layout.cpu() == CgroupLayout.Mechanism.V1) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of("expected off on this host: a container's CPU quota is a group below its node's in"
        + " cgroup v1's cpu hierarchy, which this host's cgroups (" + layout.describe() + ") do not have");
  }

  @Override
  public String requires(NetworkBackend network) {
    return network.isToxiproxy() ? "toxiproxy-server" : "netns, iptables, root";
  }

  @Override
  public Set<Capability> needs(Mechanism mechanism) {
    return mechanism == Mechanism.SILENCE ? Set.of() : mechanism.byKernel(); // silenced by pulling the node's link
  }

  @Override
  public Cluster start(ClusterSpec spec, Consumer<String> log) {
    return NamespaceCluster.start(spec, log);
  }

  /** Its NodeManagers run faultbed's bandwidth probe, each on the node's own address. */
  @Override
  public java.util.Optional<String> refusesPlacement() {
    return java.util.Optional.empty();
  }
}
