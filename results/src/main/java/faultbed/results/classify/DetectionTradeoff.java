package faultbed.results.classify;

import faultbed.results.Distribution;
import faultbed.results.FaultEffect;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.FaultEvent;
import faultbed.results.RunRecord.NodeTransition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Seed 003's trade-off for a sweep of failure-detection settings: per variant, how fast the cluster
 * reacted to a node failure and what the reaction cost. Under a crash, fast is good; under a freeze
 * shorter than the thresholds (the node comes back), every reaction is needless work.
 *
 * <p>A variant's <em>setting</em> is the Hadoop properties in which its runs differ from most of the
 * suite's variants, so a crash and a freeze variant with the same overrides line up on one row.
 */
public record DetectionTradeoff(List<Point> points) {
  public DetectionTradeoff {
    points = List.copyOf(points);
  }

  /** One variant: its setting, its fault kind and its runs' reactions and costs. */
  public record Point(String variant, String setting, String faultKind, FaultEffect faultEffect, int runs, int failedJobs,
      int nodeDeclaredUnusable, Distribution unusableAfterSeconds, Distribution firstReactionSeconds,
      Distribution outputsRerunAfterSeconds, double reexecutionsPerRun, double finishedMapsRerunPerRun,
      double reducersLostPerRun, Distribution jobSeconds) {}

  /** What one run shows; null fields when the run had no such event. */
  record RunReaction(Long unusableAfterMs, Long firstReactionMs, Long outputsRerunAfterMs, int reexecutions,
      int finishedMapsRerun, int reducersLost) {}

  /** The setting of variants that override nothing the others set. */
  private static final String DEFAULTS = "defaults";

  /** Every variant whose runs took a node down (crash, stop, blackhole, freeze), in the order they ran. */
  public static DetectionTradeoff of(List<RunRecord> records) {
    Map<String, List<RunRecord>> byVariant = new LinkedHashMap<>();
    List<RunRecord> inOrder = records.stream()
        .sorted(Comparator.comparing(RunRecord::startedAt, Comparator.nullsLast(Comparator.naturalOrder()))).toList();
    for (RunRecord r : inOrder) {
      if (failure(r).isPresent()) {
        byVariant.computeIfAbsent(r.variant(), v -> new ArrayList<>()).add(r);
      }
    }
    Map<String, Map<String, String>> settings = new LinkedHashMap<>();
    byVariant.forEach((v, runs) -> settings.put(v, jobSettings(runs.get(0).hadoop())));
    Map<String, String> usual = usualValues(settings.values());
    List<Point> points = new ArrayList<>();
    byVariant.forEach((variant, runs) -> points.add(point(variant, label(settings.get(variant), usual), runs)));
    return new DetectionTradeoff(points);
  }

  /**
   * The record's settings but how the cluster was wired: older records kept which proxy fronted
   * the shuffle ({@code faultbed.shuffle.*}), which differs by cluster start and by network
   * backend and is no setting a user compares.
   */
  private static Map<String, String> jobSettings(Map<String, String> hadoop) {
    Map<String, String> out = new LinkedHashMap<>(hadoop);
    out.keySet().removeIf(k -> k.startsWith("faultbed.shuffle."));
    return out;
  }

  /** True when the suite compares at least two settings: one setting alone is no trade-off. */
  public boolean isSweep() {
    return points.stream().map(Point::setting).distinct().count() >= 2;
  }

  /** Fault kinds in suite order: one table each. */
  public List<String> faultKinds() {
    return points.stream().map(Point::faultKind).distinct().toList();
  }

  public List<Point> points(String faultKind) {
    return points.stream().filter(p -> p.faultKind().equals(faultKind)).toList();
  }

  private static Point point(String variant, String setting, List<RunRecord> runs) {
    List<RunReaction> reactions = runs.stream().map(DetectionTradeoff::reaction).toList();
    int failed = (int) runs.stream().filter(r -> r.job() == null || !r.job().succeeded()).count();
    double[] unusable = reactions.stream().map(RunReaction::unusableAfterMs).filter(Objects::nonNull)
        .mapToDouble(ms -> ms / 1000.0).toArray();
    double[] reaction = seconds(reactions.stream().map(RunReaction::firstReactionMs).toList());
    double[] outputs = seconds(reactions.stream().map(RunReaction::outputsRerunAfterMs).toList());
    double[] jobs = runs.stream().filter(r -> r.job() != null && r.job().succeeded())
        .flatMap(r -> r.completionSeconds().stream()).mapToDouble(Double::doubleValue).toArray();
    FaultEvent fault = failure(runs.get(0)).orElseThrow();
    return new Point(variant, setting, fault.kind(), fault.effect(), runs.size(), failed,
        unusable.length, Distribution.of(unusable), Distribution.of(reaction), Distribution.of(outputs),
        reactions.stream().mapToInt(RunReaction::reexecutions).average().orElse(0),
        reactions.stream().mapToInt(RunReaction::finishedMapsRerun).average().orElse(0),
        reactions.stream().mapToInt(RunReaction::reducersLost).average().orElse(0),
        Distribution.of(jobs));
  }

