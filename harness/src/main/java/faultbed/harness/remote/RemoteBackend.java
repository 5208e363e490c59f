package faultbed.harness.remote;

import faultbed.faults.Capability;
import faultbed.faults.PreconditionFailed;
import faultbed.harness.Backend;
import faultbed.harness.Cluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.NetworkBackend;
import faultbed.harness.timeline.Fault;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code remote}: a YARN cluster faultbed did not start, its workers reached over SSH as an
 * inventory file lists them. What a fault needs of a worker is checked on the worker when the
 * cluster connects, so nothing is asked of this host.
 */
public final class RemoteBackend extends Backend {
  /** The fault kinds this backend makes; the rest are refused before anything starts. */
  private static final List<String> KINDS = List.of("crash", "stop", "freeze", "rst-suppression", "blackhole",
      "bandwidth-cap", "latency", "packet-loss", "cpu-hog", "disk-load", "pause", "partition");
  private static final String NO_INVENTORY = "cluster.backend \"remote\": expected an inventory of the cluster's"
      + " hosts (cluster.inventory, or --inventory FILE)";

  public RemoteBackend() {
    super("remote", "a YARN cluster faultbed did not start; with --inventory");
  }

  /** Node labels of a cluster faultbed did not start are its administrators'. */
  @Override
  public Optional<String> refusesPinning() {
    return Optional.of("pinning sets node labels on the ResourceManager, and a cluster faultbed did not start is not"
        + " faultbed's to relabel; expected no \"pin\" with backend \"remote\"");
  }

  @Override
  public List<String> problems(ClusterSpec spec) {
    return spec.inventory() == null ? List.of(NO_INVENTORY) : List.of(); // the workers are checked over SSH
  }

  @Override
  public String requires(NetworkBackend network) {
    return "an inventory";
  }

  @Override
  public Set<Capability> needs(Mechanism mechanism) {
    return Set.of(); // of the workers, checked over SSH when the cluster connects
  }

  @Override
  public Optional<String> refuses(Mechanism mechanism) {
    return switch (mechanism) {
      case NODE_DISK -> Optional.of("the remote backend's workers keep the disks they have: faultbed makes"
          + " none for them; use cluster.backend \"namespace\" for disks of a node's own");
      case NODE_CLOCK -> Optional.of("the remote backend's workers keep the clocks they have: faultbed moves"
          + " none of them; use cluster.backend \"namespace\" for a clock of a node's own");
      default -> Optional.empty();
    };
  }

  @Override
  public Optional<String> refusesKind(String kind) {
    return KINDS.contains(kind) ? Optional.empty() : Optional.of("the remote backend does not make " + kind
        + " faults yet; it makes " + String.join(", ", KINDS));
  }

  @Override
  public boolean usesExistingCluster() {
    return true;
  }

  @Override
  public Cluster start(ClusterSpec spec, Consumer<String> log) {
    return RemoteCluster.start(spec, log);
  }

  @Override
  public Map<String, List<String>> dryRun(ClusterSpec spec, List<Fault> faults, Consumer<String> log) {
    return RemoteCluster.dryRun(spec, faults, log);
  }

  static void requireInventory(ClusterSpec spec) {
    if (spec.inventory() == null) {
      throw new PreconditionFailed(NO_INVENTORY);
    }
  }
}
