package faultbed.results;

import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.FaultEvent;
import faultbed.results.stats.Bootstrap;
import faultbed.results.stats.Interval;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * How much slower a map ran under each node setting the suite used, measured on its own jobs: a
 * scenario that says a node is 4x slower can be checked to mean it. A map attempt counts for the
 * setting in force on its node from its start to its end (the slowing faults it ran under, with
 * their parameters, or none); one whose node changed setting while it ran counts for none. Only runs
 * without map speculation count when the suite has any: a speculator kills the slow attempts it
 * beats, which would leave the slow nodes' fast attempts alone.
 *
 * @param source which runs were measured, in words
 * @param reference the setting the others are measured against: the unslowed one ("none") when
 *     measured, else the one most maps ran under (a suite that gives every node a machine's share);
 *     null with no map
 * @param settings one row per setting, the reference first
 */
public record NodeSpeeds(String source, String reference, List<Setting> settings) {
  /** The parameters of those faults as their injections record them; the rest of a detail is measurement. */
  private static final Map<String, String> PARAMETERS = Map.of("cpuCores", "cpu %s cores", "readBytesPerSecond",
      "read %s", "writeBytesPerSecond", "write %s", "spinners", "%s spinners", "writers", "%s writers",
      "bytesPerSecond", "cap %s", "delayMs", "delay %s ms", "jitterMs", "jitter %s ms");
  public static final String NONE = "none";

  /**
   * @param label the faults in force, each with its parameters, or {@code none}
   * @param nodes the node indexes it was measured on
   * @param mapSeconds the durations of its map attempts, start to end
   * @param median their median with a bootstrap interval
   * @param slowdown the median against the reference setting's median, with a bootstrap interval (each
   *     side resampled on its own); null with no map to compare
   */
  public record Setting(String label, List<Integer> nodes, double[] mapSeconds, double median, Interval medianInterval,
      Double slowdown, Interval slowdownInterval) {}

  public boolean isEmpty() {
    return settings.isEmpty() || settings.stream().allMatch(s -> NONE.equals(s.label()));
  }

  public static NodeSpeeds of(List<RunRecord> records) {
    List<RunRecord> unspeculated = records.stream()
        .filter(r -> "false".equals(r.hadoop().get("mapreduce.map.speculative"))).toList();
    List<RunRecord> measured = unspeculated.isEmpty() ? records : unspeculated;
    String source = unspeculated.isEmpty()
        ? "every run's succeeded maps (no run had map speculation off: maps a backup beat are missing)"
        : unspeculated.size() + " run(s) with map speculation off";
    Map<String, List<Double>> seconds = new TreeMap<>();
    Map<String, Set<Integer>> nodes = new TreeMap<>();
    for (RunRecord r : measured) {
      for (AttemptRecord a : r.attempts()) {
        if (!"MAP".equals(a.type()) || !"SUCCEEDED".equals(a.state()) || a.node() == null || a.startMs() == null
            || a.finishMs() == null) {
          continue;
        }
        String label = setting(r, a);
        if (label == null) {
          continue;
        }
        seconds.computeIfAbsent(label, k -> new ArrayList<>()).add((a.finishMs() - a.startMs()) / 1000.0);
        nodes.computeIfAbsent(label, k -> new java.util.TreeSet<>()).add(a.node());
      }
    }
    // Against unslowed nodes; where every node is slowed (each given a machine's share, say), against
    // the setting most maps ran under, which is then the suite's common ground.
    String reference = seconds.containsKey(NONE) ? NONE : seconds.entrySet().stream()
        .max(java.util.Map.Entry.<String, List<Double>>comparingByValue(java.util.Comparator.comparingInt(List::size))
            .thenComparing(java.util.Map.Entry.comparingByKey(java.util.Comparator.reverseOrder())))
        .map(java.util.Map.Entry::getKey).orElse(null);
    double[] base = reference == null ? null : values(seconds.get(reference));
    List<Setting> out = new ArrayList<>();
    List<String> labels = new ArrayList<>(seconds.keySet());
    labels.sort((x, y) -> x.equals(reference) ? -1 : y.equals(reference) ? 1 : x.compareTo(y));
    for (String label : labels) {
      double[] s = values(seconds.get(label));
      double median = Bootstrap.median(s);
      Double slowdown = base == null ? null : median / Bootstrap.median(base);
      // the reference row is 1 by definition, with no interval
      Interval ratio = base == null || label.equals(reference) ? Interval.UNKNOWN
          : Bootstrap.DEFAULT.ratio(base, s, Bootstrap::median);
      out.add(new Setting(label, List.copyOf(nodes.get(label)), s, median,
          Bootstrap.DEFAULT.interval(s, Bootstrap::median), slowdown, ratio));
    }
    return new NodeSpeeds(source, reference, List.copyOf(out));
  }

  /** The slowing faults on the attempt's node for its whole run, or null when that changed while it ran. */
  private static String setting(RunRecord r, AttemptRecord a) {
    List<String> held = new ArrayList<>();
    for (FaultEvent f : r.faults()) {
      if (f.node() != a.node() || f.injectedMs() == null) {
        continue;
      }
      long healed = f.healedMs() == null ? Long.MAX_VALUE : f.healedMs();
      if (f.injectedMs() >= a.finishMs() || healed <= a.startMs()) {
        continue; // not in force while it ran
      }
      // faults that end tasks (a crash) leave no speed to measure
      if (!f.effect().slowsNode() || f.injectedMs() > a.startMs() || healed < a.finishMs()) {
        return null; // a fault that ends tasks, or a setting that changed during the attempt
      }
      held.add(describe(f));
    }
    return held.isEmpty() ? NONE : held.stream().sorted().collect(Collectors.joining(" + "));
  }

  /** "slow-node cpu 0.25 cores, read 10 MB/s, write 10 MB/s": the kind and its parameters. */
  static String describe(FaultEvent f) {
    List<String> parts = new ArrayList<>();
    new TreeMap<>(f.detail()).forEach((k, v) -> {
      String format = PARAMETERS.get(k);
      if (format != null) {
        parts.add(String.format(Locale.ROOT, format, k.endsWith("BytesPerSecond") || k.equals("bytesPerSecond")
            ? rate(v) : v));
      }
    });
    return parts.isEmpty() ? f.kind() : f.kind() + " " + String.join(", ", parts);
  }

  private static String rate(String bytesPerSecond) {
    try {
      double b = Double.parseDouble(bytesPerSecond);
      return b >= 1 << 20 ? new java.math.BigDecimal(b / (1 << 20)).round(new java.math.MathContext(3))
          .stripTrailingZeros().toPlainString() + " MB/s" : String.format(Locale.ROOT, "%.0f B/s", b);
    } catch (NumberFormatException e) {
      return bytesPerSecond;
    }
  }

  private static double[] values(List<Double> list) {
    return list.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
