package faultbed.results;

import faultbed.results.stats.Bootstrap;
import faultbed.results.stats.QuantileIntervals;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Completion-time distribution per variant of one suite, computed from run records alone.
 * Failed jobs are counted but kept out of the time distribution, which describes successful runs.
 */
public record SuiteSummary(String scenario, int runs, List<VariantSummary> variants) {

  /** {@code completionIntervals}: bootstrap intervals for the median and p90 (absent in older summaries). */
  public record VariantSummary(String variant, int runs, int succeeded, int failed,
      Distribution completionSeconds, QuantileIntervals completionIntervals) {}

  public static SuiteSummary of(List<RunRecord> records) {
    List<VariantSummary> variants = new ArrayList<>();
    byVariant(records).forEach((variant, runs) -> {
      double[] times = completionTimes(runs);
      int ok = times.length;
      variants.add(new VariantSummary(variant, runs.size(), ok, runs.size() - ok, Distribution.of(times),
          QuantileIntervals.of(times, Bootstrap.DEFAULT)));
    });
    String scenario = records.isEmpty() ? "" : records.get(0).scenario();
    return new SuiteSummary(scenario, records.size(), variants);
  }

  /** Runs grouped by variant, variants in order of first appearance. */
  public static Map<String, List<RunRecord>> byVariant(List<RunRecord> records) {
    Map<String, List<RunRecord>> byVariant = new LinkedHashMap<>();
    for (RunRecord r : records) {
      byVariant.computeIfAbsent(r.variant(), k -> new ArrayList<>()).add(r);
    }
    return byVariant;
  }

  /** Completion times in seconds of the runs whose job succeeded. */
  public static double[] completionTimes(List<RunRecord> runs) {
    return runs.stream().filter(r -> r.job() != null && r.job().succeeded())
        .flatMap(r -> r.completionSeconds().stream()).mapToDouble(Double::doubleValue).toArray();
  }

  /** A fixed-width table for terminals. */
  public String table() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("%-18s %4s %4s %8s %8s %8s %8s %8s %8s%n", "variant", "n", "fail",
        "min s", "median s", "mean s", "p90 s", "p99 s", "max s"));
    for (VariantSummary v : variants) {
      Distribution d = v.completionSeconds();
      sb.append(String.format("%-18s %4d %4d %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f%n", v.variant(),
          v.runs(), v.failed(), d.min(), d.median(), d.mean(), d.p90(), d.p99(), d.max()));
    }
    return sb.toString();
  }
}
