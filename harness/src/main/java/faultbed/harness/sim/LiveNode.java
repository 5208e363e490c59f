package faultbed.harness.sim;

import org.apache.hadoop.yarn.api.records.NodeId;

/** A simulated node while a job runs: its free slots, whether it is still alive, and how much a fault slows it. */
final class LiveNode {
  /** The NodeManager's port numbers are fixed; only the address tells nodes apart. */
  static final int NM_PORT = 45454;
  private static final int NM_HTTP_PORT = 8042;

  final SimulatedNode node;
  /** Its place in the cluster's list: the node's number in records. */
  final int index;
  final NodeId nodeId;
  final String httpAddress;
  int freeSlots;
  boolean alive = true;
  long deathTime = -1;
  /** The machine whose cores it shares (a machine of its own on a real cluster). */
  Machine machine;
  /** Threads that faults keep busy here, competing with its tasks for the CPU. */
  int spinners;
  /** Its cgroup's CPU limit in cores, infinite for none. */
  double cpuLimit = Double.POSITIVE_INFINITY;
  /** How many times longer work takes here for what faults do besides using CPU (disk contention), from the model. */
  double otherSlowdown = 1;

  LiveNode(SimulatedNode node, int index) {
    this.node = node;
    this.index = index;
    this.nodeId = NodeId.newInstance(node.address(), NM_PORT);
    this.httpAddress = node.address() + ":" + NM_HTTP_PORT;
    this.freeSlots = node.slots();
  }
}
