package faultbed.harness.timemodel;

/**
 * The machines a recorded cluster's nodes ran on, which is what their tasks competed for: every node
 * on one machine of {@code cores} (faultbed's own backends), or each node a machine of its own with
 * {@code cores} (a real cluster: the remote backend's hosts, the nodes of a history file).
 *
 * @param cores   the cores of each machine
 * @param perNode whether each node is a machine of its own; false for one machine all nodes share
 */
public record Machines(double cores, boolean perNode) {
  public Machines {
    if (!(cores > 0) || Double.isInfinite(cores)) {
      throw new IllegalArgumentException("machine cores: expected a positive number, got " + cores);
    }
  }

  /** Every node on one machine of {@code cores}. */
  public static Machines shared(double cores) {
    return new Machines(cores, false);
  }

  /** Each node a machine of {@code cores} of its own. */
  public static Machines perNode(double cores) {
    return new Machines(cores, true);
  }

  /** What a report says of them. */
  public String describe() {
    return perNode ? cores + " cores on each node's own machine" : cores + " cores shared by every node";
  }
}
