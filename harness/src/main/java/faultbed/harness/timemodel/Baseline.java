package faultbed.harness.timemodel;

import faultbed.results.RunRecord;
import faultbed.results.RunRecord.FaultEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The condition of a whole cluster rather than a fault of one node: slowing faults that every node
 * has, alike, from the job's start to its end (as a suite gives each node a machine's share of CPU
 * and disk). A model fitted from runs that all had the same condition takes it as the cluster's: its
 * tasks' work is what they did under it, and the simulation applies its CPU limits but no residual for
 * it; a scenario with another condition cannot use that model. Asked of records by the fit and of
 * timelines by the simulation, so the two agree.
 */
public final class Baseline {
  /**
   * A slowing fault as this rule sees it.
   *
   * @param startsAtZero due at the job's start
   * @param wholeRun     not healed before the job ended
   */
  public record Condition(String kind, int node, boolean startsAtZero, boolean wholeRun, Map<String, String> detail) {
    /** What it does, not where: the kind and its settings. */
    public String description() {
      StringBuilder s = new StringBuilder(kind);
      new TreeMap<>(detail).forEach((k, v) -> {
        if (!k.equals("injectionMs")) {
          s.append(' ').append(k).append('=').append(v);
        }
      });
      return s.toString();
    }
  }

  private Baseline() {}

  /** The descriptions every one of {@code nodes} nodes has from start to end, sorted; empty when none. */
  public static List<String> of(int nodes, List<Condition> slowing) {
    if (nodes <= 0) {
      return List.of();
    }
    Map<String, Set<Integer>> where = new HashMap<>();
    for (Condition c : slowing) {
      if (c.startsAtZero() && c.wholeRun() && c.node() >= 0) {
        where.computeIfAbsent(c.description(), k -> new TreeSet<>()).add(c.node());
      }
    }
    List<String> baseline = new ArrayList<>();
    where.forEach((description, on) -> {
      if (on.size() == nodes && on.stream().allMatch(n -> n < nodes)) {
        baseline.add(description);
      }
    });
    return List.copyOf(new TreeSet<>(baseline));
  }

  /** The run's condition: its slowing faults, read from its record. */
  static List<String> of(RunRecord r) {
    int nodes = r.cluster() == null ? 0 : r.cluster().nodes();
    return of(nodes, r.faults().stream().filter(f -> slowsWork(f) && f.injectedMs() != null)
        .map(f -> condition(r, f)).toList());
  }

  /** Whether the fault is part of the condition {@code baseline} describes. */
  static boolean partOf(List<String> baseline, RunRecord r, FaultEvent f) {
    if (baseline.isEmpty() || !slowsWork(f) || f.injectedMs() == null) {
      return false;
    }
    Condition c = condition(r, f);
    return c.startsAtZero() && c.wholeRun() && baseline.contains(c.description());
  }

  /** A fault on a link slows what crosses it, not the node's work: the simulation times it itself. */
  private static boolean slowsWork(FaultEvent f) {
    return f.effect().slowsNode() && !TimeModel.onLinks(f.kind());
  }

  private static Condition condition(RunRecord r, FaultEvent f) {
    Long end = r.job() == null ? null : r.job().finishedMs();
    boolean wholeRun = f.healedMs() == null || end != null && f.healedMs() >= end;
    return new Condition(f.kind(), f.node(), f.scheduledMs() != null && f.scheduledMs() == 0, wholeRun, f.detail());
  }
}
