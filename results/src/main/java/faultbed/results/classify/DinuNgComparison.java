package faultbed.results.classify;

import faultbed.results.Distribution;
import faultbed.results.RunRecord;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A suite's node-failure runs beside seed 003's (Dinu and Ng): per variant that took a node down,
 * the job times as multiples of the fault-free time, failed jobs, the groups found, and how many of
 * the runs the failure impacted waited for node expiry. Multiples of the fault-free time put a
 * 40 s job on four nodes and the paper's 220 s job on fourteen on one scale.
 *
 * @param faultFreeSeconds the suite's fault-free job times (every variant's runs without a fault)
 */
public record DinuNgComparison(Distribution faultFreeSeconds, List<Column> columns) {

  /** Seed 003's figures, from its text: Figure 2 (14 reducers, RST sent), and section 4 for filtered RSTs. */
  public static final Paper PAPER = new Paper(200, 220, 1000, 600, 7,
      "G1 to G7, and G8 (the failed jobs)",
      "G1 and G2 with RST; with RST filtered, every impacted run (Figure 6, job times from 850 s)");

  /**
   * @param maxJobSeconds "as much as 1000 s", read off Figure 2
   * @param expiryWaits which runs waited for the TaskTracker expiry
   */
  public record Paper(int runs, double faultFreeSeconds, double maxJobSeconds, double expirySeconds,
      int failedJobs, String groups, String expiryWaits) {
    public double slowestMultiple() {
      return maxJobSeconds / faultFreeSeconds;
    }

    public double expiryMultiple() {
      return expirySeconds / faultFreeSeconds;
    }
  }

  /**
   * One variant's runs in which a fault took a node down.
   *
   * @param expirySeconds the node expiry the runs had (after time compression)
   * @param timeScale the runs' time-compression factor; 1 when uncompressed
   * @param jobSeconds successful runs' job times
   * @param impacted runs whose failure made the job redo work (any recovery but "none needed")
   * @param waitedForExpiry of those, the runs whose lost work was redone only at node expiry
   * @param inducedDeaths runs in which a reducer on a live node failed by its shuffle (the paper's
   *     induced reducer death, the cause of its failed jobs)
   */
  public record Column(String variant, int runs, double expirySeconds, double timeScale, Distribution jobSeconds,
      int failedJobs, Map<DinuNgGroup, Integer> groups, int impacted, int waitedForExpiry, int inducedDeaths) {
    public Column {
      Map<DinuNgGroup, Integer> ordered = new EnumMap<>(DinuNgGroup.class);
      ordered.putAll(groups);
      groups = java.util.Collections.unmodifiableMap(ordered);
    }

    /** The slowest successful run over the median fault-free time; NaN without either. */
    public double slowestMultiple(Distribution faultFree) {
      return faultFree.n() == 0 || jobSeconds.n() == 0 ? Double.NaN : jobSeconds.max() / faultFree.median();
    }

    public double expiryMultiple(Distribution faultFree) {
      return faultFree.n() == 0 ? Double.NaN : expirySeconds / faultFree.median();
    }

    /**
     * Fisher's exact test, two-sided, of this variant's failed-job rate against the paper's: the chance
     * of two tables at least this far apart if both drew failures at one rate. NaN without runs.
     */
    public double failedJobsPValue(Paper paper) {
      if (runs == 0) {
        return Double.NaN;
      }
      int[][] table = {{failedJobs, runs - failedJobs}, {paper.failedJobs(), paper.runs() - paper.failedJobs()}};
      return org.apache.commons.statistics.inference.FisherExactTest.withDefaults().test(table).getPValue();
    }
  }

  /** Variants in the order their first run appears; only variants with at least one node failure classified. */
  public static DinuNgComparison of(List<RunRecord> records) {
    List<Double> faultFree = new ArrayList<>();
    Map<String, List<RunRecord>> failures = new LinkedHashMap<>();
    Map<String, List<Classification>> classes = new LinkedHashMap<>();
    List<Classification> all = DinuNgClassifier.classifyAll(records);
    for (int i = 0; i < records.size(); i++) {
      RunRecord r = records.get(i);
      Classification c = all.get(i);
      if (c.group() == DinuNgGroup.NO_FAULT) {
        if (c.jobSucceeded() && c.jobMs() != null) {
          faultFree.add(c.jobMs() / 1000.0);
        }
      } else if (r.faults().stream().anyMatch(f -> f.injectedMs() != null
          && f.effect().stopsNode())) {
        failures.computeIfAbsent(r.variant(), v -> new ArrayList<>()).add(r);
        classes.computeIfAbsent(r.variant(), v -> new ArrayList<>()).add(c);
      }
    }
    List<Column> columns = new ArrayList<>();
    failures.forEach((variant, runs) -> {
      List<Classification> cs = classes.get(variant);
      Map<DinuNgGroup, Integer> groups = new EnumMap<>(DinuNgGroup.class);
      cs.forEach(c -> groups.merge(c.group(), 1, Integer::sum));
      RunRecord first = runs.get(0);
      double scale = first.timeScale() == null ? 1 : first.timeScale().factor();
      columns.add(new Column(variant, runs.size(),
          HadoopTimers.of(first.hadoop() == null ? Map.of() : first.hadoop()).expiryMs() / 1000.0, scale,
          Distribution.of(cs.stream().filter(c -> c.jobSucceeded() && c.jobMs() != null)
              .mapToDouble(c -> c.jobMs() / 1000.0).toArray()),
          (int) cs.stream().filter(c -> !c.jobSucceeded()).count(), groups,
          (int) cs.stream().filter(c -> c.recovery() != Recovery.NONE_NEEDED).count(),
          (int) cs.stream().filter(c -> c.recovery() == Recovery.NODE_EXPIRY).count(),
          (int) cs.stream().filter(c -> c.mechanisms().contains(Mechanism.INDUCED_REDUCER_DEATH)).count()));
    });
    return new DinuNgComparison(Distribution.of(faultFree.stream().mapToDouble(Double::doubleValue).toArray()),
        columns);
  }

  public boolean isEmpty() {
    return columns.isEmpty();
  }
}
