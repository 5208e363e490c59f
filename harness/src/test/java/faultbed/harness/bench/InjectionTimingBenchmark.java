package faultbed.harness.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import faultbed.faults.Installed;
import faultbed.harness.ClusterSpec;
import faultbed.harness.Node;
import faultbed.harness.mini.MiniCluster;
import faultbed.harness.timeline.Fault;
import faultbed.harness.timeline.FaultContext;
import faultbed.harness.timeline.Injection;
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
 * How late time-triggered faults fire (scheduled vs actual start of injection) while a job runs:
 * 40 short RST suppressions, one every 500 ms, on a cluster busy with a synthetic job.
 * {@code mvn -pl harness test -Dfaultbed.excludedGroups=none -Dgroups=benchmark -Dtest=InjectionTimingBenchmark}
 */
@Tag("benchmark")
class InjectionTimingBenchmark {
  @Test
  void measure() throws IOException {
    Timeline timeline = Timeline.none();
    int n = 40;
    for (int i = 0; i < n; i++) {
      timeline = timeline.then(Trigger.at(Duration.ofMillis(2_000 + 500L * i)))
          .inject(new RstSuppression(Target.node(i % 4), Duration.ofMillis(200)));
    }
    double[] lateMs;
    try (MiniCluster cluster = MiniCluster.start(ClusterSpec.defaults(), l -> { })) {
      RunRecord r = cluster.run(Workloads.synthetic(6, 1).withMapMillis(20_000).withReduceMillis(2_000), timeline);
      lateMs = r.faults().stream().mapToDouble(f -> f.injectedMs() - f.scheduledMs()).toArray();
      assertEquals(n, lateMs.length);
    }
    Distribution d = Distribution.of(lateMs);
    String line = String.format("injection timing error, %d time-triggered faults during a job: p50 %.0f ms, p99 %.0f ms, max %.0f ms",
        n, d.median(), d.p99(), d.max());
    System.out.println(line);
    Files.writeString(Path.of("target", "benchmarks-injection.txt"), line + "\n");
  }
}
