package faultbed.harness.sim;

import faultbed.harness.timeline.Timeline;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything one simulated run depends on.
 *
 * @param jobProperties         job configuration (speculation switches, speculator, estimator,
 *                              slow-start, timeouts), as the job would carry it to a real AM
 * @param timeline              the run's faults, played as on a real cluster
 * @param slowdowns             how much longer work takes on a node with these slowing fault kinds
 *                              in force (from the time model); asked only when such a fault fires
 * @param sharedCores           when positive, every node is on one machine of this many cores (as
 *                              faultbed's own backends run a cluster); otherwise each node is a
 *                              machine of its own with its node's cores
 * @param applicationMasterNode the node whose first slot the AM's container holds
 * @param seed                  the run's seed: where the splits' replicas are placed, and the fault
 *                              timeline's draws (times, choices among nodes) as the harness makes them
 * @param runIndex              the run's index, for a stratified fault time
 * @param timeScale             the run's time scale, by which Hadoop's hard-coded shuffle back-off and
 *                              connect retry unit are scaled as the time-scale agent scales them
 * @param replayedFaultNodes    per step of the timeline, the node it strikes, replaying a real run
 *                              (null, or a list too short: the step chooses as the fault driver does)
 * @param livenessCheckMs       a time since the job started at which the ResourceManager ran a liveness
 *                              check, replaying a real run's grid; null: the grid's phase is drawn
 * @param inputBytesPerMap      what a map reads (a remote read crosses links a fault may shape); 0 unknown
 * @param shuffleBytesPerMap    what a map's output holds for all reduces together (an equal part
 *                              each; a copy crosses links a fault may shape); 0 unknown
 */
public record SimulationSpec(SimulatedCluster cluster, int maps, int reduces, Map<String, String> jobProperties,
    TaskTimes times, Latencies latencies, Timeline timeline, SimulatedFaults.Slowdowns slowdowns,
    double sharedCores, int applicationMasterNode, long seed, int runIndex, double timeScale,
    List<Integer> replayedFaultNodes, Long livenessCheckMs, long inputBytesPerMap, long shuffleBytesPerMap) {
  public SimulationSpec {
    jobProperties = Map.copyOf(jobProperties);
    replayedFaultNodes = replayedFaultNodes == null ? List.of()
        : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(replayedFaultNodes));
    timeline = timeline == null ? Timeline.none() : timeline;
    slowdowns = slowdowns == null ? SimulationSpec::noSlowdownModel : slowdowns;
    if (applicationMasterNode < 0 || applicationMasterNode >= cluster.nodes().size()) {
      throw new IllegalArgumentException("applicationMasterNode: expected a node index below "
          + cluster.nodes().size() + ", got " + applicationMasterNode);
    }
  }

  /** A fault-free run of a job on a cluster, its AM on the first node. */
  public static SimulationSpec of(SimulatedCluster cluster, int maps, int reduces, Map<String, String> jobProperties,
      TaskTimes times, Latencies latencies, long seed) {
    return new SimulationSpec(cluster, maps, reduces, jobProperties, times, latencies, Timeline.none(), null, 0, 0,
        seed, 0, 1, List.of(), null, 0, 0);
  }

  public SimulationSpec withFaults(Timeline faults, SimulatedFaults.Slowdowns model) {
    return new SimulationSpec(cluster, maps, reduces, jobProperties, times, latencies, faults, model, sharedCores,
        applicationMasterNode, seed, runIndex, timeScale, replayedFaultNodes, livenessCheckMs, inputBytesPerMap,
        shuffleBytesPerMap);
  }

  /** The same run with a map's input and output of these sizes, in bytes. */
  public SimulationSpec withBytes(long input, long shuffle) {
    return new SimulationSpec(cluster, maps, reduces, jobProperties, times, latencies, timeline, slowdowns, sharedCores,
        applicationMasterNode, seed, runIndex, timeScale, replayedFaultNodes, livenessCheckMs, input, shuffle);
  }

  private static double noSlowdownModel(Set<String> kinds) {
    throw new IllegalArgumentException("the simulation has no time model for " + kinds + " faults");
  }
}
