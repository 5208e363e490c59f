package faultbed.harness.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import faultbed.harness.timeline.SlowNode;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import java.time.Duration;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.junit.jupiter.api.Test;

/**
 * Where the stand-in scheduler puts containers, as the CapacityScheduler would: a reduce's request
 * names no host or rack, so it is an off-switch assignment, and a node is given nothing more in the
 * heartbeat it got one; reduces asked for together go to as many nodes as have room. And what a
 * reduce's node does to its shuffle: the last of it is work on the node's CPU, as a task's is.
 */
class SimulationPlacementTest {
  @Test
  void aReducesShuffleEndsLaterOnANodeHeldToAQuarterOfACore() {
    Map<String, String> job = new HashMap<>(Specs.NO_SPECULATION);
    job.put("mapreduce.job.reduce.slowstart.completedmaps", "1.0");
    NoisyTaskTimes base = new NoisyTaskTimes(10_000, 20_000, 0.1, 5);
    TaskTimes withShuffleWork = new TaskTimes() {
      @Override
      public MapWork mapWork(TaskAttemptId attempt, SimulatedNode node) {
        return base.mapWork(attempt, node);
      }

      @Override
      public long reduceMillis(TaskAttemptId attempt, SimulatedNode node) {
        return base.reduceMillis(attempt, node);
      }

      @Override
      public long shuffleWork(TaskAttemptId attempt, SimulatedNode node, boolean launchedLate) {
        return 2_000;
      }
    };
    SimulationSpec spec = SimulationSpec.of(Specs.cluster(4), 8, 4, job, withShuffleWork, Latencies.defaults(), 5)
        .withFaults(Timeline.at(Duration.ZERO).inject(new SlowNode(Target.node(1), 0.25, null, null, null)),
            kinds -> 1.0);
    SimulationResult r = Simulation.run(spec);
    assertEquals("SUCCEEDED", r.jobState());
    String slowed = Specs.cluster(4).node(1).address();
    Map<Boolean, java.util.List<Long>> shuffles = r.attempts().stream().filter(a -> a.type() == TaskType.REDUCE)
        .collect(Collectors.partitioningBy(a -> slowed.equals(a.node()),
            Collectors.mapping(a -> a.shuffleFinish() - a.start(), Collectors.toList())));
    assertEquals(1, shuffles.get(true).size(), "one reduce on the slowed node: " + shuffles);
    // 2 s of work: about 2 s on a node with cores to spare, about 8 s on a quarter of a core
    for (long elsewhere : shuffles.get(false)) {
      assertTrue(elsewhere >= 2_000 && elsewhere < 3_000, "shuffle elsewhere " + elsewhere);
    }
    assertTrue(shuffles.get(true).get(0) >= 8_000 && shuffles.get(true).get(0) < 9_000,
        "shuffle on the slowed node " + shuffles.get(true));
  }

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
