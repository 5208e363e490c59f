package faultbed.results.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DinuNgClassifierTest {
  private static final String SHUFFLE_DEATH = "Error: org.apache.hadoop.mapreduce.task.reduce.Shuffle$ShuffleError:"
      + " error in shuffle in fetcher#1\nCaused by: java.io.IOException: Exceeded MAX_FAILED_UNIQUE_FETCHES; bailing-out.";
  private static final String FETCH_FAILED = "Too many fetch failures. Failing the attempt. Last failure reported by"
      + " attempt_1_0001_r_000000_0 from host localhost";

  static Path fixtures(String name) {
    try {
      return Path.of(DinuNgClassifierTest.class.getResource("/records/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Four maps, one per node, done by 15 s; reducers on nodes 0 and 2 from 12 s. */
  private static SyntheticRun fourMapsTwoReducers() {
    SyntheticRun run = new SyntheticRun();
    for (int m = 0; m < 3; m++) {
      run.map(m, 0, m, 5_000, 14_000 + m * 100, "SUCCEEDED");
    }
    return run;
  }

  private static String evidence(Classification c) {
    return String.join("\n", c.evidence());
  }

  @Test
  void quickstartCrashesInTheFirstMapWaveAreG6RecoveredAtExpiry() {
    List<Classification> all = DinuNgClassifier.classifyAll(new RecordStore(fixtures("quickstart")).readAll());
    assertEquals(5, all.size());
    Classification baseline = all.get(0);
    assertEquals(DinuNgGroup.NO_FAULT, baseline.group());
    assertEquals(Recovery.NONE_NEEDED, baseline.recovery());
    for (Classification c : all.subList(1, 5)) {
      assertEquals(DinuNgGroup.G6, c.group(), c.runId() + "\n" + evidence(c));
      assertEquals(Recovery.NODE_EXPIRY, c.recovery(), evidence(c));
      assertEquals(List.of(Mechanism.RUNNING_ATTEMPTS_LOST), c.mechanisms());
      assertTrue(evidence(c).contains("waited for the expiry"), evidence(c));
    }
    Classification crash1 = all.get(2);
    assertEquals("crash-001", crash1.runId());
    String e = evidence(crash1);
    assertTrue(e.contains("crash of node 1 at 9.4 s"), e);
    assertTrue(e.contains("node LOST at 29.0 s: detection 19.6 s, within the expiry 20.0 s"), e);
    assertTrue(e.contains("m_000001_0 KILLED at 39.2 s (10.1 s after LOST"), e);
    assertTrue(e.contains("m_000001_1 started at 40.2 s on node 0 (node expiry)"), e);
    assertTrue(evidence(all.get(1)).contains("detection 22.2 s = expiry 20.0 s + 2.2 s"), evidence(all.get(1)));
  }

  /** A real run of am-crash.json: the AM's node crashed once 4 of 8 maps had finished. */
  @Test
  void realCrashOfTheAmsNodeIsAmLostWithBothAmAttemptsInTheRecord() {
    RunRecord r = new RecordStore(fixtures("am-lost")).readAll().get(0);
    assertEquals(2, r.amAttempts().size());
    assertEquals(r.faults().get(0).node(), r.amAttempts().get(0).node());
    assertTrue(r.attempts().stream().anyMatch(a -> a.amAttempt() == 1 && a.node() == r.faults().get(0).node()),
        "the first AM attempt's task attempts on the crashed node are in the record");
    Classification c = DinuNgClassifier.classify(r);
    String e = evidence(c);
    assertEquals(DinuNgGroup.AM_LOST, c.group(), e);
    assertEquals(Recovery.NODE_EXPIRY, c.recovery(), e);
    assertTrue(c.mechanisms().contains(Mechanism.AM_RESTARTED), e);
    assertTrue(e.contains("the job's ApplicationMaster (attempt 1) ran on the failed node 0; attempt 2 started on node 1"
        + " at 37.3 s, after the node was declared unusable at 36.2 s, and 7 task attempt(s) of it ran work not"
        + " finished before the failure"), e);
  }

  /**
   * The same run as records before AM attempts were kept hold it (the last AM's task attempts
   * only): the attempt numbers from 1000 still show the AM was lost.
   */
  @Test
  void anOlderRecordWithoutAmAttemptsIsStillAmLostFromItsAttemptNumbers() {
    RunRecord r = new RecordStore(fixtures("am-lost")).readAll().get(0);
    RunRecord old = new RunRecord(r.schemaVersion(), r.runId(), r.scenario(), r.variant(), r.runIndex(), r.seed(),
        r.startedAt(), r.cluster(), r.hadoop(), r.workload(), r.nodes(), r.faults(), r.nodeTransitions(),
        r.attempts().stream().filter(a -> a.amAttempt() == 2).toList(), r.fetchFailures(), r.job(), r.harnessMs(),
        r.notes(), r.speculation(), r.timeScale(), r.companionJobs(), r.block(), r.provenance(), List.of(), null, null, null, null, null, null, null, null);
    Classification c = DinuNgClassifier.classify(old);
    assertEquals(DinuNgGroup.AM_LOST, c.group(), evidence(c));
    assertTrue(c.mechanisms().contains(Mechanism.AM_RESTARTED));
    assertTrue(evidence(c).contains("a later ApplicationMaster attempt ran the job from 41.3 s"), evidence(c));
  }

  /** One AM attempt and no attempt numbered from 1000: the AM was never lost. */
  @Test
  void aRunWhoseAmSurvivedIsNeverAmLost() {
    for (Classification c : DinuNgClassifier.classifyAll(new RecordStore(fixtures("quickstart")).readAll())) {
      assertFalse(c.mechanisms().contains(Mechanism.AM_RESTARTED), evidence(c));
    }
  }

  @Test
  void realCrashAfterTwoMapsLosesTheirOutputsAndWaitsOneCheckMoreThanTheExpiry() {
    Classification c = DinuNgClassifier.classify(new RecordStore(fixtures("lost-map-outputs")).readAll().get(0));
    assertEquals(DinuNgGroup.G2, c.group(), evidence(c));
    assertEquals(Recovery.NODE_EXPIRY, c.recovery());
    assertTrue(c.mechanisms().contains(Mechanism.MAP_OUTPUTS_LOST));
    assertTrue(evidence(c).contains("map output lost: m_000001 finished on node 0 at 13.5 s, KILLED; re-run as m_000001_1 at 33.6 s"),
        evidence(c));
    assertTrue(evidence(c).contains("detection 16.9 s = expiry 15.0 s + 1.9 s"), evidence(c));
  }

  @Test
  void lostOutputRerunAtExpiryIsG1WhenDetectedWithinTheExpiryAndG2Otherwise() {
    SyntheticRun g1 = fourMapsTwoReducers().map(3, 0, 3, 5_000, 15_000, "KILLED").map(3, 1, 1, 40_500, 43_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 50_000, "SUCCEEDED")
        .crash(3, 20_000).lost(3, 39_500).report(20_300, 0, 0, 0, 3, 3);
    Classification c1 = DinuNgClassifier.classify(g1.build());
    assertEquals(DinuNgGroup.G1, c1.group(), evidence(c1));
    assertEquals(Recovery.NODE_EXPIRY, c1.recovery());
    assertTrue(evidence(c1).contains("1 fetch-failure report(s) about node 3's map outputs"), evidence(c1));

    SyntheticRun g2 = fourMapsTwoReducers().map(3, 0, 3, 5_000, 15_000, "KILLED").map(3, 1, 1, 43_000, 45_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 50_000, "SUCCEEDED")
        .crash(3, 20_000).lost(3, 42_000);
    Classification c2 = DinuNgClassifier.classify(g2.build());
    assertEquals(DinuNgGroup.G2, c2.group(), evidence(c2));
    assertTrue(evidence(c2).contains("detection 22.0 s = expiry 20.0 s + 2.0 s"), evidence(c2));
  }

  /**
   * Map 3 succeeded at 19.5 s, but the AM still waited for its container to exit when node 3
   * crashed at 20 s; the kill after the clean-up gave up (169.5 s) overwrote its end times. Its
   * output was lost, not a running map: G1, not G6.
   */
  @Test
  void aMapKilledAfterItSucceededIsALostOutputNotARunningMap() {
    SyntheticRun run = fourMapsTwoReducers().succeededThenKilled(3, 0, 3, 5_000, 19_500, 169_500)
        .map(3, 1, 1, 170_000, 172_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 175_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 175_000, "SUCCEEDED")
        .crash(3, 20_000).lost(3, 39_500);
    Classification c = DinuNgClassifier.classify(run.build());
    assertEquals(DinuNgGroup.G1, c.group(), evidence(c));
    assertTrue(c.mechanisms().contains(Mechanism.MAP_OUTPUTS_LOST), evidence(c));
    assertFalse(c.mechanisms().contains(Mechanism.RUNNING_ATTEMPTS_LOST), evidence(c));
    assertTrue(evidence(c).contains("finished on node 3 at 19.5 s, KILLED at 169.5 s"), evidence(c));
    assertTrue(evidence(c).contains("had finished 1 map(s) and was running nothing"), evidence(c));
  }

  /** Map 3 on node 3 as the fourth map; reducers done at 44 s, the job at 45 s. */
  private static RunRecord faultFree45s() {
    return fourMapsTwoReducers().variant("baseline").map(3, 0, 3, 5_000, 15_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 44_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 44_000, "SUCCEEDED").finished(45_000).build();
  }

  /** Node 3 crashes at 20 s and is LOST at 39.5 s; its map output is re-run from 40.5 s. */
  private static SyntheticRun crashAt20sRerunAfterLost() {
    return fourMapsTwoReducers().map(3, 0, 3, 5_000, 15_000, "KILLED").map(3, 1, 1, 40_500, 43_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 50_000, "SUCCEEDED")
        .crash(3, 20_000).lost(3, 39_500);
  }

  /**
   * The paper's rule (section 4.1): checks fall on a grid every expiry/3; a failure after the last
   * check before the fault-free job end is found one check later, G2. The grid is read off the
   * check that declared the node LOST; the fault-free end is the suite's, else its G7 runs'.
   */
  @Test
  void inASuiteAFailureAfterTheLastCheckBeforeTheFaultFreeEndIsG2AndOneBeforeItG1() {
    RunRecord faultFree = faultFree45s();
    // failure at 20 s, LOST at 39.5 s: before the last check (39.5 s, as LOST came before 45 s)
    RunRecord early = crashAt20sRerunAfterLost().build();
    // failure at 44 s, LOST at 66 s: checks every 6.67 s put the last before 45 s at 39.3 s
    RunRecord late = fourMapsTwoReducers().map(3, 0, 3, 5_000, 15_000, "KILLED").map(3, 1, 1, 66_500, 68_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 75_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 75_000, "SUCCEEDED")
        .crash(3, 44_000).lost(3, 66_000).finished(76_000).build();
    List<Classification> all = DinuNgClassifier.classifyAll(List.of(faultFree, early, late));
    assertEquals(DinuNgGroup.G1, all.get(1).group(), evidence(all.get(1)));
    assertTrue(evidence(all.get(1)).contains("the last before the job would have ended without the failure (45.0 s,"
        + " median of 1 fault-free run(s)) was at 39.5 s, and the failure at 20.0 s came before it"), evidence(all.get(1)));
    assertEquals(DinuNgGroup.G2, all.get(2).group(), evidence(all.get(2)));
    assertTrue(evidence(all.get(2)).contains("was at 39.3 s, and the failure at 44.0 s came after it"), evidence(all.get(2)));

    // no fault-free run of this workload: the runs whose failure cost nothing stand in for one
    RunRecord unaffected = fourMapsTwoReducers().map(3, 0, 3, 5_000, 15_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 44_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 44_000, "SUCCEEDED")
        .crash(3, 44_500).finished(45_000).build();
    List<Classification> noBaseline = DinuNgClassifier.classifyAll(List.of(unaffected, early, late));
    assertEquals(DinuNgGroup.G7, noBaseline.get(0).group(), evidence(noBaseline.get(0)));
    assertEquals(List.of(DinuNgGroup.G1, DinuNgGroup.G2), List.of(noBaseline.get(1).group(), noBaseline.get(2).group()));
    assertTrue(evidence(noBaseline.get(2)).contains("(45.0 s, median of 1 run(s) whose failure cost nothing (G7)"),
        evidence(noBaseline.get(2)));
  }

  /**
   * The delay is split along the critical path: a re-run after expiry puts detection, queueing and
   * re-execution on it, with the shuffle that was done meanwhile as a credit; a run slower with
   * nothing of the failure on its path is unexplained.
   */
  @Test
  void aDelayIsSplitAlongTheCriticalPathAndOneWithNothingOfTheFailureOnItIsUnexplained() {
    RunRecord faultFree = faultFree45s();
    RunRecord atExpiry = crashAt20sRerunAfterLost().finished(51_000).build();
    RunRecord slowForNothing = fourMapsTwoReducers().map(3, 0, 3, 5_000, 15_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 59_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 59_000, "SUCCEEDED")
        .crash(3, 44_500).finished(60_000).build();
    List<Classification> all = DinuNgClassifier.classifyAll(List.of(faultFree, atExpiry, slowForNothing));

    DelayAccount d = all.get(1).delay();
    assertEquals(6_000, d.delayMs());
    assertEquals(java.util.Map.of("detection (node expiry)", 19_500L, "queueing for a container", 1_000L,
            "re-execution", 2_500L, "failure after the maps would have ended", 5_000L,
            "shuffle after the re-run output (fetches, retries, back-off)", -22_000L),
        d.parts().stream().filter(p -> p.ms() != 0).collect(java.util.stream.Collectors.toMap(
            DelayAccount.Part::name, DelayAccount.Part::ms)));
    assertEquals(0, d.residualMs());
    assertFalse(d.unexplained(), d.describe());
    assertTrue(evidence(all.get(1)).contains("delay +6.0 s against 45.0 s (median of 1 fault-free run(s)):"
        + " shuffle after the re-run output (fetches, retries, back-off) -22.0, detection (node expiry) +19.5,"), evidence(all.get(1)));

    DelayAccount slow = all.get(2).delay();
    assertEquals(DinuNgGroup.G7, all.get(2).group());
    assertEquals(15_000, slow.unexplainedMs());
    assertTrue(slow.unexplained(), slow.describe());
    assertTrue(slow.describe().endsWith("UNEXPLAINED: +15.0 s of it lies in no mechanism of the failure (more than a"
        + " tenth of the delay and the reference's spread, 2.3 s)"), slow.describe());
    assertNull(DinuNgClassifier.classify(atExpiry).delay(), "alone, a run has no reference to be set against");
  }

  /**
   * A reducer slow for reasons of its own gets a backup after the crash; the backup cannot fetch the
   * dead node's outputs (the original had copied them) and is killed when the original ends. The
   * original's long shuffle is then the failure's: it took away the backup that would have won.
   */
  @Test
  void aSlowReducerWhoseBackupTheFailureStalledIsNamed() {
    RunRecord faultFree = faultFree45s();
    RunRecord stalled = fourMapsTwoReducers().map(3, 0, 3, 5_000, 15_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 44_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 79_000, "SUCCEEDED")
        .attempt('r', 1, 1, 1, 30_000, 79_000L, "KILLED", true, null)
        .report(45_000, 1, 1, 1, 3, 3).report(60_000, 1, 1, 1, 3, 3)
        .crash(3, 20_000).finished(80_000).build();
    List<Classification> all = DinuNgClassifier.classifyAll(List.of(faultFree, stalled));
    DelayAccount d = all.get(1).delay();
    assertEquals(35_000, d.delayMs());
    assertTrue(d.parts().contains(new DelayAccount.Part(
        "shuffle of the slow original (its backup stalled on the failed node's outputs)", 35_000, true)), d.describe());
    assertFalse(d.unexplained(), d.describe());

    // without the backup's reports the same delay lies in no mechanism of the failure
    RunRecord slowAlone = fourMapsTwoReducers().map(3, 0, 3, 5_000, 15_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 44_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 79_000, "SUCCEEDED")
        .attempt('r', 1, 1, 1, 30_000, 79_000L, "KILLED", true, null)
        .crash(3, 20_000).finished(80_000).build();
    assertTrue(DinuNgClassifier.classifyAll(List.of(faultFree, slowAlone)).get(1).delay().unexplained());
  }

  /**
   * A node that ran nothing dies before the last map is placed: that map waits for a slot elsewhere,
   * a wave later. Nothing is re-run, but the longer map phase is the failure's: one node fewer.
   */
  @Test
  void aLongerMapPhaseAfterAnEarlyCrashIsNamedAsOneNodeFewer() {
    RunRecord faultFree = faultFree45s();
    RunRecord oneNodeFewer = fourMapsTwoReducers().map(3, 0, 1, 14_100, 24_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 54_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 54_000, "SUCCEEDED")
        .crash(3, 2_000).finished(55_000).build();
    List<Classification> all = DinuNgClassifier.classifyAll(List.of(faultFree, oneNodeFewer));
    DelayAccount d = all.get(1).delay();
    assertEquals(DinuNgGroup.G7, all.get(1).group(), evidence(all.get(1)));
    assertEquals(10_000, d.delayMs());
    assertTrue(d.parts().contains(new DelayAccount.Part("maps on one node fewer", 9_000, true)), d.describe());
    assertFalse(d.unexplained(), d.describe());
  }

  /**
   * Records written before the history reader read an unfinished attempt's host from its start name
   * no node for it: a crash that found "nothing" on its node says the node may have been running it.
   */
  @Test
  void attemptsWithNoNodeRunningAtTheFailureAreNamedBesideG7() {
    RunRecord run = fourMapsTwoReducers().map(3, 0, 1, 14_100, 24_000, "SUCCEEDED").unplaced('m', 3, 0, 5_000)
        .reduce(0, 0, 0, 12_000, 45_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 45_000, "SUCCEEDED")
        .crash(3, 9_000).finished(46_000).build();
    Classification c = DinuNgClassifier.classify(run);
    assertEquals(DinuNgGroup.G7, c.group(), evidence(c));
    assertTrue(evidence(c).contains("the record names no node for 1 attempt(s) running at the failure (m_000003_0"),
        evidence(c));
  }

  @Test
  void earlyReportsFromTheOriginalReducersAreG5() {
    SyntheticRun run = fourMapsTwoReducers().attempt('m', 3, 0, 3, 5_000L, 15_000L, "FAILED", false, FETCH_FAILED)
        .map(3, 1, 1, 34_000, 36_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 45_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 45_000, "SUCCEEDED")
        .reduce(2, 0, 1, 12_000, 45_000, "SUCCEEDED")
        .crash(3, 20_000).lost(3, 40_000)
        .report(20_300, 0, 0, 0, 3, 3).report(20_400, 1, 0, 2, 3, 3).report(33_500, 2, 0, 1, 3, 3);
    Classification c = DinuNgClassifier.classify(run.build());
    assertEquals(DinuNgGroup.G5, c.group(), evidence(c));
    assertTrue(evidence(c).contains("G5: every report the AM needed was its reducer's first"), evidence(c));
    assertEquals(Recovery.FETCH_FAILURE_REPORTS, c.recovery());
    assertTrue(c.mechanisms().containsAll(List.of(Mechanism.MAP_OUTPUTS_LOST, Mechanism.FETCH_FAILURE_REPORTS)));
    assertTrue(evidence(c).contains("after 3 fetch-failure report(s) about m_000003_0 at 20.3 s, 20.4 s, 33.5 s"), evidence(c));
  }

  /** Two outputs lost: one re-run early on reports, one only at expiry. The job waited for the second. */
  @Test
  void theLastReRunOfSeveralLostOutputsDecidesTheGroup() {
    SyntheticRun run = new SyntheticRun()
        .map(0, 0, 0, 5_000, 14_000, "SUCCEEDED").map(1, 0, 1, 5_000, 14_100, "SUCCEEDED")
        .attempt('m', 2, 0, 3, 5_000L, 15_000L, "FAILED", false, FETCH_FAILED).map(2, 1, 1, 23_000, 25_000, "SUCCEEDED")
        .map(3, 0, 3, 5_000, 15_500, "KILLED").map(3, 1, 0, 41_000, 43_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 50_000, "SUCCEEDED")
        .crash(3, 20_000).lost(3, 40_000).finished(50_000)
        .report(20_300, 0, 0, 0, 2, 3).report(20_400, 1, 0, 2, 2, 3).report(22_500, 0, 0, 0, 2, 3);
    Classification c = DinuNgClassifier.classify(run.build());
    String e = evidence(c);
    assertEquals(DinuNgGroup.G1, c.group(), e);
    assertEquals(Recovery.NODE_EXPIRY, c.recovery(), e);
    assertTrue(e.contains("2 map outputs lost: 1 re-run before the node was declared unusable, 1 after; the last"
        + " re-run, m_000003_1 at 41.0 s, decides the recovery"), e);
    assertFalse(c.mechanisms().contains(Mechanism.DECLARED_LOST_BY_REPORTS), e);
  }

  /** An output declared lost by reports before expiry, yet re-run only after it: tagged so. */
  @Test
  void anOutputDeclaredLostEarlyButReRunAfterExpiryIsTagged() {
    SyntheticRun run = fourMapsTwoReducers().attempt('m', 3, 0, 3, 5_000L, 15_000L, "FAILED", false, FETCH_FAILED)
        .map(3, 1, 1, 40_400, 42_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 50_000, "SUCCEEDED")
        .crash(3, 20_000).lost(3, 40_000).finished(50_000)
        .report(20_300, 0, 0, 0, 3, 3).report(20_400, 1, 0, 2, 3, 3).report(33_500, 0, 0, 0, 3, 3);
    Classification c = DinuNgClassifier.classify(run.build());
    String e = evidence(c);
    assertEquals(DinuNgGroup.G1, c.group(), e);
    assertTrue(c.mechanisms().contains(Mechanism.DECLARED_LOST_BY_REPORTS), e);
    assertTrue(e.contains("m_000003 was declared lost by fetch-failure reports (the last at 33.5 s, 6.5 s before the node"
        + " was declared unusable at 40.0 s), yet its re-run started only at 40.4 s, 0.4 s after that"), e);
  }

  @Test
  void aReportAfterTheCountingPathIsLateG4() {
    // default expiry (600 s): the counting path, 9 penalties capped at 60 s = 345.8 s, ends before it
    SyntheticRun run = fourMapsTwoReducers().setting("yarn.nm.liveness-monitor.expiry-interval-ms", "600000")
        .attempt('m', 3, 0, 3, 5_000L, 15_000L, "FAILED", false, FETCH_FAILED)
        .map(3, 1, 1, 381_000, 383_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 390_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 390_000, "SUCCEEDED")
        .crash(3, 20_000).lost(3, 620_000).finished(391_000)
        .report(20_300, 0, 0, 0, 3, 3).report(20_400, 1, 0, 2, 3, 3).report(380_000, 0, 0, 0, 3, 3);
    Classification c = DinuNgClassifier.classify(run.build());
    assertEquals(DinuNgGroup.G4, c.group(), evidence(c));
    assertTrue(evidence(c).contains("r_000000_0 at 380.0 s (359.7 s after its first)"), evidence(c));
  }

  @Test
  void reportsFromASpeculativeReducerAreG3() {
    SyntheticRun run = fourMapsTwoReducers().attempt('m', 3, 0, 3, 5_000L, 15_000L, "FAILED", false, FETCH_FAILED)
        .map(3, 1, 1, 28_000, 30_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 45_000, "SUCCEEDED").reduce(1, 0, 3, 12_000, 44_000, "KILLED")
        .attempt('r', 1, 1, 1, 22_000L, 45_000L, "SUCCEEDED", true, null)
        .crash(3, 20_000).lost(3, 40_000)
        .report(23_000, 1, 1, 1, 3, 3).report(24_000, 1, 1, 1, 3, 3).report(27_000, 1, 1, 1, 3, 3);
    Classification c = DinuNgClassifier.classify(run.build());
    assertEquals(DinuNgGroup.G3, c.group(), evidence(c));
    assertTrue(c.mechanisms().contains(Mechanism.SPECULATIVE_REDUCER));
    assertTrue(evidence(c).contains("speculative reduce attempt r_000001_1 on node 1 from 22.0 s (after the failure)"), evidence(c));
  }

  @Test
  void mapsRunningOnTheNodeReplacedBySpeculationAreG6WithoutWaitingForExpiry() {
    SyntheticRun run = fourMapsTwoReducers().map(3, 0, 3, 5_000, 30_000, "KILLED")
        .attempt('m', 3, 1, 1, 12_000L, 16_000L, "SUCCEEDED", true, null)
        .reduce(0, 0, 0, 12_000, 25_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 25_000, "SUCCEEDED")
        .crash(3, 10_000).lost(3, 30_000).finished(26_000);
    Classification c = DinuNgClassifier.classify(run.build());
    assertEquals(DinuNgGroup.G6, c.group(), evidence(c));
    assertEquals(Recovery.SPECULATION, c.recovery());
    assertTrue(c.mechanisms().containsAll(List.of(Mechanism.RUNNING_ATTEMPTS_LOST, Mechanism.SPECULATIVE_MAP)));
  }

  @Test
  void failureAfterTheNodesWorkWasDoneAndFetchedIsG7() {
    SyntheticRun run = fourMapsTwoReducers().map(3, 0, 3, 5_000, 15_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 50_000, "SUCCEEDED")
        .crash(3, 45_000).lost(3, 66_000).finished(50_500);
    Classification c = DinuNgClassifier.classify(run.build());
    assertEquals(DinuNgGroup.G7, c.group(), evidence(c));
    assertEquals(Recovery.NONE_NEEDED, c.recovery());
    assertTrue(c.mechanisms().isEmpty());
    assertTrue(evidence(c).contains("every task the node had run was done at the failure"), evidence(c));
  }

  @Test
  void aCrashBeforeTheNodesFirstTaskIsG7AndSaysSo() {
    SyntheticRun run = fourMapsTwoReducers().map(3, 0, 1, 5_000, 15_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 50_000, "SUCCEEDED")
        .crash(3, 2_000).lost(3, 23_000).finished(50_500);
    Classification c = DinuNgClassifier.classify(run.build());
    assertEquals(DinuNgGroup.G7, c.group(), evidence(c));
    assertTrue(evidence(c).contains("the node had not yet been given any task"), evidence(c));
  }

  /**
   * A map that succeeded just before its node crashed, killed when the node is declared lost, gets
   * its reducers' last fetch-failure report while the AM waits to clean its container up on the dead
   * node: Hadoop 3.4's AM refuses the event and ends the job in ERROR (seen in fail-slow's crashes).
   */
  @Test
  void aFetchFailureEventTheAmRefusesIsNamedWithTheKillItCameDuring() {
    SyntheticRun run = fourMapsTwoReducers().map(3, 0, 3, 5_000, 19_800, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 60_000, "KILLED").reduce(1, 0, 2, 12_000, 60_000, "KILLED")
        .crash(3, 20_000).lost(3, 41_000).report(21_000, 0, 0, 0, 3, 3).report(45_000, 1, 0, 2, 3, 3);
    run.jobFailed(46_000, "Invalid event TA_TOO_MANY_FETCH_FAILURE on TaskAttempt "
        + SyntheticRun.attemptId('m', 3, 0) + "\n");
    Classification c = DinuNgClassifier.classify(run.build());
    assertTrue(c.mechanisms().contains(Mechanism.AM_INVALID_EVENT), evidence(c));
    String e = evidence(c);
    assertTrue(e.contains("the AM ended the job in ERROR itself: m_000003_0 on node 3 had been killed when its node"
        + " was declared unusable at 41.0 s"), e);
    assertTrue(e.contains("the last fetch-failure report about it came, at 45.0 s"), e);
  }

  @Test
  void reducersOnHealthyNodesDyingFromShuffleErrorsFailTheJobG8() {
    SyntheticRun run = fourMapsTwoReducers().map(3, 0, 3, 5_000, 15_000, "KILLED")
        .reduce(1, 0, 2, 12_000, 80_000, "KILLED").crash(3, 20_000).lost(3, 41_000);
    for (int i = 0; i < 4; i++) {
      run.attempt('r', 0, i, i % 3, 12_000L + i * 15_000, 25_000L + i * 15_000, "FAILED", false, SHUFFLE_DEATH);
    }
    run.jobFailed(80_000, "Task failed task_1_0001_r_000000\nJob failed as tasks failed.");
    Classification c = DinuNgClassifier.classify(run.build());
    assertEquals(DinuNgGroup.G8, c.group(), evidence(c));
    assertFalse(c.jobSucceeded());
    assertTrue(c.mechanisms().contains(Mechanism.INDUCED_REDUCER_DEATH));
    String e = evidence(c);
    assertTrue(e.contains("induced reducer death: r_000000_0 on healthy node 0 FAILED at 25.0 s"), e);
    assertTrue(e.contains("r_000000: 4 failed attempt(s)"), e);
    assertTrue(e.contains("job diagnostics: Task failed task_1_0001_r_000000"), e);
  }

  @Test
  void whatTheRecordCannotShowStaysUnclassifiedAndSaysWhy() {
    Classification never = DinuNgClassifier.classify(fourMapsTwoReducers().neverInjected().build());
    assertEquals(DinuNgGroup.UNCLASSIFIED, never.group());
    assertTrue(evidence(never).contains("was never injected"), evidence(never));

    SyntheticRun noReports = fourMapsTwoReducers()
        .attempt('m', 3, 0, 3, 5_000L, 15_000L, "FAILED", false, FETCH_FAILED).map(3, 1, 1, 30_000, 32_000, "SUCCEEDED")
        .crash(3, 20_000).lost(3, 40_000);
    Classification c = DinuNgClassifier.classify(noReports.build());
    assertEquals(DinuNgGroup.UNCLASSIFIED, c.group(), evidence(c));
    assertEquals(Recovery.FETCH_FAILURE_REPORTS, c.recovery());
    assertTrue(evidence(c).contains("G3, G4 and G5 cannot be told apart"), evidence(c));
  }

  @Test
  void onlyFaultsThatTakeANodeDownAreClassified() {
    Classification slow = DinuNgClassifier.classify(fourMapsTwoReducers().fault("latency", 2, 10_000).build());
    assertEquals(DinuNgGroup.NO_NODE_FAILURE, slow.group());
    assertFalse(slow.group().isNodeFailure());
    assertTrue(evidence(slow).contains("no fault took a node down"), evidence(slow));

    SyntheticRun wholeNode = fourMapsTwoReducers().map(3, 0, 3, 5_000, 15_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").reduce(1, 0, 2, 12_000, 50_000, "SUCCEEDED")
        .fault("rst-suppression", 3, 44_990).crash(3, 45_000).lost(3, 66_000).finished(50_500);
    Classification c = DinuNgClassifier.classify(wholeNode.build());
    assertEquals(DinuNgGroup.G7, c.group(), evidence(c));
    assertTrue(evidence(c).contains("also rst-suppression on node 3 at 45.0 s; classified by the crash"), evidence(c));
  }

  /** A task JVM stalled (a pause of a map) is caught by the AM's task timeout and redone by a retry. */
  @Test
  void aStalledTaskIsNamedByItsTimeoutAndTheRetryThatRedidIt() {
    Classification c = DinuNgClassifier.classify(fourMapsTwoReducers().setting("mapreduce.task.timeout", "10000")
        .fault("pause", 3, 6_000)
        .attempt('m', 3, 0, 3, 5_000, 26_000L, "FAILED", false, "AttemptID:attempt_1_0001_m_000003_0 task timeout set:"
            + " 10s, taskTimedOut: true; task stuck timeout set: 600s, taskStuck: false")
        .map(3, 1, 1, 27_000, 37_000, "SUCCEEDED").reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").finished(52_000).build());
    assertEquals(DinuNgGroup.NO_NODE_FAILURE, c.group(), evidence(c));
    assertEquals(Recovery.TASK_RETRY, c.recovery(), evidence(c));
    assertEquals(List.of(Mechanism.TASK_TIMED_OUT), c.mechanisms());
    assertTrue(evidence(c).contains("m_000003_0 on node 3 timed out at 26.0 s: no progress report for the task timeout"
        + " (mapreduce.task.timeout 10.0 s); re-run as m_000003_1 at 27.0 s on node 1"), evidence(c));

    Classification riddenOut = DinuNgClassifier.classify(fourMapsTwoReducers().fault("pause", 2, 6_000)
        .reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").finished(52_000).build());
    assertEquals(Recovery.NONE_NEEDED, riddenOut.recovery());
    assertTrue(riddenOut.mechanisms().isEmpty(), evidence(riddenOut));
  }

  /**
   * A failed disk the NodeManager does not notice: attempts there fail by themselves, each retried,
   * and after three the AM blacklists the node; on a cluster too small for its blacklist it does not.
   */
  @Test
  void attemptsFailingOnAFaultedNodeAreNamedAndTheBlacklistThatEndedThem() {
    SyntheticRun run = fourMapsTwoReducers().fault("disk-failure", 3, 6_000)
        .attempt('m', 3, 0, 3, 5_000, 8_000L, "FAILED", false, "java.io.IOException: Input/output error")
        .attempt('m', 3, 1, 3, 8_500, 9_000L, "FAILED", false, "Could not find any valid local directory for nmPrivate/x")
        .attempt('m', 3, 2, 3, 9_500, 10_000L, "FAILED", false, "[2026-12-06 16:34:39.291]mkdir of /x/local/usercache/root"
            + "/appcache/application_1/container_1 failed")
        .map(3, 3, 1, 11_000, 21_000, "SUCCEEDED").reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").finished(52_000);
    Classification c = DinuNgClassifier.classify(run.build());
    assertEquals(DinuNgGroup.NO_NODE_FAILURE, c.group(), evidence(c));
    assertEquals(Recovery.TASK_RETRY, c.recovery(), evidence(c));
    assertEquals(List.of(Mechanism.TASK_FAILED_ON_NODE, Mechanism.NODE_BLACKLISTED), c.mechanisms());
    assertTrue(evidence(c).contains("m_000003_0 FAILED on node 3 at 8.0 s: an I/O error on the node's disk; re-run as"
        + " m_000003_1 at 8.5 s on node 3"), evidence(c));
    assertTrue(evidence(c).contains("m_000003_1 FAILED on node 3 at 9.0 s: its container could not be launched"),
        evidence(c));
    assertTrue(evidence(c).contains("m_000003_2 FAILED on node 3 at 10.0 s: its container's folder could not be made in"
        + " the node's local dir"), evidence(c));
    assertTrue(evidence(c).contains("no attempt started on node 3 after its 3rd failure at 10.0 s: the AM blacklisted"
        + " it (mapreduce.job.maxtaskfailures.per.tracker 3)"), evidence(c));

    Classification tooSmall = DinuNgClassifier.classify(fourMapsTwoReducers().fault("disk-failure", 3, 6_000)
        .setting("yarn.app.mapreduce.am.job.node-blacklisting.ignore-threshold-node-percent", "20")
        .attempt('m', 3, 0, 3, 5_000, 8_000L, "FAILED", false, "java.io.IOException: Input/output error")
        .attempt('m', 3, 1, 3, 8_500, 9_000L, "FAILED", false, "java.io.IOException: Input/output error")
        .attempt('m', 3, 2, 3, 9_500, 10_000L, "FAILED", false, "java.io.IOException: Input/output error")
        .map(3, 3, 3, 11_000, 21_000, "SUCCEEDED").reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").finished(52_000)
        .build());
    assertEquals(List.of(Mechanism.TASK_FAILED_ON_NODE), tooSmall.mechanisms(), evidence(tooSmall));
    assertTrue(evidence(tooSmall).contains("one node of 4 is more than the 20 % of the cluster above which the AM"
        + " ignores its blacklist"), evidence(tooSmall));
  }

  /**
   * An AM whose clock jumped past the task timeout times out attempts that had not reported since:
   * the timeouts are named, and the jump on the AM's node as their cause; a NodeManager whose clock
   * is ahead of the tokens' life refuses containers, and the failures say so.
   */
  @Test
  void clockJumpsAreNamedAsTheCauseOfTimeoutsAndRefusedContainers() {
    Classification c = DinuNgClassifier.classify(fourMapsTwoReducers().setting("mapreduce.task.timeout", "60000")
        .am(1).fault("clock-jump", 1, 6_000, Map.of("clockOffsetMs", "120000"))
        .attempt('m', 3, 0, 3, 5_000, 126_000L, "FAILED", false, "AttemptID:attempt_1_0001_m_000003_0 task timeout set:"
            + " 60s, taskTimedOut: true; task stuck timeout set: 600s, taskStuck: false")
        .map(3, 1, 3, 127_000, 137_000, "SUCCEEDED").reduce(0, 0, 0, 12_000, 150_000, "SUCCEEDED").finished(152_000)
        .build());
    assertEquals(List.of(Mechanism.TASK_TIMED_OUT), c.mechanisms(), evidence(c));
    assertTrue(evidence(c).contains("the AM ran on node 1, whose clock the clock-jump stepped 120.0 s ahead at 6.0 s"
        + " (past mapreduce.task.timeout, 60.0 s)"), evidence(c));

    Classification elsewhere = DinuNgClassifier.classify(fourMapsTwoReducers().setting("mapreduce.task.timeout", "60000")
        .am(2).fault("clock-jump", 1, 6_000, Map.of("clockOffsetMs", "120000"))
        .attempt('m', 3, 0, 3, 5_000, 66_000L, "FAILED", false, "AttemptID:attempt_1_0001_m_000003_0 task timeout set:"
            + " 60s, taskTimedOut: true; task stuck timeout set: 600s, taskStuck: false")
        .map(3, 1, 3, 67_000, 77_000, "SUCCEEDED").reduce(0, 0, 0, 12_000, 90_000, "SUCCEEDED").finished(92_000)
        .build());
    assertFalse(evidence(elsewhere).contains("the AM ran on node"), "the jump was not on the AM's node: "
        + evidence(elsewhere));

    Classification refused = DinuNgClassifier.classify(fourMapsTwoReducers()
        .fault("clock-jump", 3, 6_000, Map.of("clockOffsetMs", "900000"))
        .attempt('m', 3, 0, 3, 7_000, 7_000L, "FAILED", false, "Container launch failed for container_1 :"
            + " org.apache.hadoop.yarn.exceptions.YarnException: Unauthorized request to start container.\nThis token"
            + " is expired. current time is 1796582427848 found 1796582127825")
        .map(3, 1, 1, 8_000, 18_000, "SUCCEEDED").reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").finished(52_000).build());
    assertEquals(List.of(Mechanism.TASK_FAILED_ON_NODE), refused.mechanisms(), evidence(refused));
    assertTrue(evidence(refused).contains("m_000003_0 FAILED on node 3 at 7.0 s: the node refused its container: the"
        + " container token had expired by the node's clock, ahead of the ResourceManager's"), evidence(refused));
  }

  /** Corrupt replicas of the input: those a reader found were replaced by HDFS, which the job never saw. */
  @Test
  void corruptReplicasAreNamedByWhatHdfsDidWithThem() {
    Classification c = DinuNgClassifier.classify(fourMapsTwoReducers().fault("corrupt-replica", 2, 0, Map.of(
            "corruptedBlocks", "blk_1,blk_2,blk_3", "replicasDeleted", "2", "replicasLeftCorrupt", "1"))
        .reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").finished(52_000).build());
    assertEquals(DinuNgGroup.NO_NODE_FAILURE, c.group(), evidence(c));
    assertEquals(Recovery.NONE_NEEDED, c.recovery(), evidence(c));
    assertEquals(List.of(Mechanism.CORRUPT_REPLICA_REPLACED), c.mechanisms(), evidence(c));
    assertTrue(evidence(c).contains("2 of 3 corrupted replica(s) on node 2 were found by a reader's checksum check and"
        + " replaced: the NameNode had a good copy made and the DataNode delete them (gone by the heal); 1 left"
        + " corrupt: no reader read them"), evidence(c));

    Classification none = DinuNgClassifier.classify(fourMapsTwoReducers().fault("corrupt-replica", 2, 0, Map.of(
        "corruptedBlocks", "", "replicasDeleted", "0", "replicasLeftCorrupt", "0"))
        .reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").finished(52_000).build());
    assertTrue(none.mechanisms().isEmpty(), evidence(none));
    assertTrue(evidence(none).contains("node 2 held no replica of the job's input"), evidence(none));
  }

  /** A full disk the NodeManager's disk checker noticed: the node said it was unhealthy, and is read as a node failure. */
  @Test
  void aNodeThatReportedItselfUnhealthyUnderADiskFaultIsANodeFailureAndSaysWhy() {
    Classification c = DinuNgClassifier.classify(fourMapsTwoReducers().fault("disk-full", 3, 6_000).unhealthy(3, 7_600)
        .map(3, 0, 3, 5_000, 8_000, "KILLED").map(3, 1, 1, 9_000, 19_000, "SUCCEEDED")
        .reduce(0, 0, 0, 12_000, 50_000, "SUCCEEDED").finished(52_000).build());
    assertTrue(evidence(c).startsWith("a disk-full does not take a node down by itself, but node 3 was declared"
        + " UNHEALTHY under it: its NodeManager's health check failed"), evidence(c));
    assertTrue(evidence(c).contains("node UNHEALTHY at 7.6 s"), evidence(c));
    assertEquals(Recovery.NODE_REPORTED, c.recovery(), evidence(c));
  }

  @Test
  void recordsWithoutAFaultAreFaultFree() {
    RunRecord baseline = new RecordStore(fixtures("quickstart")).readAll().get(0);
    Classification c = DinuNgClassifier.classify(baseline);
    assertEquals(DinuNgGroup.NO_FAULT, c.group());
    assertEquals(List.of("no fault injected; job SUCCEEDED after 20.2 s"), c.evidence());
  }
}
