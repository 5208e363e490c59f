package faultbed.harness.timemodel;

import java.util.Arrays;
import java.util.List;

/**
 * How a machine's cores are shared by the runnable threads of the nodes on it, as Linux shares
 * them among sibling cgroups of equal weight: each node with work gets an equal share of the
 * machine (no more than it can use: one core a thread, and its own CPU limit), what one cannot use
 * goes to the others, and within a node its threads share alike. faultbed's own backends put every
 * node of a cluster in a cgroup of its own on one machine; a real cluster has a machine per node.
 */
public final class CpuSharing {
  private CpuSharing() {}

  /**
   * One node's load now.
   *
   * @param threads runnable threads: its running tasks and the spinners faults put there
   * @param limit   its cgroup's CPU limit in cores (infinite for none)
   */
  public record NodeLoad(int threads, double limit) {}

  /** Cores each runnable thread of each node gets, by node, on a machine of {@code cores}. */
  public static double[] perThread(List<NodeLoad> nodes, double cores) {
    int n = nodes.size();
    double[] demand = new double[n];
    double total = 0;
    for (int i = 0; i < n; i++) {
      demand[i] = Math.min(nodes.get(i).threads(), nodes.get(i).limit());
      total += demand[i];
    }
    double[] share = demand.clone();
    if (total > cores) {
      // water-filling: the level every unsatisfied node is cut to so that the shares add up to the cores
      double[] sorted = demand.clone();
      Arrays.sort(sorted);
      double left = cores;
      double level = 0;
      for (int k = 0; k < n; k++) {
        double even = left / (n - k);
        if (sorted[k] >= even) {
          level = even;
          break;
        }
        left -= sorted[k];
        level = sorted[k];
      }
      for (int i = 0; i < n; i++) {
        share[i] = Math.min(demand[i], level);
      }
    }
    double[] perThread = new double[n];
    for (int i = 0; i < n; i++) {
      int threads = nodes.get(i).threads();
      perThread[i] = threads == 0 ? 0 : share[i] / threads;
    }
    return perThread;
  }
}
