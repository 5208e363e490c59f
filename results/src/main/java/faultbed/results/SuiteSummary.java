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

  /**
   * {@code completionIntervals}: bootstrap intervals for the median and p90 (absent in older summaries);
   * {@code speculation}: backups summed over the variant's runs, null when its speculator was off.
   */
  public record VariantSummary(String variant, int runs, int succeeded, int failed,
      Distribution completionSeconds, QuantileIntervals completionIntervals, SpeculationTotals speculation) {}

  /**
   * Speculation over a variant's runs: backups asked for, started, won, lost, refused by the policy
   * for landing on a slow node, wasted container-seconds, and how many started backups ran on a node
   * the scenario had slowed on purpose.
   */
  public record SpeculationTotals(String policy, int asked, int launched, int won, int lost, int refusedOnNode,
      double wastedContainerSeconds, int onSlowedNodes) {

    static SpeculationTotals of(List<RunRecord> runs) {
      String policy = null;
      int asked = 0, launched = 0, won = 0, lost = 0, refused = 0, onSlowed = 0;
      long wasted = 0;
      for (RunRecord r : runs) {
        if (r.speculation() == null || "off".equals(r.speculation().policy())) {
          continue;
        }
        policy = r.speculation().policy();
        SpeculationOutcome o = SpeculationOutcome.of(r);
        asked += o.asked();
        launched += o.launched();
        won += o.won();
        lost += o.lost();
        refused += o.refusedOnNode();
        wasted += o.wastedContainerMs();
        onSlowed += (int) o.backups().stream().filter(SpeculationOutcome.BackupRun::nodeFaulted).count();
      }
      return policy == null ? null
          : new SpeculationTotals(policy, asked, launched, won, lost, refused, wasted / 1000.0, onSlowed);
    }
  }

  public static SuiteSummary of(List<RunRecord> records) {
    List<VariantSummary> variants = new ArrayList<>();
    byVariant(records).forEach((variant, runs) -> {
      double[] times = completionTimes(runs);
      int ok = times.length;
      variants.add(new VariantSummary(variant, runs.size(), ok, runs.size() - ok, Distribution.of(times),
          QuantileIntervals.of(times, Bootstrap.DEFAULT), SpeculationTotals.of(runs)));
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
    if (variants.stream().anyMatch(v -> v.speculation() != null)) {
      sb.append(System.lineSeparator()).append(speculationTable());
    }
    return sb.toString();
  }

  /**
   * Speculators side by side: median and p90 with their bootstrap intervals, the median against the
   * variant with speculation off (when there is one), and what the backups did.
   */
  public String speculationTable() {
    VariantSummary off = variants.stream().filter(v -> v.speculation() == null && v.succeeded() > 0)
        .findFirst().orElse(null);
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("%-26s %-26s %3s %19s %19s %9s %5s %5s %4s %4s %5s %7s%n", "variant", "speculator", "n",
        "median s [95% CI]", "p90 s [95% CI]", "vs off", "asked", "start", "won", "lost", "refsd", "waste s"));
    for (VariantSummary v : variants) {
      SpeculationTotals t = v.speculation();
      Distribution d = v.completionSeconds();
      QuantileIntervals ci = v.completionIntervals();
      String ratio = off == null || v == off ? "" : String.format("%+.0f%%",
          (d.median() / off.completionSeconds().median() - 1) * 100);
      sb.append(String.format("%-26s %-26s %3d %19s %19s %9s", v.variant(), t == null ? "off" : t.policy(),
          v.succeeded(), withInterval(d.median(), ci == null ? null : ci.median()),
          withInterval(d.p90(), ci == null ? null : ci.p90()), ratio));
      if (t != null) {
        sb.append(String.format(" %5d %5d %4d %4d %5d %7.1f", t.asked(), t.launched(), t.won(), t.lost(),
            t.refusedOnNode(), t.wastedContainerSeconds()));
      }
      sb.append(System.lineSeparator());
    }
    return sb.toString();
  }

  private static String withInterval(double value, faultbed.results.stats.Interval i) {
    return i == null || Double.isNaN(i.low()) ? String.format("%.1f", value)
        : String.format("%.1f [%.1f, %.1f]", value, i.low(), i.high());
  }
}
