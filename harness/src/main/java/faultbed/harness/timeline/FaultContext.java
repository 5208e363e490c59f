package faultbed.harness.timeline;

import faultbed.faults.Ledger;
import faultbed.faults.NetworkFaults;
import faultbed.harness.Node;
import java.util.function.Function;

/**
 * What a fault needs besides its node: the run it belongs to (its tag), the ledger, and where the
 * node's network faults are made (one backend for every node in-process; each node's own link on
 * the namespace backend).
 */
public record FaultContext(String runId, Ledger ledger, Function<Node, NetworkFaults> networks) {
  public FaultContext(String runId, Ledger ledger, NetworkFaults network) {
    this(runId, ledger, node -> network);
  }

  public NetworkFaults network(Node node) {
    return networks.apply(node);
  }
}
