package faultbed.harness.sim;

import java.util.List;
import java.util.Map;

/**
 * Everything one simulated run depends on.
 *
 * @param jobProperties job configuration (speculation switches, estimator, slow-start, timeouts)
 * @param seed          where the splits' replicas are placed
 */
public record SimulationSpec(SimulatedCluster cluster, int maps, int reduces, Map<String, String> jobProperties,
    TaskTimes times, Latencies latencies, List<NodeLoss> nodeLosses, long seed) {
  public SimulationSpec {
    jobProperties = Map.copyOf(jobProperties);
    nodeLosses = List.copyOf(nodeLosses);
  }
}
