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
import faultbed.results.RunRecord.FetchFailureReport;
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
    "mapreduce.reduce.shuffle.connect.timeout=15000"})
class FetchFailureClusterTest {
  @Test
  void refusedFetchesAreReportedAndTheLostMapsReRunBeforeExpiry(MiniCluster cluster, Recorder recorder) {
    RunRecord run = recorder.save(cluster.run(Workloads.sort(24L << 20).withMaps(6).withReduces(2),
        Timeline.when(JobEvent.mapsCompleted(6)).inject(NodeCrash.on(Target.holdingMapOutputs().sparingApplicationMaster()))));
    RunRecord.FaultEvent crash = run.faults().get(0);
    assertNotNull(crash.injectedMs(), run.notes().toString());
    int victim = crash.node();
    assertTrue(run.job().succeeded(), run.job().toString());

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
}
