package faultbed.results.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class DetectionTradeoffTest {
  private static final String EXPIRY = "yarn.nm.liveness-monitor.expiry-interval-ms";

  /**
   * Node 3 fails at 20 s after finishing map 3 and while running reducer 1; map 3 and reducer 1 are
   * re-run elsewhere after LOST at 39.5 s. Reducer 0 raced a backup and lost: not a lost reducer.
   */
  private static SyntheticRun crashOfNode3(String variant) {
    return failureOfNode3(variant, "crash");
  }

  private static SyntheticRun failureOfNode3(String variant, String kind) {
    return new SyntheticRun().variant(variant)
        .map(0, 0, 0, 5_000, 14_000, "SUCCEEDED").map(1, 0, 1, 5_000, 14_000, "SUCCEEDED")
        .map(2, 0, 2, 5_000, 14_000, "SUCCEEDED").map(3, 0, 3, 5_000, 15_000, "KILLED")
        .map(3, 1, 1, 40_500, 43_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 52_000, "KILLED").attempt('r', 0, 1, 2, 30_000, 50_000L, "SUCCEEDED", true, null)
        .reduce(1, 0, 3, 12_000, 39_500, "KILLED").reduce(1, 1, 2, 41_000, 58_000, "SUCCEEDED")
        .fault(kind, 3, 20_000).lost(3, 39_500);
  }

  @Test
  void aCrashRunShowsDetectionTheFirstReactionAndWhatWasRedone() {
    DetectionTradeoff.RunReaction r = DetectionTradeoff.reaction(crashOfNode3("crash").build());
    assertEquals(19_500L, r.unusableAfterMs());
    assertEquals(20_500L, r.firstReactionMs(), "map 3 re-run on node 1 at 40.5 s");
    assertEquals(2, r.reexecutions(), "map 3 and reducer 1; reducer 0 never ran on node 3");
    assertEquals(1, r.finishedMapsRerun());
    assertEquals(20_500L, r.outputsRerunAfterMs());
    assertEquals(1, r.reducersLost(), "reducer 1 killed with its node; reducer 0's original only lost a race");
  }

  /** Which proxy fronted the shuffle differs by cluster start; it is no setting to compare. */
  @Test
  void howTheClusterWasWiredIsNoSetting() {
    DetectionTradeoff t = DetectionTradeoff.of(List.of(
        crashOfNode3("kernel").build(),
        crashOfNode3("proxied").setting("faultbed.shuffle.fronts", "6f1c").build()));
    assertFalse(t.isSweep(), t.points("crash").toString());
    assertEquals("defaults", t.points("crash").get(1).setting());
  }

  @Test
  void aFreezeTheClusterSatThroughCostsNothing() {
    RunRecord frozen = new SyntheticRun().variant("freeze")
        .map(0, 0, 0, 5_000, 14_000, "SUCCEEDED").map(1, 0, 3, 5_000, 30_000, "SUCCEEDED")
        .reduce(0, 0, 3, 12_000, 50_000, "SUCCEEDED").fault("freeze", 3, 20_000).build();
    DetectionTradeoff.RunReaction r = DetectionTradeoff.reaction(frozen);
    assertNull(r.unusableAfterMs());
    assertNull(r.firstReactionMs());
    assertNull(r.outputsRerunAfterMs());
    assertEquals(0, r.reexecutions());
    assertEquals(0, r.reducersLost());
  }

  @Test
  void variantsLineUpBySettingAndTablesSplitByFaultKind() {
    List<RunRecord> suite = List.of(
        new SyntheticRun().variant("baseline").map(0, 0, 0, 0, 10_000, "SUCCEEDED").build(),
        crashOfNode3("defaults-crash").build(), crashOfNode3("defaults-crash").build(),
        failureOfNode3("defaults-freeze", "freeze").build(),
        crashOfNode3("expiry-6s-crash").setting(EXPIRY, "6000").build(),
        failureOfNode3("expiry-6s-freeze", "freeze").setting(EXPIRY, "6000").build());
    DetectionTradeoff t = DetectionTradeoff.of(suite);
    assertTrue(t.isSweep());
    assertEquals(List.of("crash", "freeze"), t.faultKinds());
    assertEquals(List.of("defaults-crash", "expiry-6s-crash"),
        t.points("crash").stream().map(DetectionTradeoff.Point::variant).toList(), "the fault-free variant is left out");
    DetectionTradeoff.Point defaults = t.points("crash").get(0);
    assertEquals("defaults", defaults.setting());
    assertEquals(2, defaults.runs());
    assertEquals(2, defaults.nodeDeclaredUnusable());
    assertEquals(20.5, defaults.firstReactionSeconds().median(), 1e-9);
    assertEquals(2.0, defaults.reexecutionsPerRun(), 1e-9);
    assertEquals(EXPIRY + "=6000", t.points("freeze").get(1).setting());
    assertEquals(0, defaults.failedJobs());
  }

  /** Four real runs of the threshold sweep (namespace backend, timers compressed 20 times), all at 9.1 s. */
  @Test
  void aShortExpiryDetectsTheCrashSoonerAndDeclaresTheFrozenNodeLostToo() {
    DetectionTradeoff t = DetectionTradeoff.of(new RecordStore(DinuNgClassifierTest.fixtures("threshold-sweep")).readAll());
    assertTrue(t.isSweep());
    assertEquals(List.of("crash", "freeze"), t.faultKinds());
    DetectionTradeoff.Point defaultsCrash = t.points("crash").get(0);
    DetectionTradeoff.Point shortCrash = t.points("crash").get(1);
    assertEquals("defaults", defaultsCrash.setting());
    assertEquals(EXPIRY + "=6000", shortCrash.setting());
    assertEquals(37.6, defaultsCrash.unusableAfterSeconds().median(), 0.05);
    assertEquals(7.6, shortCrash.unusableAfterSeconds().median(), 0.05);
    assertTrue(shortCrash.jobSeconds().median() < defaultsCrash.jobSeconds().median());

    DetectionTradeoff.Point defaultsFreeze = t.points("freeze").get(0);
    DetectionTradeoff.Point shortFreeze = t.points("freeze").get(1);
    assertEquals(0, defaultsFreeze.nodeDeclaredUnusable(), "8 s of silence is within the 30 s expiry");
    assertEquals(0.0, defaultsFreeze.reexecutionsPerRun());
    assertEquals(1, shortFreeze.nodeDeclaredUnusable(), "but not within 6 s");
    assertEquals(6.8, shortFreeze.unusableAfterSeconds().median(), 0.05);
    assertEquals(2.0, shortFreeze.reexecutionsPerRun(), "the frozen node's two running maps were run again");
    assertTrue(shortFreeze.jobSeconds().median() > defaultsFreeze.jobSeconds().median());
  }

  @Test
  void oneSettingAloneIsNoSweep() {
    assertFalse(DetectionTradeoff.of(List.of(crashOfNode3("crash").build())).isSweep());
  }
}
