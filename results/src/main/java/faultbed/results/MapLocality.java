package faultbed.results;

import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.stats.Bootstrap;
import faultbed.results.stats.Interval;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where each variant's maps ran relative to their input split, and what it cost them: per locality
 * (NODE_LOCAL, RACK_LOCAL, OFF_SWITCH) the number of first attempts and their median run time, and
 * how often the job's last map to succeed was of that locality. A map that lost its locality reads
 * its split over the network, so on a network of unequal links (seed 002 §IV) these are the maps
 * that lag, and the last map is the one the job waits for. Backups are left out: a backup's locality
 * is YARN's choice for a second copy, not the task's placement.
 *
 * @param variants one entry per variant, in the records' order
 */
public record MapLocality(List<Variant> variants) {

  /** Nearest to the data first, as Hadoop ranks them; anything else after, by name. */
  private static final List<String> ORDER = List.of("NODE_LOCAL", "RACK_LOCAL", "OFF_SWITCH");
  private static final Comparator<String> BY_LOCALITY = Comparator
      .<String>comparingInt(l -> ORDER.contains(l) ? ORDER.indexOf(l) : ORDER.size())
      .thenComparing(Comparator.naturalOrder());

  /** @param rows one per locality seen, NODE_LOCAL first */
  public record Variant(String variant, int runs, List<Row> rows) {}

  /**
   * @param locality NODE_LOCAL, RACK_LOCAL or OFF_SWITCH
   * @param maps first attempts of that locality, succeeded or not, over the variant's runs
   * @param succeededSeconds the run times of those that succeeded, start to end
   * @param lastMapRuns runs whose last map to succeed was of that locality
   */
  public record Row(String locality, int maps, double share, double[] succeededSeconds, double median,
      Interval medianInterval, int lastMapRuns) {}

  /**
   * Whether there is anything to show: a map that ran away from its split. On a backend whose nodes
   * share one host name every map is NODE_LOCAL, and records before locality was kept have none.
   */
  public boolean isEmpty() {
    return variants.stream().flatMap(v -> v.rows().stream()).allMatch(r -> "NODE_LOCAL".equals(r.locality()));
  }

  public static MapLocality of(List<RunRecord> records) {
    List<Variant> out = new ArrayList<>();
    SuiteSummary.byVariant(records).forEach((variant, runs) -> {
      Map<String, List<Double>> seconds = new TreeMap<>(BY_LOCALITY);
      Map<String, Integer> counts = new TreeMap<>(BY_LOCALITY);
      Map<String, Integer> last = new LinkedHashMap<>();
      for (RunRecord r : runs) {
        AttemptRecord lastMap = null;
        for (AttemptRecord a : r.attempts()) {
          if (!"MAP".equals(a.type()) || a.locality() == null || a.speculative()) {
            continue;
          }
          counts.merge(a.locality(), 1, Integer::sum);
          seconds.computeIfAbsent(a.locality(), k -> new ArrayList<>());
          if ("SUCCEEDED".equals(a.state()) && a.startMs() != null && a.finishMs() != null) {
            seconds.get(a.locality()).add((a.finishMs() - a.startMs()) / 1000.0);
            if (lastMap == null || a.finishMs() > lastMap.finishMs()) {
              lastMap = a;
            }
          }
        }
        if (lastMap != null) {
          last.merge(lastMap.locality(), 1, Integer::sum);
        }
      }
      int total = counts.values().stream().mapToInt(Integer::intValue).sum();
      List<Row> rows = new ArrayList<>();
      counts.forEach((locality, n) -> {
        double[] s = seconds.get(locality).stream().mapToDouble(Double::doubleValue).toArray();
        rows.add(new Row(locality, n, (double) n / total, s, s.length == 0 ? Double.NaN : Bootstrap.median(s),
            s.length == 0 ? Interval.UNKNOWN : Bootstrap.DEFAULT.interval(s, Bootstrap::median),
            last.getOrDefault(locality, 0)));
      });
      if (!rows.isEmpty()) {
        out.add(new Variant(variant, runs.size(), List.copyOf(rows)));
      }
    });
    return new MapLocality(List.copyOf(out));
  }
}
