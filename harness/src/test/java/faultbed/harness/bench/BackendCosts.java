package faultbed.harness.bench;

import faultbed.harness.Cluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.Clusters;
import faultbed.harness.RunSpec;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.Distribution;
import faultbed.results.RunRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What a node backend costs, measured the same way for every backend (the benchmarks file's table
 * of backends): cluster start, reset, restoring a crashed node, stop, and the harness's per-run
 * overhead around the quickstart's Sort. {@code extra} runs on the warm cluster before the
 * stop-and-start repeats and adds lines of its own.
 */
public final class BackendCosts {
  private BackendCosts() {}

  private static double secondsSince(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  public static List<String> measure(ClusterSpec spec, int repeats, Function<Cluster, List<String>> extra) {
    List<String> report = new ArrayList<>();
    double[] start = new double[repeats];
    double[] rebuild = new double[repeats];
    double[] restart = new double[repeats];
    double[] overheadShare = new double[repeats];
    double[] overheadSeconds = new double[repeats];
    double[] jobSeconds = new double[repeats];
    double[] resetClean = new double[repeats];
    double[] prepare = new double[repeats];
    double[] collect = new double[repeats];
    double[] outputCheck = new double[repeats];
    double[] amShutdown = new double[repeats];
    double[] stop = new double[repeats];

    long c0 = System.nanoTime();
    Cluster cluster = Clusters.start(spec, l -> { });
    double coldStart = secondsSince(c0);
    Workload sort = Workloads.sort(64L << 20).withMaps(8).withReduces(2);
    cluster.run(RunSpec.of(sort, Timeline.none())); // warm-up: data generation and JIT
    for (int i = 0; i < repeats; i++) {
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
      outputCheck[i] = h.get("outputCheck") / 1000.0;
      // the job's end in its history to the RM's FINISHING: the AM writing out its history and unregistering
      amShutdown[i] = (h.get("observedEnd") - rec.job().finishedMs()) / 1000.0;
    }
    for (int i = 0; i < repeats; i++) {
      cluster.nodes().get(i % cluster.nodes().size()).crash();
      long r0 = System.nanoTime();
      cluster.reset();
      restart[i] = secondsSince(r0);
    }
    cluster.reset();
    List<String> more = extra.apply(cluster);
    for (int i = 0; i < repeats; i++) {
      long r0 = System.nanoTime();
      cluster.close();
      stop[i] = secondsSince(r0);
      long s0 = System.nanoTime();
      cluster = Clusters.start(spec, l -> { });
      start[i] = secondsSince(s0);
      rebuild[i] = secondsSince(r0);
    }
    cluster.close();

    report.add("backend: " + spec.backend().name() + ", " + spec.nodes() + " nodes");
    report.add(String.format("cluster start, first in a fresh JVM (cold): %.2f s", coldStart));
    report.add(line("cluster start (to all NMs registered), warm JVM", start));
    report.add(line("reset after a fault-free run (kill leftovers, wait until all nodes idle)", resetClean));
    report.add(line("restore a crashed node (reset: a fresh NodeManager in the slot)", restart));
    report.add(line("cluster stop", stop));
    report.add(line("restore by rebuilding: close + start", rebuild));
    report.add(line("job time, quickstart Sort 64 MB 8x2, fault-free", jobSeconds));
    report.add(line("per-run overhead beyond job time (prepare, submit, history, logs)", overheadSeconds));
    report.add(line("  of which before submission (data check, job setup)", prepare));
    report.add(line("  of which the job's end (its history) to the RM's FINISHING: Hadoop's AM shutting down", amShutdown));
    report.add(line("  of which after the RM said FINISHING (node verdicts, history file, logs, output check)", collect));
    report.add(line("    of which the output check (the output read back and checked)", outputCheck));
    report.add(String.format("per-run overhead as share of job time: median %.1f %%",
        Distribution.of(overheadShare).median() * 100));
    report.addAll(more);
    return report;
  }

  public static String line(String what, double[] v) {
    Distribution d = Distribution.of(v);
    return String.format("%s: median %.2f s (min %.2f, max %.2f, n=%d)", what, d.median(), d.min(), d.max(), d.n());
  }
}
