package faultbed.results.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RunRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DinuNgComparisonTest {
  /** Four maps, one per node, done by 15 s; reducers on nodes 0 and 2 from 12 s. */
  private static SyntheticRun fourMaps(String variant) {
    SyntheticRun run = new SyntheticRun().variant(variant);
    for (int m = 0; m < 3; m++) {
      run.map(m, 0, m, 5_000, 14_000 + m * 100, "SUCCEEDED");
    }
    return run;
  }

  /** Map 3's output lost with node 3 and re-run only after LOST: G1 or G2, recovered at expiry. */
  private static SyntheticRun lostOutputRerunAtExpiry(String variant, long lostMs, long finishedMs) {
    return fourMaps(variant).map(3, 0, 3, 5_000, 15_000, "KILLED").map(3, 1, 1, lostMs + 1_000, lostMs + 3_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 50_000, "SUCCEEDED")
        .crash(3, 20_000).lost(3, lostMs).finished(finishedMs);
  }

  @Test
  void eachFailureVariantIsSetBesideTheFaultFreeTime() {
    RunRecord failed = fourMaps("crash").map(3, 0, 3, 5_000, 15_000, "KILLED")
        .reduce(1, 0, 2, 12_000, 80_000, "KILLED").crash(3, 20_000).lost(3, 41_000)
        .attempt('r', 0, 0, 0, 12_000L, 25_000L, "FAILED", false, "Shuffle Error: exceeded MAX_FAILED_UNIQUE_FETCHES")
        .jobFailed(80_000, "Job failed as tasks failed.").build();
    List<RunRecord> suite = List.of(
        fourMaps("baseline").finished(40_000).build(),
        lostOutputRerunAtExpiry("crash", 39_500, 60_000).build(),
        fourMaps("crash").map(3, 0, 3, 5_000, 15_000, "SUCCEEDED").reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED")
            .reduce(1, 0, 2, 12_000, 50_000, "SUCCEEDED").crash(3, 45_000).lost(3, 66_000).finished(50_500).build(),
        failed,
        lostOutputRerunAtExpiry("crash-no-rst", 42_000, 64_000).build(),
        fourMaps("baseline").finished(42_000).build());

    DinuNgComparison c = DinuNgComparison.of(suite);
    assertEquals(2, c.faultFreeSeconds().n());
    assertEquals(41.0, c.faultFreeSeconds().median(), 1e-9);
    assertEquals(List.of("crash", "crash-no-rst"), c.columns().stream().map(DinuNgComparison.Column::variant).toList());

    DinuNgComparison.Column crash = c.columns().get(0);
    assertEquals(3, crash.runs());
    assertEquals(1, crash.failedJobs());
    assertEquals(Map.of(DinuNgGroup.G1, 1, DinuNgGroup.G7, 1, DinuNgGroup.G8, 1), crash.groups());
    assertEquals(20.0, crash.expirySeconds(), 1e-9, "the runs' expiry setting");
    assertEquals(1.0, crash.timeScale(), 1e-9, "records without a time scale are uncompressed");
    assertEquals(2, crash.jobSeconds().n(), "successful runs only");
    assertEquals(60.0 / 41.0, crash.slowestMultiple(c.faultFreeSeconds()), 1e-9);
    assertEquals(20.0 / 41.0, crash.expiryMultiple(c.faultFreeSeconds()), 1e-9);
    int failedRedidWork = DinuNgClassifier.classify(failed).recovery() == Recovery.NONE_NEEDED ? 0 : 1;
    assertEquals(1 + failedRedidWork, crash.impacted(), "the G7 run redid nothing");
    assertEquals(1, crash.waitedForExpiry());
    assertEquals(1, crash.inducedDeaths(), "r_000000_0 on node 0, alive, failed with MAX_FAILED_UNIQUE_FETCHES");

    DinuNgComparison.Column noRst = c.columns().get(1);
    // failure at 20 s, before the last liveness check ahead of the 41 s fault-free end
    assertEquals(Map.of(DinuNgGroup.G1, 1), noRst.groups());
    assertEquals(1, noRst.impacted());
    assertEquals(1, noRst.waitedForExpiry());
  }

  @Test
  void aSuiteWithoutNodeFailuresHasNothingToSetBesideThePaper() {
    DinuNgComparison c = DinuNgComparison.of(List.of(fourMaps("baseline").finished(40_000).build(),
        fourMaps("slow").fault("latency", 2, 10_000).build()));
    assertTrue(c.isEmpty(), "a latency fault takes no node down: " + c.columns());
  }

  /** The failed-job rate against the paper's 7 of 200: Fisher's exact test, two-sided (SciPy's fisher_exact agrees). */
  @Test
  void failedJobsAreTestedAgainstThePapersRate() {
    DinuNgComparison.Paper paper = DinuNgComparison.PAPER;
    java.util.function.IntFunction<DinuNgComparison.Column> failing = f -> new DinuNgComparison.Column("crash", 200,
        60, 1, faultbed.results.Distribution.of(new double[] {50}), f, Map.of(), 0, 0, 0);
    assertEquals(0.014812962642872842, failing.apply(0).failedJobsPValue(paper), 1e-12);
    assertEquals(1.0, failing.apply(7).failedJobsPValue(paper), 1e-12);
    assertTrue(Double.isNaN(new DinuNgComparison.Column("crash", 0, 60, 1, faultbed.results.Distribution.of(new double[0]),
        0, Map.of(), 0, 0, 0).failedJobsPValue(paper)));
  }
}
