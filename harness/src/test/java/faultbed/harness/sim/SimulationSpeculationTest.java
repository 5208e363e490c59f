package faultbed.harness.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.junit.jupiter.api.Test;

/** One node five times slower; DefaultSpeculator, not the simulation, decides to back up its maps. */
class SimulationSpeculationTest {
  private static final SimulatedCluster CLUSTER = Specs.cluster(20).withSlowdown(3, 5.0);
  private static final String SLOW_NODE = CLUSTER.node(3).address();

  @Test
  void hadoopSpeculatesAMapOfTheSlowNodeElsewhereAndTheJobFinishesSooner() {
    SimulationResult speculating = Simulation.run(Specs.job(CLUSTER, 200, 20, 7, Map.of()));
    SimulationResult notSpeculating =
        Simulation.run(Specs.job(CLUSTER, 200, 20, 7, Specs.NO_SPECULATION));

    List<SimulatedAttempt> backups = speculating.attempts().stream()
        .filter(a -> a.speculative() && a.type() == TaskType.MAP).toList();
    assertFalse(backups.isEmpty(), "no speculative map attempt");
    for (SimulatedAttempt backup : backups) {
      assertTrue(backup.node() != null && !backup.node().equals(SLOW_NODE), "backup on the slow node: " + backup);
    }
    assertTrue(speculating.attempts().stream().anyMatch(a -> a.node() != null && a.node().equals(SLOW_NODE)
        && backups.stream().anyMatch(b -> b.taskId().equals(a.taskId()))), "no backup of a slow-node map");
    assertTrue(notSpeculating.attempts().stream().noneMatch(SimulatedAttempt::speculative));
    assertEquals("SUCCEEDED", speculating.jobState());
    assertEquals("SUCCEEDED", notSpeculating.jobState());
    assertTrue(speculating.completionTime() < notSpeculating.completionTime(),
        speculating.completionTime() + " ms with speculation, " + notSpeculating.completionTime() + " ms without");
  }
}
