package faultbed.harness.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.ClusterSpec;
import faultbed.harness.RunSpec;
import faultbed.harness.Cluster;
import faultbed.harness.Clusters;
import faultbed.harness.NodeBackend;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.Distribution;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Measures what the benchmarks file quotes: cluster start, the two ways to restore a crashed node
 * (fresh NodeManager in the slot vs. rebuilding the cluster), and the harness's per-run overhead.
 * Not part of the normal test run: {@code mvn -pl harness test -Dfaultbed.excludedGroups=none -Dgroups=benchmark -Dtest=ClusterBenchmark},
 * with {@code -Dfaultbed.bench.backend=namespace} for the namespace backend.
 */
@Tag("benchmark")
class ClusterBenchmark {
  private static final int REPEATS = Integer.getInteger("faultbed.bench.repeats", 5);

  private static double secondsSince(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  @Test
  void measure() throws IOException {
    NodeBackend backend = NodeBackend.of(System.getProperty("faultbed.bench.backend", "mini"), "faultbed.bench.backend");
    ClusterSpec spec = ClusterSpec.defaults().withBackend(backend);
    List<String> report = new ArrayList<>();
    double[] start = new double[REPEATS];
    double[] rebuild = new double[REPEATS];
    double[] restart = new double[REPEATS];
    double[] overheadShare = new double[REPEATS];
    double[] overheadSeconds = new double[REPEATS];
    double[] jobSeconds = new double[REPEATS];

    long c0 = System.nanoTime();
    Cluster cluster = Clusters.start(spec, l -> { });
    double coldStart = secondsSince(c0);
    double[] resetClean = new double[REPEATS];
    double[] prepare = new double[REPEATS];
    double[] collect = new double[REPEATS];
    Workload sort = Workloads.sort(64L << 20).withMaps(8).withReduces(2);
    cluster.run(RunSpec.of(sort, Timeline.none())); // warm-up: data generation and JIT
    for (int i = 0; i < REPEATS; i++) {
      long z0 = System.nanoTime();
      cluster.reset();
      resetClean[i] = secondsSince(z0);
      long r0 = System.nanoTime();
      RunRecord rec = cluster.run(RunSpec.of(sort, Timeline.none()));
      double wall = secondsSince(r0);
      double job = rec.completionSeconds().orElseThrow();
      jobSeconds[i] = job;
      overheadSeconds[i] = wall - job;
      overheadShare[i] = (wall - job) / job;
      var h = rec.harnessMs();
      prepare[i] = h.get("prepare") / 1000.0;
      collect[i] = (h.get("total") - h.get("prepare") - h.get("observedEnd")) / 1000.0;
    }
    for (int i = 0; i < REPEATS; i++) {
      cluster.nodes().get(i % spec.nodes()).crash();
      long r0 = System.nanoTime();
      cluster.reset();
      restart[i] = secondsSince(r0);
    }
    double[] stop = new double[REPEATS];
    for (int i = 0; i < REPEATS; i++) {
      long r0 = System.nanoTime();
      cluster.close();
      stop[i] = secondsSince(r0);
      long s0 = System.nanoTime();
      cluster = Clusters.start(spec, l -> { });
      start[i] = secondsSince(s0);
      rebuild[i] = secondsSince(r0);
    }
    cluster.close();

    report.add("backend: " + backend.label());
    report.add(String.format("cluster start, first in a fresh JVM (cold): %.2f s", coldStart));
    report.add(line("cluster start (4 nodes, to all NMs registered), warm JVM", start));
    report.add(line("reset after a fault-free run (kill leftovers, wait until all nodes idle)", resetClean));
    report.add(line("restore a crashed node (reset: a fresh NodeManager in the slot, or a new node process)", restart));
    report.add(line("cluster stop (containers killed, NMs stopped in parallel)", stop));
    report.add(line("restore by rebuilding: close + start", rebuild));
    report.add(line("job time, quickstart Sort 64 MB 8x2, fault-free", jobSeconds));
    report.add(line("per-run overhead beyond job time (prepare, submit, history, logs)", overheadSeconds));
    report.add(line("  of which before submission (data check, job setup)", prepare));
    report.add(line("  of which after the job finished (node verdicts, history file, shuffle logs)", collect));
    report.add(String.format("per-run overhead as share of job time: median %.1f %%",
        Distribution.of(overheadShare).median() * 100));
    Path out = Path.of("target", "benchmarks-" + backend.label() + ".txt");
    Files.write(out, report);
    report.forEach(System.out::println);
    assertTrue(Files.size(out) > 0);
  }

  private static String line(String what, double[] v) {
    Distribution d = Distribution.of(v);
    return String.format("%s: median %.2f s (min %.2f, max %.2f, n=%d)", what, d.median(), d.min(), d.max(), d.n());
  }
}
