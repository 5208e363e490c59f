package faultbed.harness.containers;

import faultbed.faults.Capability;
import faultbed.faults.DockerEngine;
import faultbed.harness.Backend;
import faultbed.harness.Cluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.NetworkBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code containers}: each node the namespace backend's process tree in a Docker container of its
 * own, with its own address. Needs a Docker engine, not root: network faults are made inside the
 * container, CPU limits through Docker.
 */
public final class ContainersBackend extends Backend {
  public ContainersBackend() {
    super("containers", "a container per node, on a Docker engine");
  }

  @Override
  public List<String> problems(ClusterSpec spec) {
    List<String> problems = new ArrayList<>();
    DockerEngine.unavailable().ifPresent(p -> problems.add("cluster.backend \"containers\": " + p));
    if (spec.network().isToxiproxy()) {
      refusesNetwork(spec.network()).ifPresent(p -> problems.add("cluster.network.toxiproxy: " + p));
    }
    return problems;
  }

  @Override
  public String requires(NetworkBackend network) {
    return "a Docker engine";
  }

  @Override
  public Set<Capability> needs(Mechanism mechanism) {
    return switch (mechanism) {
      case DROP_RST, DELAY, REORDER, LOSE, DUPLICATE, PARTITION, NODE_DAEMON -> mechanism.byKernel();
      // link pulled, tc in the container, Docker's limits; the node's folder mounted at its own path (its
      // clock file, its DataNode's blocks); refused
      case SILENCE, SHAPE, CPU_LIMIT, IO_LIMIT, MEMORY_LIMIT, NODE_DISK, NODE_CLOCK, REPLICA_FILES -> Set.of();
    };
  }

  @Override
  public Optional<String> refuses(Mechanism mechanism) {
    return switch (mechanism) {
      case IO_LIMIT -> Optional.of("the containers backend limits a node's CPU only (Docker sets disk limits when it"
          + " creates a container); use cluster.backend \"namespace\" or \"mini\" for disk limits");
      // a disk mounted again after its failure would not reach the container, which keeps the dead mount
      case NODE_DISK -> Optional.of("the containers backend gives nodes no disks of their own (a disk mounted again"
          + " on the host does not reach a running container); use cluster.backend \"namespace\"");
      default -> Optional.empty();
    };
  }

  @Override
  public Cluster start(ClusterSpec spec, Consumer<String> log) {
    return ContainerCluster.start(spec, log);
  }

  /** Its NodeManagers run faultbed's bandwidth probe, each on the node's own address. */
  @Override
  public java.util.Optional<String> refusesPlacement() {
    return java.util.Optional.empty();
  }
}
