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

  /**
   * Time-triggered faults while a synthetic job runs, made over SSH: 20 short RST suppressions one
   * every 1.5 s across the workers (each host one every 4.5 s, as a suite's faults come), then 40
   * one every 500 ms (overlapping on every host: they queue for the host's SSH channels).
   */
  private static List<String> injectionTiming(Cluster cluster) {
    List<String> out = new ArrayList<>();
    for (int[] shape : new int[][] {{20, 1_500}, {40, 500}}) {
      int n = shape[0];
      Timeline timeline = Timeline.none();
      for (int i = 0; i < n; i++) {
        timeline = timeline.then(Trigger.at(Duration.ofMillis(2_000 + (long) shape[1] * i)))
            .inject(new RstSuppression(Target.node(i % cluster.nodes().size()), Duration.ofMillis(200)));
      }
      cluster.reset();
      RunRecord timed = cluster.run(Workloads.synthetic(6, 1).withMapMillis(36_000).withReduceMillis(2_000), timeline);
      assertEquals(n, timed.faults().stream().filter(f -> f.injectedMs() != null).count(), timed.notes().toString());
      double[] late = timed.faults().stream().mapToDouble(f -> f.injectedMs() - f.scheduledMs()).toArray();
      double[] inPlace = timed.faults().stream().mapToDouble(f -> f.injectedMs() - f.scheduledMs()
          + Long.parseLong(f.detail().get("injectionMs"))).toArray();
      String what = n + " RST suppressions, one every " + shape[1] + " ms";
      out.add(ms("injection start minus scheduled time, " + what, late));
      out.add(ms("rules in place minus scheduled time (start + the SSH calls making them), " + what, inPlace));
      if (out.size() == 2) {
        double[] clockTrip = timed.nodes().stream().mapToDouble(nd -> nd.clock().roundTripMs()).toArray();
        out.add(ms("clock probe round trip (per host, shortest of four)", clockTrip));
      }
    }
    return out;
  }

  private static String ms(String what, double[] v) {
    Distribution d = Distribution.of(v);
    return String.format("%s: p50 %.0f ms, p99 %.0f ms, max %.0f ms (n=%d)", what, d.median(), d.p99(), d.max(), d.n());
  }
}
