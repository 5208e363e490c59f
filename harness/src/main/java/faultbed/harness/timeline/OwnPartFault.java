package faultbed.harness.timeline;

import faultbed.harness.Backend;
import faultbed.harness.ClusterSpec;
import java.util.Optional;
import java.util.Set;

/**
 * A fault on a part the cluster gives each node of its own (disks, a clock): its backend must make
 * that part, and the cluster must have asked for it.
 */
interface OwnPartFault extends Fault {
  /** What the backend does for it. */
  Backend.Mechanism mechanism();

  /** Why {@code cluster} lacks the part, or the part the fault names; empty when it has it. */
  Optional<Unsupported> missing(ClusterSpec cluster);

  @Override
  default Set<faultbed.faults.Capability> needs(ClusterSpec cluster) {
    return cluster.backend().needs(mechanism());
  }

  /** Its kind refused on the backend, the backend making no such part, or a cluster without it. */
  @Override
  default Optional<Unsupported> unsupported(ClusterSpec cluster) {
    Optional<Unsupported> kind = Fault.super.unsupported(cluster);
    if (kind.isPresent()) {
      return kind;
    }
    Optional<String> refused = cluster.backend().refuses(mechanism());
    return refused.isPresent() ? Optional.of(new Unsupported("kind", refused.get())) : missing(cluster);
  }
}
