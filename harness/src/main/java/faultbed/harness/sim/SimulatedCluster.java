package faultbed.harness.sim;

import java.util.ArrayList;
import java.util.List;

/** The nodes a simulated job runs on, in a fixed order (the order the stand-in scheduler visits them). */
public record SimulatedCluster(List<SimulatedNode> nodes) {
  /** 198.18.1.10 upwards, 200 addresses per third octet: room for 50,800 nodes. */
  private static final int PER_OCTET = 200;
  public static final int MAX_NODES = 254 * PER_OCTET;

  public SimulatedCluster {
    nodes = List.copyOf(nodes);
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("a cluster needs a node");
    }
  }

  /** Healthy nodes with the same number of slots, a core a slot, nodesPerRack to a rack. */
  public static SimulatedCluster uniform(int nodeCount, int slotsPerNode, int nodesPerRack) {
    return uniform(nodeCount, slotsPerNode, slotsPerNode, nodesPerRack);
  }

  /** Healthy nodes with the same number of slots and cores, nodesPerRack to a rack. */
  public static SimulatedCluster uniform(int nodeCount, int slotsPerNode, double coresPerNode, int nodesPerRack) {
    if (nodeCount > MAX_NODES) {
      throw new IllegalArgumentException("at most " + MAX_NODES + " nodes: " + nodeCount);
    }
    List<SimulatedNode> nodes = new ArrayList<>(nodeCount);
    for (int i = 0; i < nodeCount; i++) {
      String address = "198.18." + (1 + i / PER_OCTET) + "." + (10 + i % PER_OCTET);
      nodes.add(new SimulatedNode(address, "/rack" + i / nodesPerRack, slotsPerNode, coresPerNode, 1.0, 1));
    }
    return new SimulatedCluster(nodes);
  }

  public SimulatedCluster withSlowdown(int nodeIndex, double factor) {
    List<SimulatedNode> changed = new ArrayList<>(nodes);
    changed.set(nodeIndex, nodes.get(nodeIndex).withSlowdown(factor));
    return new SimulatedCluster(changed);
  }

  /** The same nodes, each with {@code count} disks. */
  public SimulatedCluster withDisks(int count) {
    return new SimulatedCluster(nodes.stream().map(n -> n.withDisks(count)).toList());
  }

  public SimulatedNode node(int index) {
    return nodes.get(index);
  }
}
