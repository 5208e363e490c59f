package faultbed.results.compare;

import faultbed.results.Distribution;
import faultbed.results.stats.Bootstrap;
import faultbed.results.stats.Comparison;
import faultbed.results.stats.GateThresholds;
import faultbed.results.stats.Interval;
import faultbed.results.stats.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Variant-by-variant comparison of a candidate suite against a baseline suite. */
public record SuiteComparison(String baselineSource, String candidateSource, GateThresholds thresholds,
    Bootstrap bootstrap, List<Comparison> comparisons) {

  public SuiteComparison {
    comparisons = List.copyOf(comparisons);
  }

  /**
   * Compares {@code baselineVariant} of the baseline with {@code candidateVariant} of the
   * candidate; when both are null, every variant the two have in common, by name.
   *
   * @throws SampleSet.InvalidSampleSource when a named variant is missing, nothing is in common, or
   *     a baseline variant has no successful run
   */
  public static SuiteComparison of(SampleSet baseline, SampleSet candidate, String baselineVariant,
      String candidateVariant, GateThresholds thresholds, Bootstrap bootstrap) {
    List<VariantSample[]> pairs = new ArrayList<>();
    if (baselineVariant == null && candidateVariant == null) {
      for (VariantSample b : baseline.variants()) {
        candidate.variant(b.variant()).ifPresent(c -> pairs.add(new VariantSample[] {b, c}));
      }
      if (pairs.isEmpty()) {
        throw new SampleSet.InvalidSampleSource("no variant in common: baseline has "
            + baseline.variantNames() + ", candidate has " + candidate.variantNames()
            + "; choose with --variant or --baseline-variant/--candidate-variant");
      }
    } else {
      pairs.add(new VariantSample[] {pick(baseline, baselineVariant, "baseline"),
          pick(candidate, candidateVariant, "candidate")});
    }
    List<Comparison> comparisons = new ArrayList<>();
    for (VariantSample[] p : pairs) {
      if (p[0].completionSeconds().isEmpty()) {
        throw new SampleSet.InvalidSampleSource("baseline variant " + p[0].variant()
            + ": no successful runs to compare against");
      }
      String label = p[0].variant().equals(p[1].variant()) ? p[0].variant()
          : p[0].variant() + " -> " + p[1].variant();
      comparisons.add(Comparison.of(label, p[0].times(), p[0].failed(), label, p[1].times(),
          p[1].failed(), thresholds, bootstrap));
    }
    return new SuiteComparison(baseline.source(), candidate.source(), thresholds, bootstrap, comparisons);
  }

  private static VariantSample pick(SampleSet set, String name, String side) {
    if (name == null) {
      throw new SampleSet.InvalidSampleSource(side + " variant: expected a name when the other side names one");
    }
    return set.variant(name).orElseThrow(() -> new SampleSet.InvalidSampleSource(side
        + " variant: expected one of " + set.variantNames() + ", got " + name));
  }

  public boolean regression() {
    return comparisons.stream().anyMatch(c -> c.verdict() == Verdict.WORSE);
  }

  /** The comparison as text for a terminal, one block per variant, then the gate's answer. */
  public String table() {
    StringBuilder sb = new StringBuilder();
    sb.append("baseline:  ").append(baselineSource).append('\n');
    sb.append("candidate: ").append(candidateSource).append('\n');
    sb.append(format("thresholds: %s; bootstrap %d resamples, %.0f%% intervals, seed %d%n",
        thresholds.describe(), bootstrap.resamples(), bootstrap.level() * 100, bootstrap.seed()));
    for (Comparison c : comparisons) {
      sb.append('\n').append(c.baseline().label()).append('\n');
      sb.append(format("  %-14s %14s %14s%n", "", "baseline", "candidate"));
      sb.append(format("  %-14s %14s %14s%n", "runs (failed)", runs(c.baseline()), runs(c.candidate())));
      Distribution b = c.baseline().times();
      Distribution k = c.candidate().times();
      if (c.median() != null) {
        sb.append(effectLine("median s", b.median(), k.median(), c.median()));
        sb.append(effectLine("p90 s", b.p90(), k.p90(), c.p90()));
        sb.append(format("  Mann-Whitney U %.1f of %d pairs, p %.3g; Cliff's delta %+.2f (positive: candidate slower)%n",
            c.mannWhitneyU(), b.n() * k.n(), c.pValue(), c.cliffsDelta()));
      }
      sb.append(format("  failed jobs: one-sided Fisher p %.3g%n", c.failurePValue()));
      if (c.smallestPossiblePValue() >= thresholds.alpha()) {
        sb.append(format("  note: with %d and %d successful runs no difference in time can reach alpha %s"
            + " (smallest possible p %.3g); run more%n", b.n(), k.n(), thresholds.alpha(), c.smallestPossiblePValue()));
      }
      sb.append("  verdict: ").append(c.verdict()).append(" (").append(c.reason()).append(")\n");
    }
    sb.append('\n').append(regression() ? "REGRESSION" : "no regression").append('\n');
    return sb.toString();
  }

  private static String runs(Comparison.Side s) {
    return s.runs() + " (" + s.failed() + ")";
  }

  private static String effectLine(String name, double base, double cand, Comparison.Effect e) {
    return format("  %-14s %14.2f %14.2f   diff %+.2f %s   ratio %.3f %s%n", name, base, cand,
        e.difference(), interval("%+.2f", e.differenceInterval()), e.ratio(),
        interval("%.3f", e.ratioInterval()));
  }

  private static String interval(String number, Interval i) {
    return "[" + format(number, i.low()) + ", " + format(number, i.high()) + "]";
  }

  private static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
