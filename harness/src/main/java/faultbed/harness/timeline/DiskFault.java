package faultbed.harness.timeline;

import faultbed.harness.Backend;
import faultbed.harness.ClusterSpec;
import faultbed.harness.Node;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/** A fault on some of a node's disks of its own ({@code cluster.disks}): what disk-full and disk-failure share. */
interface DiskFault extends OwnPartFault {
  /** The node's disks it acts on, by index; empty: all of them. */
  List<Integer> disks();

  @Override
  default Backend.Mechanism mechanism() {
    return Backend.Mechanism.NODE_DISK;
  }

  /** A cluster without disks, or a disk the nodes do not have. */
  @Override
  default Optional<Unsupported> missing(ClusterSpec cluster) {
    if (cluster.disks() == null) {
      return Optional.of(new Unsupported("kind", kind() + " acts on disks of the node's own, and the cluster has"
          + " none: expected cluster.disks (1 to " + ClusterSpec.Disks.MOST + ") with it"));
    }
    return disks().stream().filter(d -> d >= cluster.disks().count()).findFirst().map(d -> new Unsupported("disks",
        "expected disk indices below the " + cluster.disks().count() + " disks of each node (cluster.disks), got " + d));
  }

  /** What it does to one disk of the node, adding what it observed to {@code detail}. */
  faultbed.faults.Installed strike(faultbed.faults.NodeDisk disk, int index, FaultContext context, java.util.Map<String, String> detail);

  /** Strikes each chosen disk; any made before a failure is healed. */
  @Override
  default Injection inject(Node node, FaultContext context) {
    java.util.Map<String, String> detail = new java.util.LinkedHashMap<>();
    List<faultbed.faults.Installed> made = new java.util.ArrayList<>();
    try {
      for (int i : chosen(node)) {
        made.add(strike(node.disks().get(i), i, context, detail));
      }
    } catch (RuntimeException e) {
      faultbed.faults.Installed.all(made).heal();
      throw e;
    }
    return new Injection(detail, faultbed.faults.Installed.all(made));
  }

  /** The node's disks it acts on: those listed, or all. */
  default List<Integer> chosen(Node node) {
    if (node.disks().isEmpty()) {
      throw new IllegalStateException(node + " has no disks of its own (cluster.disks)");
    }
    return disks().isEmpty() ? IntStream.range(0, node.disks().size()).boxed().toList() : disks();
  }
}