  private static double[] seconds(List<Long> ms) {
    return ms.stream().filter(Objects::nonNull).mapToDouble(v -> v / 1000.0).toArray();
  }

  /**
   * Reaction: the first attempt started after the fault for a task the failed node had started (a
   * re-run or a speculative backup, on any node: a frozen node comes back and may get the re-run).
   * Outputs re-run: the first such attempt of a map the node had finished, when its lost output
   * started to be recomputed. Finished maps re-run: maps done on the node before the fault and
   * started again. Reducers lost: reduce attempts that failed, or were killed other than by losing a
   * race to a sibling that had already succeeded.
   */
  static RunReaction reaction(RunRecord run) {
    FaultEvent f = failure(run).orElseThrow();
    long t = f.injectedMs();
    int node = f.node();
    Long unusable = run.nodeTransitions().stream()
        .filter(tr -> tr.node() == node && tr.atMs() >= t && DinuNgClassifier.UNUSABLE.contains(tr.to()))
        .map(NodeTransition::atMs).min(Comparator.naturalOrder()).map(at -> at - t).orElse(null);
    Map<String, List<AttemptRecord>> byTask = run.attempts().stream()
        .collect(Collectors.groupingBy(AttemptRecord::taskId, TreeMap::new, Collectors.toList()));
    Long first = null;
    Long outputs = null;
    int reexecutions = 0;
    int finishedMaps = 0;
    for (List<AttemptRecord> task : byTask.values()) {
      boolean nodeHadIt = task.stream().anyMatch(a -> onNode(a, node) && a.startMs() != null && a.startMs() <= t);
      if (!nodeHadIt) {
        continue;
      }
      List<AttemptRecord> after = task.stream()
          .filter(a -> a.startMs() != null && a.startMs() > t).toList();
      reexecutions += after.size();
      for (AttemptRecord a : after) {
        first = first == null ? a.startMs() - t : Math.min(first, a.startMs() - t);
      }
      // a map that had succeeded by t, whatever became of it; older records: one that ended by t
      // (a map failed by fetch-failure reports keeps its success time as its end)
      boolean finishedMap = task.stream().anyMatch(a -> onNode(a, node) && "MAP".equals(a.type())
          && (a.succeededMs() != null ? a.succeededMs() <= t : a.finishMs() != null && a.finishMs() <= t));
      if (finishedMap && !after.isEmpty()) {
        finishedMaps++;
        long rerun = after.stream().mapToLong(AttemptRecord::startMs).min().orElseThrow() - t;
        outputs = outputs == null ? rerun : Math.min(outputs, rerun);
      }
    }
    int reducersLost = 0;
    for (List<AttemptRecord> task : byTask.values()) {
      Function<AttemptRecord, Boolean> lost = a -> "FAILED".equals(a.state())
          || "KILLED".equals(a.state()) && task.stream().noneMatch(o -> o != a && "SUCCEEDED".equals(o.state())
              && o.finishMs() != null && a.finishMs() != null && o.finishMs() <= a.finishMs());
      reducersLost += (int) task.stream().filter(a -> "REDUCE".equals(a.type()) && lost.apply(a)).count();
    }
    return new RunReaction(unusable, first, outputs, reexecutions, finishedMaps, reducersLost);
  }

  private static boolean onNode(AttemptRecord a, int node) {
    return a.node() != null && a.node() == node;
  }

  private static Optional<FaultEvent> failure(RunRecord r) {
    return r.faults().stream()
        .filter(f -> f.injectedMs() != null && f.effect().stopsNode()).findFirst();
  }

  /** Per property, the value most variants have (ties: the first seen). */
  private static Map<String, String> usualValues(java.util.Collection<Map<String, String>> settings) {
    Map<String, Map<String, Integer>> counts = new TreeMap<>();
    for (Map<String, String> s : settings) {
      s.forEach((k, v) -> counts.computeIfAbsent(k, x -> new LinkedHashMap<>()).merge(v, 1, Integer::sum));
    }
    Map<String, String> usual = new TreeMap<>();
    counts.forEach((k, values) -> usual.put(k, values.entrySet().stream()
        .max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElseThrow()));
    return usual;
  }

  private static String label(Map<String, String> settings, Map<String, String> usual) {
    String diff = usual.keySet().stream().filter(k -> !Objects.equals(settings.get(k), usual.get(k)))
        .map(k -> k + "=" + (settings.get(k) == null ? "(unset)" : settings.get(k)))
        .collect(Collectors.joining(", "));
    return diff.isEmpty() ? DEFAULTS : diff;
  }
}
