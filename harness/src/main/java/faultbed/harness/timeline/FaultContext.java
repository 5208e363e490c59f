package faultbed.harness.timeline;

import faultbed.faults.Ledger;
import faultbed.faults.NetworkFaults;
import faultbed.harness.Node;
import java.util.List;
import java.util.function.Function;

/**
 * What a fault needs besides its node: the run it belongs to (its tag), the ledger, where the
 * node's network faults are made (one backend for every node in-process; each node's own link on
 * the namespace backend), and, for partitions, the address the nodes reach the cluster's master at
 * (ResourceManager, NameNode, history server) and the cluster's nodes; and the run's job input,
 * for faults on its replicas.
 *
 * @param master the master's address as the nodes reach it; null where nodes share the host's address
 */
public record FaultContext(String runId, Ledger ledger, Function<Node, NetworkFaults> networks, String master,
    List<? extends Node> nodes, JobInput input) {
  public FaultContext {
    nodes = List.copyOf(nodes);
    input = input == null ? JobInput.NONE : input;
  }

  public FaultContext(String runId, Ledger ledger, Function<Node, NetworkFaults> networks, String master,
      List<? extends Node> nodes) {
    this(runId, ledger, networks, master, nodes, JobInput.NONE);
  }

  /** The same, for a run whose job reads {@code jobInput}. */
  public FaultContext withInput(JobInput jobInput) {
    return new FaultContext(runId, ledger, networks, master, nodes, jobInput);
  }

  public FaultContext(String runId, Ledger ledger, Function<Node, NetworkFaults> networks) {
    this(runId, ledger, networks, null, List.of());
  }

  public FaultContext(String runId, Ledger ledger, NetworkFaults network) {
    this(runId, ledger, node -> network);
  }

  public NetworkFaults network(Node node) {
    return networks.apply(node);
  }
}
