package faultbed.harness.timemodel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Cores shared as sibling cgroups of equal weight share them. */
class CpuSharingTest {
  private static final double INF = Double.POSITIVE_INFINITY;

  private static double[] share(double cores, CpuSharing.NodeLoad... nodes) {
    return CpuSharing.perThread(List.of(nodes), cores);
  }

  @Test
  void aMachineWithCoresToSpareGivesEveryThreadACore() {
    assertArrayEquals(new double[] {1, 1, 0}, share(8, new CpuSharing.NodeLoad(2, INF), new CpuSharing.NodeLoad(3, INF),
        new CpuSharing.NodeLoad(0, INF)), 1e-9);
  }

  @Test
  void busyNodesGetEqualSharesWhateverTheirThreads() {
    // two cores, two busy nodes: a core each, split among their own threads
    assertArrayEquals(new double[] {0.5, 0.25}, share(2, new CpuSharing.NodeLoad(2, INF),
        new CpuSharing.NodeLoad(4, INF)), 1e-9);
  }

  @Test
  void whatANodeCannotUseGoesToTheOthers() {
    // one thread can use one core; the rest of the three cores goes to the busy node
    assertArrayEquals(new double[] {1, 0.5}, share(3, new CpuSharing.NodeLoad(1, INF), new CpuSharing.NodeLoad(4, INF)),
        1e-9);
    // a node limited to a tenth of a core leaves the rest of the core to the other
    assertArrayEquals(new double[] {0.05, 0.9}, share(1, new CpuSharing.NodeLoad(2, 0.1),
        new CpuSharing.NodeLoad(1, INF)), 1e-9);
  }

  @Test
  void spinnersOnAFaultedNodeTakeTheirShareFromItsTasks() {
    // four nodes on two cores; node 3 runs two tasks and two spinners: a quarter core between four threads
    double[] perThread = share(2, new CpuSharing.NodeLoad(2, INF), new CpuSharing.NodeLoad(2, INF),
        new CpuSharing.NodeLoad(2, INF), new CpuSharing.NodeLoad(4, INF));
    assertArrayEquals(new double[] {0.25, 0.25, 0.25, 0.125}, perThread, 1e-9);
  }
}
