package faultbed.harness.mini;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.FetchFailureReport;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Reducers start only after every map is done, so a node crashed at that moment still holds
 * outputs nobody has fetched: reducers elsewhere get connection refused (RST), report it to the AM
 * at once, and the AM re-runs those maps long before the node expires.
 */
@Faultbed(nodes = 4, hadoop = {
    "mapreduce.job.reduce.slowstart.completedmaps=1.0",
    "yarn.nm.liveness-monitor.expiry-interval-ms=60000",
    "yarn.client.nodemanager-connect.max-wait-ms=10000",
    "yarn.client.nodemanager-connect.retry-interval-ms=2000",
    // a refused fetch is retried until this timeout before it is reported; the AM fails a map on
    // its third report, and each reducer reports once per round (timeout plus a growing penalty,
    // 13 s, 17 s, ...). 3 s fits three rounds of both reducers into the 60 s before expiry; 15 s
    // fitted two, and a map one reducer did not yet know of in the first round missed the third
    "mapreduce.reduce.shuffle.connect.timeout=3000"})
class FetchFailureClusterTest {
  @Test
  @Tag("extended") // the same mechanism in the test command: see ci/extended
  void refusedFetchesAreReportedAndTheLostMapsReRunBeforeExpiry(MiniCluster cluster, Recorder recorder) {
    RunRecord run = crashOutputHolderOnceMapsAreDone(cluster, recorder, 24L << 20, 6);
    RunRecord.FaultEvent crash = run.faults().get(0);
    int victim = crash.node();

    assertFalse(run.fetchFailures().isEmpty(), "reducers reported fetch failures");
    for (FetchFailureReport f : run.fetchFailures()) {
      assertTrue(f.atMs() >= crash.injectedMs() - 1000, "reported after the crash: " + f);
      assertNotNull(f.reduceAttempt(), f.toString());
      assertTrue(f.mapAttempt().contains("_m_"), f.toString());
      assertTrue(Integer.valueOf(victim).equals(f.mapNode()), "the lost output was on the crashed node: " + f);
      assertFalse(Integer.valueOf(victim).equals(f.reduceNode()), f.toString());
    }
    // the maps whose outputs were lost ran again elsewhere, well before the 60 s expiry
    long rerunDone = run.attempts().stream()
        .filter(a -> a.type().equals("MAP") && a.attempt() > 0 && "SUCCEEDED".equals(a.state()))
        .filter(a -> !Integer.valueOf(victim).equals(a.node()))
        .mapToLong(a -> a.finishMs()).max().orElseThrow(() -> new AssertionError("no map re-run: " + run.attempts()));
    assertTrue(rerunDone - crash.injectedMs() < 60_000, "re-run " + (rerunDone - crash.injectedMs()) + " ms after the crash");
    assertTrue(run.node(victim).lostAt().isEmpty() || run.node(victim).lostAt().get() > rerunDone,
        "recovery came from fetch-failure reports, not node expiry");
  }

  /**
   * Three failed attempts make the AM blacklist their host, and every NodeManager here is
   * "localhost": unguarded, the whole cluster would take no container until the dead node is LOST
   * and the blacklisted share reaches a third. A node holding three or more outputs must still
   * have them re-run from the reports, as on a cluster of separate machines.
   */
  @Test
  @Tag("extended") // the guard is one setting, which the test command checks in NodeCrashClusterTest's record
  void threeLostOutputsDoNotBlacklistTheWholeCluster(MiniCluster cluster, Recorder recorder) {
    RunRecord run = crashOutputHolderOnceMapsAreDone(cluster, recorder, 32L << 20, 16);
    int victim = run.faults().get(0).node();
    List<AttemptRecord> declaredFaulty = run.attempts().stream()
        .filter(a -> a.type().equals("MAP") && "FAILED".equals(a.state()))
        .filter(a -> a.error() != null && a.error().contains("Too many fetch failures")).toList();
    assertTrue(declaredFaulty.size() >= 3, "the crash should cost three or more map outputs: " + run.attempts());
    long lost = run.node(victim).lostAt().orElse(Long.MAX_VALUE);
    for (AttemptRecord failed : declaredFaulty) {
      long rerun = run.attempts().stream().filter(a -> a.taskId().equals(failed.taskId()) && a.attempt() > failed.attempt() && a.startMs() != null)
          .mapToLong(AttemptRecord::startMs).min().orElseThrow(() -> new AssertionError("no re-run of " + failed));
      assertTrue(rerun < lost, failed.taskId() + " re-ran at " + rerun + " ms, node LOST at " + lost + " ms");
    }
  }

  /** A Sort with two reducers; the crash hits a node holding map outputs as the last map finishes. */
  private static RunRecord crashOutputHolderOnceMapsAreDone(MiniCluster cluster, Recorder recorder, long bytes, int maps) {
    RunRecord run = recorder.save(cluster.run(Workloads.sort(bytes).withMaps(maps).withReduces(2),
        Timeline.when(JobEvent.mapsCompleted(maps))
            .inject(NodeCrash.on(Target.holdingMapOutputs().sparingApplicationMaster()))));
    assertNotNull(run.faults().get(0).injectedMs(), run.notes().toString());
    assertTrue(run.job().succeeded(), run.job().toString());
    return run;
  }
}
