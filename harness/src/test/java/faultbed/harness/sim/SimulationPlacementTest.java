package faultbed.harness.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.junit.jupiter.api.Test;

/**
 * Where the stand-in scheduler puts containers, as the CapacityScheduler would: a reduce's request
 * names no host or rack, so it is an off-switch assignment, and a node is given nothing more in the
 * heartbeat it got one; reduces asked for together go to as many nodes as have room.
 */
class SimulationPlacementTest {
  @Test
  void reducesAskedForTogetherGoToNodesOfTheirOwn() {
    Map<String, String> job = new HashMap<>(Specs.NO_SPECULATION);
    job.put("mapreduce.job.reduce.slowstart.completedmaps", "1.0");
    // every map done before a reduce is asked for: each node has all four slots free for them
    SimulationResult r = Simulation.run(Specs.job(Specs.cluster(4), 8, 3, 5, job));
    assertEquals("SUCCEEDED", r.jobState());
    Set<String> nodes = r.attempts().stream().filter(a -> a.type() == TaskType.REDUCE).map(SimulatedAttempt::node)
        .collect(Collectors.toSet());
    assertEquals(3, nodes.size(), "the reduces' nodes: " + nodes);
  }
}
