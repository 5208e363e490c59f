package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import faultbed.results.RunHistory.FaultArmed;
import faultbed.results.RunHistory.FaultFailed;
import faultbed.results.RunHistory.FaultHealed;
import faultbed.results.RunHistory.FaultInjected;
import faultbed.results.RunRecord.FaultEvent;
import faultbed.results.RunRecord.JobOutcome;
import faultbed.results.RunRecord.NodeInfo;
import faultbed.results.RunRecord.NodeTransition;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A run's record is the view of its history: each part as the history last said it, faults folded by step. */
class RunHistoryTest {
  private static RunHistory began() {
    return new RunHistory("run-1", "s", "v", 3, 42, "2026-11-30T00:00:00Z")
        .append(new RunHistory.ClusterSeen(new RunRecord.ClusterInfo("mini", 2, 1024, 2), List.of(
            new NodeInfo(0, "n0:1", 0, List.of(), List.of(), null, null, null),
            new NodeInfo(1, "n1:1", 0, List.of(), List.of(), null, null, null))));
  }

  @Test
  void eachStepIsFoldedFromWhatHappenedToIt() {
    RunHistory h = began()
        .append(new FaultArmed(0, "crash", "random", "at 5s", 5_000L, FaultEffect.KILLS, true))
        .append(new FaultArmed(1, "freeze", "same", "at 6s", 6_000L, FaultEffect.STALLS, false))
        .append(new FaultArmed(2, "cpu-hog", "idle", "on reducer-in-shuffle", null, FaultEffect.SLOWS, false))
        .append(new FaultInjected(0, 1, 5_003, Map.of("injectionMs", "3")))
        .append(new FaultInjected(1, 1, 6_001, Map.of()))
        .append(new FaultFailed(1, 1, "heal failed: gone"))
        .append(new FaultHealed(1, 9_000, Map.of("replicasDeleted", "2")))
        .append(new FaultHealed(1, 9_500, Map.of("replicasDeleted", "0"))) // a second heal changes nothing
        .append(new FaultFailed(2, null, "no node matched 'idle' before the job finished"))
        .append(new FaultHealed(0, 20_000));
    RunRecord r = h.record();
    assertEquals(List.of(
        new FaultEvent("crash", 1, "random", "at 5s", 5_000L, 5_003L, null, Map.of("injectionMs", "3"), FaultEffect.KILLS),
        new FaultEvent("freeze", 1, "same", "at 6s", 6_000L, 6_001L, 9_000L, Map.of("error", "heal failed: gone",
            "replicasDeleted", "2"), FaultEffect.STALLS),
        new FaultEvent("cpu-hog", -1, "idle", "on reducer-in-shuffle", null, null, null,
            Map.of("error", "no node matched 'idle' before the job finished"), FaultEffect.SLOWS)), r.faults());
    assertEquals(List.of("fault 2 (cpu-hog) was not injected: no node matched 'idle' before the job finished"), r.notes());
  }

  @Test
  void aStepThatNeverFiredSaysTheJobFinishedFirst() {
    RunRecord r = began().note("first").append(new FaultArmed(0, "stop", "random", "at 9m", 540_000L,
        FaultEffect.CUTS_OFF, true)).note("second").record();
    assertEquals(List.of("first", "second", "fault 0 (stop) was not injected: the job finished first"), r.notes());
    assertNull(r.faults().get(0).injectedMs());
  }

  @Test
  void theLastOutcomeWinsAndALostNodeCarriesWhen() {
    JobOutcome seen = new JobOutcome("job_1", "SUCCEEDED", true, 1L, 10_000L, 4, 1, null);
    JobOutcome judged = new JobOutcome("job_1", "WRONG_OUTPUT", false, 1L, 10_000L, 4, 1, null);
    RunHistory h = began().append(new RunHistory.JobEnded(seen))
        .append(new RunHistory.NodeChanged(new NodeTransition(1, "n1:1", "RUNNING", "LOST", 7_000)))
        .append(new RunHistory.NodeChanged(new NodeTransition(1, "n1:1", "LOST", "RUNNING", 8_000)))
        .append(new RunHistory.JobEnded(judged));
    RunRecord r = h.record();
    assertEquals(judged, r.job());
    assertEquals(2, r.nodeTransitions().size());
    assertNull(r.nodes().get(0).lostAtMs());
    assertEquals(7_000L, r.nodes().get(1).lostAtMs());
    assertEquals("run-1", r.runId());
    assertEquals(3, r.runIndex());
    assertEquals(42, r.seed());
  }

  @Test
  void aSlowReportIsOneEntryFromWhenItCameToWhenItWent() {
    RunRecord.SlowReport came = new RunRecord.SlowReport(2, "peer", "198.18.0.12:1", "by 0", 4_000, null);
    RunRecord.SlowReport disk = new RunRecord.SlowReport(3, "disk", "198.18.0.13:2:/d0/", "latencies {}", 5_000, null);
    RunRecord r = began().append(new RunHistory.SlowSeen(came)).append(new RunHistory.SlowSeen(disk))
        .append(new RunHistory.SlowSeen(new RunRecord.SlowReport(2, "peer", "198.18.0.12:1", "by 0", 4_000, 9_000L)))
        .record();
    assertEquals(List.of(new RunRecord.SlowReport(2, "peer", "198.18.0.12:1", "by 0", 4_000, 9_000L), disk),
        r.slowReports());
    assertEquals(List.of(), began().record().slowReports());
  }

  /** The notes and timings views append: the readers that write into a list or a map write into the history. */
  @Test
  void notesAndTimingsWrittenThroughTheirViewsAreInTheRecord() throws InterruptedException {
    RunHistory h = began();
    h.notes().add("from a reader");
    h.timings().put("submit", 12L);
    h.timings().put("submit", 15L);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    CountDownLatch go = new CountDownLatch(1);
    for (int t = 0; t < 4; t++) {
      int thread = t;
      pool.execute(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < 250; i++) {
          h.timings().put("t" + thread + "-" + i, (long) i);
        }
      });
    }
    go.countDown();
    pool.shutdown();
    assertEquals(true, pool.awaitTermination(30, TimeUnit.SECONDS));
    RunRecord r = h.record();
    assertEquals(List.of("from a reader"), r.notes());
    assertEquals(15L, r.harnessMs().get("submit"));
    assertEquals(1 + 4 * 250, r.harnessMs().size());
  }

  /** A fault learnt whole (a simulation's) is kept as it is. */
  @Test
  void aFaultRecordedWholeIsKept() {
    FaultEvent whole = new FaultEvent("crash", 0, "0", "at 1s", 1_000L, 1_000L, null, Map.of(), FaultEffect.KILLS);
    assertEquals(List.of(whole), began().append(new RunHistory.FaultRecorded(whole)).record().faults());
  }
}
