package faultbed.harness.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulationDeterminismTest {
  private static SimulationResult run(long seed) {
    return Simulation.run(Specs.job(Specs.cluster(20).withSlowdown(3, 5.0), 200, 20, seed, Map.of()));
  }

  @Test
  void theSameSeedGivesTheSameAttemptsAndCompletionTime() {
    SimulationResult first = run(11);
    SimulationResult second = run(11);

    assertEquals("SUCCEEDED", first.jobState());
    assertEquals(first.completionTime(), second.completionTime());
    assertEquals(first.attempts(), second.attempts());
  }

  @Test
  void anotherSeedGivesOtherTimes() {
    SimulationResult first = run(11);
    SimulationResult other = run(12);

    assertNotEquals(times(first), times(other));
  }

  private static List<List<Long>> times(SimulationResult result) {
    return result.attempts().stream().map(a -> List.of(a.start(), a.finish())).toList();
  }
}
