package faultbed.harness.mini;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.BandwidthCap;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.RstSuppression;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Network faults under a real job. Reducers start only once every map is done, so faults fired at
 * that moment hit the shuffle and nothing else.
 */
@Faultbed(nodes = 4, hadoop = {
    "mapreduce.job.reduce.slowstart.completedmaps=1.0",
    "yarn.nm.liveness-monitor.expiry-interval-ms=30000",
    "yarn.client.nodemanager-connect.max-wait-ms=10000",
    "yarn.client.nodemanager-connect.retry-interval-ms=2000",
    "mapreduce.reduce.shuffle.connect.timeout=" + NetworkFaultsClusterTest.CONNECT_TIMEOUT_MS,
    // A fetch reading from the node when it went silent waits out the read timeout (180 s by default);
    // 60 s still ends after the node is LOST (30 s expiry, checked every 10 s), so only expiry helps.
    "mapreduce.reduce.shuffle.read.timeout=60000"})
class NetworkFaultsClusterTest {
  static final long CONNECT_TIMEOUT_MS = 15_000;
  static final Workload SORT = Workloads.sort(24L << 20).withMaps(6).withReduces(2);
  static final JobEvent MAPS_DONE = JobEvent.mapsCompleted(6);

  @Test
  @Tag("extended") // the same mechanism in the test command: see ci/extended
  void aBandwidthCappedNodeMakesTheShuffleFromItSlower(MiniCluster cluster, Recorder recorder) {
    capSlowsTheShuffle(cluster, recorder);
  }

  /**
   * A node holding map outputs is capped when the maps are done, before any reducer starts, so every
   * byte a reducer fetches from it comes through the cap: each reducer's shuffle takes at least its
   * share of that node's outputs at the capped rate (one connection to a host at a time per reducer;
   * a cap shared by the node's connections only makes it longer). The rate itself is checked, so no
   * fault-free run is needed to compare with. Returns the capped run.
   */
  static RunRecord capSlowsTheShuffle(MiniCluster cluster, Recorder recorder) {
    long bytesPerSecond = 256L << 10;
    RunRecord capped = recorder.save(cluster.run(SORT,
        Timeline.when(MAPS_DONE).inject(BandwidthCap.on(Target.holdingMapOutputs().sparingApplicationMaster(), bytesPerSecond))));
    RunRecord.FaultEvent cap = capped.faults().get(0);
    assertNotNull(cap.injectedMs(), capped.notes().toString());
    assertNotNull(cap.healedMs(), "healed when the job ended");
    assertTrue(capped.job().succeeded(), capped.job().toString());
    List<AttemptRecord> maps = capped.attempts().stream()
        .filter(a -> a.type().equals("MAP") && "SUCCEEDED".equals(a.state())).toList();
    long held = maps.stream().filter(a -> Integer.valueOf(cap.node()).equals(a.node())).count();
    assertTrue(held >= 1, "the capped node held map outputs: " + capped.attempts());
    long slowest = 0;
    for (AttemptRecord r : capped.attempts()) {
      if (!r.type().equals("REDUCE") || !"SUCCEEDED".equals(r.state())) {
        continue;
      }
      assertTrue(r.startMs() >= cap.injectedMs(), "the reducer started under the cap: " + r + " " + cap);
      assertNotNull(r.shuffleBytes(), "the reducer's shuffled bytes: " + r);
      long throughCap = r.shuffleBytes() * held / maps.size();
      long atLeastMs = throughCap * 1000 / bytesPerSecond;
      long shuffleMs = r.shuffleFinishMs() - r.startMs();
      // a tenth off for map outputs of unequal size (a Sort of random records: nearly equal)
      assertTrue(shuffleMs >= atLeastMs * 9 / 10, r.attemptId() + " shuffled " + r.shuffleBytes() + " bytes, about "
          + throughCap + " of them from capped node " + cap.node() + ", in " + shuffleMs + " ms: faster than the cap allows");
      slowest = Math.max(slowest, atLeastMs);
    }
    assertTrue(slowest >= 4_000, "a cap that costs seconds: at least " + slowest + " ms");
    return capped;
  }

  /**
   * With RST, Hadoop 3's fetcher retries a refused connect until the connect timeout, then reports
   * it, before the node expires. The test command proves refused fetches reported before expiry on
   * the namespace backend and the mini backend's re-runs from reports (FetchFailureClusterTest);
   * this timing runs with ci/extended.
   */
  @Test
  @Tag("extended") // the same mechanism in the test command: see ci/extended
  void withRstRefusedFetchesAreReportedAfterTheConnectTimeout(MiniCluster cluster, Recorder recorder) {
    RunRecord withRst = recorder.save(cluster.run(SORT,
        Timeline.when(MAPS_DONE).inject(NodeCrash.on(Target.holdingMapOutputs().sparingApplicationMaster()))));
    // Hadoop 3's AM occasionally rejects a map's too-many-fetch-failures event in a state that does
    // not expect it and ends the job in ERROR; that still means the refused fetches were reported.
    assertTrue(withRst.job().succeeded() || String.valueOf(withRst.job().diagnostics())
        .contains("Invalid event TA_TOO_MANY_FETCH_FAILURE"), "with RST: " + withRst.job());
    long crashed = withRst.faults().get(0).injectedMs();
    long firstReducer = withRst.attempts().stream().filter(a -> a.type().equals("REDUCE"))
        .mapToLong(AttemptRecord::startMs).min().orElseThrow();
    assertFalse(withRst.fetchFailures().isEmpty(), "refused fetches are reported");
    long firstReport = withRst.fetchFailures().get(0).atMs();
    assertTrue(firstReport - firstReducer >= CONNECT_TIMEOUT_MS - 1_000,
        "first report " + (firstReport - firstReducer) + " ms after the first reducer started");
    assertTrue(firstReport < withRst.node(withRst.faults().get(0).node()).lostAt().orElse(Long.MAX_VALUE),
        "reported before the node expired (crash at " + crashed + " ms)");
  }

  /**
   * With RST suppressed every connect times out silently: nothing is reported before expiry, and
   * the lost maps are re-run only after the node is LOST. The test command proves the same of a
   * silent crash on the containers backend (ContainerClusterTest) and makes rst-suppression on mini
   * (OutputCheckClusterTest); this run took 84 to 204 s, its tail a map the node had just finished,
   * re-run only 131 s after LOST once.
   */
  @Test
  @Tag("extended") // the same mechanism in the test command: see ci/extended
  void withRstSuppressedOnlyExpiryHelps(MiniCluster cluster, Recorder recorder) {
    RunRecord suppressed = recorder.save(cluster.run(SORT,
        Timeline.when(MAPS_DONE).inject(RstSuppression.on(Target.holdingMapOutputs().sparingApplicationMaster()))
            .then(faultbed.harness.timeline.Trigger.on(MAPS_DONE)).inject(NodeCrash.on(Target.same()))));
    assertTrue(suppressed.job().succeeded(), "RST suppressed: " + suppressed.job());
    RunRecord.FaultEvent crash = suppressed.faults().get(1);
    long lost = suppressed.node(crash.node()).lostAt().orElseThrow(() -> new AssertionError("node never LOST"));
    assertTrue(suppressed.fetchFailures().stream().noneMatch(f -> f.atMs() < lost),
        "no fetch failure reported before expiry: " + suppressed.fetchFailures());
    assertTrue(suppressed.attempts().stream().filter(a -> a.type().equals("MAP") && a.attempt() > 0)
        .allMatch(a -> a.startMs() >= lost), "maps re-run only after LOST");
  }
}
