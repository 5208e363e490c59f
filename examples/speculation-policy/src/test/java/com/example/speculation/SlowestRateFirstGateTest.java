package com.example.speculation;

import faultbed.junit.FaultbedSuites;
import faultbed.junit.Suites;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The gate this project's CI runs: the policy, in Hadoop's own ApplicationMaster on a simulated
 * cluster with stragglers, must not be slower than when its baseline was accepted. To accept a
 * change on purpose: {@code mvn test -Dfaultbed.updateBaselines=true}, then commit the baseline.
 */
@FaultbedSuites
class SlowestRateFirstGateTest {
  @Test
  void noSlowerThanItsCommittedBaseline(Suites suites) {
    suites.run(Path.of("src/test/faultbed/stragglers.json"))
        .assertNoRegressionAgainst(Path.of("src/test/faultbed/stragglers.baseline.json"));
  }
}
