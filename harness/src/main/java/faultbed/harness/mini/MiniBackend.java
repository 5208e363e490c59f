package faultbed.harness.mini;

import faultbed.faults.Capability;
import faultbed.faults.ToxiproxyServer;
import faultbed.harness.Backend;
import faultbed.harness.Cluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.NetworkBackend;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code mini}: NodeManagers inside the harness JVM, fast to start and reset; nodes share the
 * host's address, so network faults are rules and classes on the loopback ports of a node.
 */
public final class MiniBackend extends Backend {
  public MiniBackend() {
    super("mini", "in-process");
  }

  @Override
  public List<String> problems(ClusterSpec spec) {
    // the server fronts every node's shuffle, faults or not
    return spec.network().isToxiproxy() ? ToxiproxyServer.unavailable(spec.network().toxiproxyUrl()).stream().toList()
        : List.of();
  }

  @Override
  public String requires(NetworkBackend network) {
    return network.isToxiproxy() ? "a Toxiproxy server" : "nothing";
  }

  @Override
  public Set<Capability> needs(Mechanism mechanism) {
    return mechanism.byKernel(); // on the node's loopback ports and in its cgroup
  }

  /**
   * Its NodeManagers are objects in the harness's own JVM, at the host's loopback address: no process
   * and no address of a node's own to act on.
   */
  @Override
  public Optional<String> refuses(Mechanism mechanism) {
    return switch (mechanism) {
      case NODE_DAEMON -> Optional.of("the mini backend's NodeManagers run inside the harness's own JVM, so none"
          + " can be paused apart from the rest; use cluster.backend \"namespace\", \"containers\" or \"remote\","
          + " where each node is a process of its own");
      case PARTITION -> Optional.of("the mini backend's nodes share the host's loopback address, so no packet"
          + " filter can tell one node's peers from another's; use cluster.backend \"namespace\" or \"containers\","
          + " where each node has an address of its own");
      case NODE_DISK -> Optional.of("the mini backend's DataNodes keep their volumes where MiniDFSCluster puts"
          + " them, in one folder of the harness's, so no node has disks of its own; use cluster.backend \"namespace\"");
      case REPLICA_FILES -> Optional.of("the mini backend's DataNodes all answer at the host's address, so no replica"
          + " can be told to be a node's; use cluster.backend \"namespace\"");
      case DUPLICATE -> Optional.of("the mini backend does not duplicate packets yet: faultbed makes the copies on a"
          + " node's own link; use cluster.backend \"namespace\"");
      case NODE_CLOCK -> Optional.of("the mini backend's NodeManagers run inside the harness's own JVM, on its clock,"
          + " so no node has a clock of its own; use cluster.backend \"namespace\"");
      default -> Optional.empty();
    };
  }

  /** A server of the user's listens on this host's loopback, as the nodes do. */
  @Override
  public Optional<String> refusesNetwork(NetworkBackend network) {
    return Optional.empty();
  }

  @Override
  public Cluster start(ClusterSpec spec, Consumer<String> log) {
    return MiniCluster.start(spec, log);
  }
}
