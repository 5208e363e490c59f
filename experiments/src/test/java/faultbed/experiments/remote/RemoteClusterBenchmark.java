package faultbed.experiments.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.experiments.scenario.InventoryParser;
import faultbed.harness.Cluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.bench.BackendCosts;
import faultbed.harness.timeline.RstSuppression;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.timeline.Trigger;
import faultbed.harness.workload.Workloads;
import faultbed.results.Distribution;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The remote backend's costs, on the test cluster of hosts (1 master, 3 workers) made here: what
 * the benchmarks file quotes next to the local backends' figures (ClusterBenchmark), plus how late
 * time-triggered faults take effect when each is made over SSH. Not part of the normal test run:
 * {@code mvn -pl experiments test -Dfaultbed.excludedGroups=none -Dgroups=benchmark -Dtest=RemoteClusterBenchmark}.
 */
@Tag("benchmark")
class RemoteClusterBenchmark {
  private static final int REPEATS = Integer.getInteger("faultbed.bench.repeats", 5);

  private static double secondsSince(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  @Test
  void measure() throws IOException {
    assumeTrue(YarnHosts.problems().isEmpty(), () -> "no test cluster of hosts here: " + YarnHosts.problems());
    Path dir = Files.createTempDirectory("remote-bench");
    List<String> report = new ArrayList<>();
    long f0 = System.nanoTime();
    try (YarnHosts hosts = YarnHosts.start(dir.resolve("hosts"), 3)) {
      report.add(String.format("fixture: 1 master + 3 workers up (not faultbed's cost): %.2f s", secondsSince(f0)));
      ClusterSpec spec = ClusterSpec.defaults()
          .withInventory(InventoryParser.parse(hosts.writeInventory(dir.resolve("inventory.json"))));
      report.addAll(BackendCosts.measure(spec, REPEATS, RemoteClusterBenchmark::injectionTiming));
    }
    Path out = Path.of("target", "benchmarks-remote.txt");
    Files.write(out, report);
    report.forEach(System.out::println);
  }

  /** 40 short RST suppressions, one every 500 ms across the workers, while a synthetic job runs. */
  private static List<String> injectionTiming(Cluster cluster) {
    int n = 40;
    Timeline timeline = Timeline.none();
    for (int i = 0; i < n; i++) {
      timeline = timeline.then(Trigger.at(Duration.ofMillis(2_000 + 500L * i)))
          .inject(new RstSuppression(Target.node(i % cluster.nodes().size()), Duration.ofMillis(200)));
    }
    RunRecord timed = cluster.run(Workloads.synthetic(6, 1).withMapMillis(25_000).withReduceMillis(2_000), timeline);
    assertEquals(n, timed.faults().stream().filter(f -> f.injectedMs() != null).count(), timed.notes().toString());
    double[] late = timed.faults().stream().mapToDouble(f -> f.injectedMs() - f.scheduledMs()).toArray();
    double[] inPlace = timed.faults().stream().mapToDouble(f -> f.injectedMs() - f.scheduledMs()
        + Long.parseLong(f.detail().get("injectionMs"))).toArray();
    double[] clockTrip = timed.nodes().stream().mapToDouble(nd -> nd.clock().roundTripMs()).toArray();
    return List.of(
        ms("injection start minus scheduled time, " + n + " RST suppressions over SSH", late),
        ms("rules in place minus scheduled time (start + the SSH calls making them)", inPlace),
        ms("clock probe round trip (per host, shortest of four)", clockTrip));
  }

  private static String ms(String what, double[] v) {
    Distribution d = Distribution.of(v);
    return String.format("%s: p50 %.0f ms, p99 %.0f ms, max %.0f ms (n=%d)", what, d.median(), d.p99(), d.max(), d.n());
  }
}
