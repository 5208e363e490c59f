package faultbed.harness.sim;

import java.util.ArrayList;
import java.util.List;

/** A machine and the simulated nodes on it, which share its cores (see {@link CpuSharing}). */
final class Machine {
  final double cores;
  final List<LiveNode> nodes = new ArrayList<>();

  Machine(double cores) {
    this.cores = cores;
  }

  void add(LiveNode node) {
    nodes.add(node);
    node.machine = this;
  }
}
