package faultbed.harness.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.junit.jupiter.api.Test;

/** A node dies after its maps succeeded, while the reduces run; Hadoop re-runs those maps elsewhere. */
class SimulationNodeLossTest {
  private static final int DEAD = 5;
  private static final long DEATH = 40_000;

  @Test
  void theDeadNodesFinishedMapsRunAgainOnOtherNodesAndTheJobSucceeds() {
    SimulatedCluster cluster = Specs.cluster(20);
    String deadNode = cluster.node(DEAD).address();
    Latencies quickExpiry = new Latencies(1_000, 3_000, 500, 200, 1_000, 1_000, 1_000, 500, 2_000, 2_000, 5_000);
    SimulationSpec spec = SimulationSpec.of(cluster, 200, 20, Specs.NO_SPECULATION,
        new NoisyTaskTimes(10_000, 20_000, 0.1, 3), quickExpiry, 3)
        .withFaults(Timeline.at(Duration.ofMillis(DEATH)).inject(NodeCrash.on(Target.node(DEAD))), null);

    SimulationResult result = Simulation.run(spec);

    Set<String> mapsDoneOnDeadNode = result.attempts().stream()
        .filter(a -> a.type() == TaskType.MAP && deadNode.equals(a.node()) && a.finish() >= 0 && a.finish() < DEATH)
        .map(SimulatedAttempt::taskId).collect(Collectors.toSet());
    assertFalse(mapsDoneOnDeadNode.isEmpty(), "no map finished on the node before it died");
    assertTrue(result.attempts().stream().anyMatch(a -> a.type() == TaskType.REDUCE && a.start() >= 0
        && a.start() < DEATH && (a.finish() < 0 || a.finish() > DEATH)), "no reduce was running when the node died");
    for (String task : mapsDoneOnDeadNode) {
      assertTrue(result.attempts().stream().anyMatch(a -> a.taskId().equals(task) && a.start() > DEATH
          && !deadNode.equals(a.node()) && a.state() == TaskAttemptState.SUCCEEDED), task + " was not re-run");
    }
    assertEquals("SUCCEEDED", result.jobState());
    assertEquals(DEAD, result.faults().get(0).node());
    assertEquals(DEATH, result.faults().get(0).injectedMs());
  }
}
