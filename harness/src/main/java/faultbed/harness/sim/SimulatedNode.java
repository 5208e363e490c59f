package faultbed.harness.sim;

/**
 * One simulated worker node.
 *
 * @param address  an IPv4 literal in 198.18.0.0/15 (reserved for benchmarking): Hadoop parses it
 *                 without a hosts file or DNS; Simulation keeps Hadoop from looking up its name
 * @param cores    its CPU cores, when it is a machine of its own
 * @param slowdown how many times longer its tasks take than on a healthy node (1 for healthy)
 * @param disks    its disks: a task's files go to them in turn, its bytes spread over them alike
 */
public record SimulatedNode(String address, String rack, int slots, double cores, double slowdown, int disks) {
  public SimulatedNode {
    if (slots < 1 || !(cores > 0) || slowdown <= 0 || disks < 1) {
      throw new IllegalArgumentException("a node needs a slot, cores, a disk and a positive slow-down: " + address);
    }
  }

  public SimulatedNode withSlowdown(double factor) {
    return new SimulatedNode(address, rack, slots, cores, factor, disks);
  }

  public SimulatedNode withDisks(int count) {
    return new SimulatedNode(address, rack, slots, cores, slowdown, count);
  }
}
