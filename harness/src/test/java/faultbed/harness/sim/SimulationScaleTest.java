package faultbed.harness.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulationScaleTest {
  @Test
  void twoHundredNodesTwoThousandMapsAndTwoHundredReducesComplete() {
    SimulationResult result =
        Simulation.run(Specs.job(Specs.cluster(200).withSlowdown(0, 5.0), 2_000, 200, 1, Map.of()));

    assertEquals("SUCCEEDED", result.jobState());
  }
}
