package faultbed.harness.sim;

import java.util.Map;

/** Simulation specs the engine's tests share: 4 slots a node, 20 nodes a rack, default latencies. */
final class Specs {
  static final Map<String, String> NO_SPECULATION =
      Map.of("mapreduce.map.speculative", "false", "mapreduce.reduce.speculative", "false");

  private Specs() {
  }

  static SimulationSpec job(SimulatedCluster cluster, int maps, int reduces, long seed,
      Map<String, String> properties) {
    return SimulationSpec.of(cluster, maps, reduces, properties, new NoisyTaskTimes(10_000, 20_000, 0.1, seed),
        Latencies.defaults(), seed);
  }

  static SimulatedCluster cluster(int nodes) {
    return SimulatedCluster.uniform(nodes, 4, 20);
  }
}
