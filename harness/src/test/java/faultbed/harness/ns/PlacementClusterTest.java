package faultbed.harness.ns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.RunSpec;
import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.BandwidthCap;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.LinkRate;
import faultbed.results.RunRecord.PlacementEvent;
import faultbed.schedulers.placement.PlacementPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Network-aware placement in Hadoop's own ApplicationMaster on the namespace backend: four nodes,
 * two of them on 1 MB/s links, the input kept once. The nodes' probes must tell the two link
 * classes apart while the job runs, and every map must have been given its container by the
 * policy, on a node that the policy preferred for it, as the run's record reads it from the AM.
 */
@Faultbed(backend = "namespace", nodes = 4, hadoop = {"dfs.replication=1"})
class PlacementClusterTest {
  private static final long CAP = 1_000_000;
  private static final Set<Integer> CAPPED = Set.of(2, 3);

  @Test
  void theProbesSeeTheSlowLinksAndThePolicyPlacesEveryMap(NamespaceCluster cluster, Recorder recorder) {
    Timeline caps = Timeline.at(Duration.ZERO).inject(BandwidthCap.on(Target.node(2), CAP))
        .plus(Timeline.at(Duration.ZERO).inject(BandwidthCap.on(Target.node(3), CAP)));
    RunSpec spec = RunSpec.of(Workloads.wordcount(32L << 20).withMaps(8).withReduces(1), caps)
        .withPlacement(PlacementPolicy.MIN_COMPLETION);
    RunRecord r = recorder.save(cluster.run(spec));
    assertTrue(r.job().succeeded(), r.job() + " " + r.attempts());
    assertTrue(r.outputCheck().correct(), r.outputCheck().toString());
    assertEquals("min-completion", r.mapPlacement());

    // the last forecasts the AM saw: every capped link well under every uncapped one
    assertFalse(r.linkRates().isEmpty(), "the AM saw no bandwidth");
    long last = r.linkRates().get(r.linkRates().size() - 1).atMs();
    List<LinkRate> seen = r.linkRates().stream().filter(l -> l.atMs() == last).toList();
    double slowest = seen.stream().filter(l -> !CAPPED.contains(l.from()) && !CAPPED.contains(l.to()))
        .mapToDouble(LinkRate::bytesPerSecond).min().orElseThrow(() -> new AssertionError("no fast link: " + seen));
    double fastestCapped = seen.stream().filter(l -> CAPPED.contains(l.from()) || CAPPED.contains(l.to()))
        .mapToDouble(LinkRate::bytesPerSecond).max().orElseThrow(() -> new AssertionError("no capped link: " + seen));
    assertTrue(fastestCapped < 2.5 * CAP, "a capped link forecast at " + fastestCapped + " B/s: " + seen);
    assertTrue(slowest > 2 * fastestCapped, "fast links " + slowest + " B/s, capped " + fastestCapped + ": " + seen);

    // every map attempt Hadoop ran got its container from the policy, where the record says it ran
    List<PlacementEvent> assigned = r.placementEvents().stream()
        .filter(e -> e.event().equals("assigned") && e.type().equals("MAP")).toList();
    for (RunRecord.AttemptRecord a : r.attempts()) {
      if (a.type().equals("MAP") && !a.speculative()) {
        assertTrue(assigned.stream().anyMatch(e -> a.attemptId().equals(e.attempt()) && a.node().equals(e.node())
                && e.candidates() != null && e.candidates() >= 1 && e.expectedMs() != null && e.expectedMs() >= 0),
            a.attemptId() + " on node " + a.node() + " was not placed by the policy: " + assigned);
      }
    }
    System.out.println("placement: job " + r.job().finishedMs() + " ms, " + assigned.size() + " maps placed, "
        + r.placementEvents().stream().filter(e -> e.event().equals("released")).count() + " containers released; rates "
        + seen);
  }
}
