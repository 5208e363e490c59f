package faultbed.results;

import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.PlacementEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a suite's tasks ran and what a network-aware placement policy (the scenario's
 * {@code placement}) did, per variant, from the records' attempts and {@code placementEvents}: the
 * reduces each node ran, the maps that ran away from their split, the containers the policy turned
 * away, and how well its expected completion times foretold the maps it placed (a map's time from
 * its placement to its end over what the policy expected). Shown for a suite where some variant
 * placed by a policy, every variant alike, so stock placement is seen beside it.
 *
 * @param variants one entry per variant, in the records' order
 */
public record TaskPlacement(List<Variant> variants) {

  /**
   * @param policy          the placement policy's name, or "stock"
   * @param runs            successful runs
   * @param reducesByNode   succeeded reduce attempts by node, over the runs
   * @param mapsOffSplit    first map attempts that ran away from their split, over the runs
   * @param maps            first map attempts with a locality, over the runs
   * @param releasedPerRun  per run, containers the policy released
   * @param foretold        per placed map, its actual time from placement to end over its expected completion
   */
  public record Variant(String variant, String policy, int runs, Map<Integer, Integer> reducesByNode, int mapsOffSplit,
      int maps, double[] releasedPerRun, double[] foretold) implements RunMedians {
  }

  public boolean isEmpty() {
    return variants.isEmpty();
  }

  public static TaskPlacement of(List<RunRecord> records) {
    if (records.stream().noneMatch(r -> r.mapPlacement() != null)) {
      return new TaskPlacement(List.of());
    }
    List<Variant> out = new ArrayList<>();
    SuiteSummary.byVariant(records).forEach((variant, runs) -> {
      Map<Integer, Integer> reduces = new TreeMap<>();
      int off = 0;
      int maps = 0;
      List<Double> released = new ArrayList<>();
      List<Double> foretold = new ArrayList<>();
      String policy = "stock";
      int succeeded = 0;
      for (RunRecord r : runs) {
        if (r.job() == null || !r.job().succeeded()) {
          continue;
        }
        succeeded++;
        if (r.mapPlacement() != null) {
          policy = r.mapPlacement();
          released.add((double) r.placementEvents().stream().filter(e -> e.event().equals("released")).count());
        }
        Map<String, AttemptRecord> byId = new java.util.HashMap<>();
        for (AttemptRecord a : r.attempts()) {
          byId.put(a.attemptId(), a);
          if ("REDUCE".equals(a.type()) && "SUCCEEDED".equals(a.state()) && a.node() != null) {
            reduces.merge(a.node(), 1, Integer::sum);
          }
          if ("MAP".equals(a.type()) && a.attempt() == 0 && a.locality() != null) {
            maps++;
            if (!"NODE_LOCAL".equals(a.locality())) {
              off++;
            }
          }
        }
        for (PlacementEvent e : r.placementEvents()) {
          AttemptRecord a = e.attempt() == null ? null : byId.get(e.attempt());
          if (e.event().equals("assigned") && a != null && "SUCCEEDED".equals(a.state()) && a.finishMs() != null
              && e.expectedMs() != null && e.expectedMs() > 0) {
            foretold.add((a.finishMs() - e.atMs()) / e.expectedMs());
          }
        }
      }
      if (succeeded > 0) {
        out.add(new Variant(variant, policy, succeeded, reduces, off, maps, array(released), array(foretold)));
      }
    });
    return new TaskPlacement(out);
  }

  private static double[] array(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
