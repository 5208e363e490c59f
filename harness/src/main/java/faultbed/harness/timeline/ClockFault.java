package faultbed.harness.timeline;

import faultbed.faults.NodeClock;
import faultbed.harness.Backend;
import faultbed.harness.ClusterSpec;
import faultbed.harness.Node;
import java.util.Optional;

/** A fault on a node's wall clock of its own ({@code cluster.clocks}): what clock-jump and clock-drift share. */
interface ClockFault extends OwnPartFault {
  @Override
  default Backend.Mechanism mechanism() {
    return Backend.Mechanism.NODE_CLOCK;
  }

  @Override
  default Optional<Unsupported> missing(ClusterSpec cluster) {
    return cluster.clocks() ? Optional.empty() : Optional.of(new Unsupported("kind", kind() + " moves the node's"
        + " clock of its own, and the cluster's nodes read the machine's: expected cluster.clocks true with it"));
  }

  /** The node's clock. */
  default NodeClock clockOf(Node node) {
    return node.ownClock().orElseThrow(() -> new IllegalStateException(node + " has no clock of its own (cluster.clocks)"));
  }
}
