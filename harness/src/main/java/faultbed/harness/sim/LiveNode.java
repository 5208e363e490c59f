package faultbed.harness.sim;

import org.apache.hadoop.yarn.api.records.NodeId;

/** A simulated node while a job runs: its free slots, whether it is still alive, and how much a fault slows it. */
final class LiveNode {
  /** The NodeManager's port numbers are fixed; only the address tells nodes apart. */
  static final int NM_PORT = 45454;
  private static final int NM_HTTP_PORT = 8042;

  final SimulatedNode node;
  final NodeId nodeId;
  final String httpAddress;
  int freeSlots;
  boolean alive = true;
  long deathTime = -1;
  /** How many times longer work takes here because of faults in force (1 for none). */
  double faultSlowdown = 1;

  LiveNode(SimulatedNode node) {
    this.node = node;
    this.nodeId = NodeId.newInstance(node.address(), NM_PORT);
    this.httpAddress = node.address() + ":" + NM_HTTP_PORT;
    this.freeSlots = node.slots();
  }
}
