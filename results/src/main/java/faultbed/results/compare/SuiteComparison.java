package faultbed.results.compare;

import faultbed.results.Distribution;
import faultbed.results.stats.Analysis;
import faultbed.results.stats.Bootstrap;
import faultbed.results.stats.Comparison;
import faultbed.results.stats.Comparison.Design;
import faultbed.results.stats.Format;
import faultbed.results.stats.GateThresholds;
import faultbed.results.stats.Families;
import faultbed.results.stats.Holm;
import faultbed.results.stats.Interval;
import faultbed.results.stats.Verdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Variant-by-variant comparison of a candidate suite against a baseline suite. Two variants of one
 * suite that ran in blocks are compared pair by pair; all else as independent samples. When one
 * call compares several variants, their p-values are Holm-adjusted and verdicts use those.
 */
public record SuiteComparison(String baselineSource, String candidateSource, Analysis analysis,
    List<Comparison> comparisons, List<Pair> pairs) {

  /** Which baseline variant was compared with which candidate variant, in the order of {@code comparisons}. */
  public record Pair(String baselineVariant, String candidateVariant) {}

  public SuiteComparison {
    comparisons = List.copyOf(comparisons);
    pairs = List.copyOf(pairs);
  }

  /**
   * Compares {@code baselineVariant} of the baseline with {@code candidateVariant} of the
   * candidate; when both are null, every variant the two have in common, by name.
   *
   * @throws SampleSet.InvalidSampleSource when a named variant is missing, nothing is in common, or
   *     a baseline variant has no successful run
   */
  public static SuiteComparison of(SampleSet baseline, SampleSet candidate, String baselineVariant,
      String candidateVariant, Analysis analysis) {
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
    return compare(baseline, candidate, pairs, analysis);
  }

  /**
   * Compares every variant of {@code candidate} but {@code variant} with the baseline's
   * {@code variant}: a suite's variants against its reference, in one family.
   */
  public static SuiteComparison allAgainst(SampleSet baseline, String variant, SampleSet candidate,
      Analysis analysis) {
    return adjustedTogether(List.of(againstOne(baseline, variant, candidate, "")), analysis).get(0);
  }

  /** Every variant of {@code candidate} but {@code variant} paired with the baseline's; {@code where} prefixes errors. */
  private static Family againstOne(SampleSet baseline, String variant, SampleSet candidate, String where) {
    VariantSample reference = pick(baseline, variant, where + "baseline");
    List<VariantSample[]> pairs = candidate.variants().stream().filter(c -> !c.variant().equals(variant))
        .map(c -> new VariantSample[] {reference, c}).toList();
    if (pairs.isEmpty()) {
      throw new SampleSet.InvalidSampleSource(where + "candidate has no variant but " + variant + " to compare");
    }
    return new Family(baseline, candidate, pairs);
  }

  /**
   * Every variant of each suite against that suite's own {@code variants.get(i)}, all comparisons
   * of all suites in one family: their p-values are Holm-adjusted together, so the chance that any
   * of them says WORSE on times when nothing changed is at most alpha, however many suites a gate
   * runs. One result per suite, in the order given.
   */
  public static List<SuiteComparison> allAgainst(List<SampleSet> suites, List<String> variants, Analysis analysis) {
    List<Family> families = new ArrayList<>();
    for (int i = 0; i < suites.size(); i++) {
      families.add(againstOne(suites.get(i), variants.get(i), suites.get(i), suites.get(i).source() + ": "));
    }
    return adjustedTogether(families, analysis);
  }

  /** Variant pairs of one baseline and one candidate. */
  private record Family(SampleSet baseline, SampleSet candidate, List<VariantSample[]> pairs) {}

  private static SuiteComparison compare(SampleSet baseline, SampleSet candidate, List<VariantSample[]> pairs,
      Analysis analysis) {
    return adjustedTogether(List.of(new Family(baseline, candidate, pairs)), analysis).get(0);
  }

  /**
   * Several families in one document: every variant of {@code suite} against each of
   * {@code references} in turn, one family per reference; Holm within each family and
   * Benjamini-Hochberg across them ({@link Families}). One result per family, in the order given.
   */
  public static List<SuiteComparison> families(SampleSet suite, List<String> references, Analysis analysis) {
    List<String> everyOther = new ArrayList<>();
    references.forEach(r -> everyOther.add(null));
    return families(references.stream().map(r -> suite).toList(), references, everyOther, analysis);
  }

  /**
   * Several families in one document, each a suite against one of its variants: every other variant of
   * {@code suites.get(i)} against its {@code references.get(i)}, or only the variant {@code only.get(i)}
   * where that is not null (a family of one comparison); Holm within each family and
   * Benjamini-Hochberg across them ({@link Families}). One result per family, in the order given.
   */
  public static List<SuiteComparison> families(List<SampleSet> suites, List<String> references, List<String> only,
      Analysis analysis) {
    boolean several = suites.stream().distinct().count() > 1; // errors name the suite when there are several
    List<Family> families = new ArrayList<>();
    for (int i = 0; i < suites.size(); i++) {
      SampleSet suite = suites.get(i);
      String where = several ? suite.source() + ": " : "";
      Family all = againstOne(suite, references.get(i), suite, where);
      String one = only.get(i);
      families.add(one == null ? all : new Family(suite, suite, List.<VariantSample[]>of(new VariantSample[] {
          all.pairs().get(0)[0], pick(suite, one, where + "candidate")})));
    }
    Analysis document = analysis.forFamilies(families.size());
    List<List<Comparison>> raw = families.stream()
        .map(f -> raw(f, document.forTests(f.pairs().size()))).toList();
    double alpha = analysis.thresholds().alpha();
    double[][] times = Families.adjust(alpha, raw.stream().map(SuiteComparison::timePValues).toArray(double[][]::new));
    double[][] failures = Families.adjust(alpha, raw.stream().map(SuiteComparison::failurePValues)
        .toArray(double[][]::new));
    List<SuiteComparison> results = new ArrayList<>();
    for (int f = 0; f < families.size(); f++) {
      results.add(adjusted(families.get(f), raw.get(f), times[f], failures[f]));
    }
    return results;
  }

  /** Compares every pair of every family, Holm-adjusting all their p-values as one family. */
  private static List<SuiteComparison> adjustedTogether(List<Family> families, Analysis analysis) {
    Analysis family = analysis.forTests(families.stream().mapToInt(f -> f.pairs().size()).sum());
    List<Comparison> raw = families.stream().flatMap(f -> raw(f, family).stream()).toList();
    double[] times = Holm.adjust(timePValues(raw));
    double[] failures = Holm.adjust(failurePValues(raw));
    List<SuiteComparison> results = new ArrayList<>();
    int from = 0;
    for (Family f : families) {
      int to = from + f.pairs().size();
      results.add(adjusted(f, raw.subList(from, to), Arrays.copyOfRange(times, from, to),
          Arrays.copyOfRange(failures, from, to)));
      from = to;
    }
    return results;
  }

  /** Each pair of the family compared, unadjusted. */
  private static List<Comparison> raw(Family f, Analysis analysis) {
    List<Comparison> raw = new ArrayList<>();
    for (VariantSample[] p : f.pairs()) {
      if (p[0].completionSeconds().isEmpty()) {
        throw new SampleSet.InvalidSampleSource("baseline variant " + p[0].variant()
            + ": no successful runs to compare against");
      }
      raw.add(compare(f.baseline(), f.candidate(), p[0], p[1], analysis));
    }
    return raw;
  }

  private static double[] timePValues(List<Comparison> raw) {
    return raw.stream().mapToDouble(c -> c.test() == null ? Double.NaN : c.test().pValue()).toArray();
  }

  private static double[] failurePValues(List<Comparison> raw) {
    return raw.stream().mapToDouble(Comparison::failurePValue).toArray();
  }

  private static SuiteComparison adjusted(Family f, List<Comparison> raw, double[] times, double[] failures) {
    List<Comparison> adjusted = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      adjusted.add(raw.get(i).adjusted(times[i], failures[i]));
    }
    return new SuiteComparison(f.baseline().source(), f.candidate().source(), raw.get(0).analysis(), adjusted,
        f.pairs().stream().map(p -> new Pair(p[0].variant(), p[1].variant())).toList());
  }

  /** Paired when both variants are of one suite and ran in blocks; otherwise independent samples. */
  private static Comparison compare(SampleSet baselineSet, SampleSet candidateSet, VariantSample b,
      VariantSample c, Analysis analysis) {
    String label = b.variant().equals(c.variant()) ? b.variant() : b.variant() + " -> " + c.variant();
    String why;
    if (!baselineSet.sameOrigin(candidateSet)) {
      why = "runs of different suites";
    } else if (b.variant().equals(c.variant())) {
      why = "the same runs on both sides";
    } else if (!b.blocked() || !c.blocked()) {
      why = "runs not in blocks";
    } else {
      BlockPairs pairs = BlockPairs.of(b, c);
      if (pairs.pairs() > 0) {
        return Comparison.paired(label, pairs.baseline(), pairs.candidate(), pairs.unpairedBlocks(),
            new Comparison.Tally(b.runs().size(), b.failed()), new Comparison.Tally(c.runs().size(), c.failed()),
            analysis);
      }
      why = "no block in which both jobs succeeded";
    }
    return Comparison.unpaired(label, why, b.times(), b.failed(), c.times(), c.failed(), analysis);
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
    GateThresholds thresholds = analysis.thresholds();
    Bootstrap bootstrap = analysis.bootstrap();
    StringBuilder sb = new StringBuilder();
    sb.append("baseline:  ").append(baselineSource).append('\n');
    sb.append("candidate: ").append(candidateSource).append('\n');
    sb.append(format("thresholds: %s; bootstrap %d resamples, %.0f%% intervals, seed %d%n",
        thresholds.describe(), bootstrap.resamples(), bootstrap.level() * 100, bootstrap.seed()));
    sb.append(format("power: the smallest slowdown the test sees %.0f%% of the time, %d simulations, seed %d%n",
        Comparison.POWER * 100, analysis.simulation().repetitions(), analysis.simulation().seed()));
    if (analysis.families() > 1) {
      sb.append(format("family: the %d comparisons below, Holm-adjusted within it; one of %d families in this"
          + " document, adjusted across them (Benjamini-Hochberg on each family's smallest Holm p, the selected"
          + " families' Holm p times families / selected: Benjamini and Bogomolov 2014)%n", analysis.tests(),
          analysis.families()));
    } else if (analysis.tests() > 1) {
      sb.append(format("%d comparisons: p-values Holm-adjusted; a lone change must reach alpha %s%n",
          analysis.tests(), level()));
    }
    for (Comparison c : comparisons) {
      sb.append('\n').append(c.baseline().label()).append(": ").append(design(c.design())).append('\n');
      sb.append(format("  %-14s %14s %14s%n", "", "baseline", "candidate"));
      sb.append(format("  %-14s %14s %14s%n", "runs (failed)", runs(c.baseline()), runs(c.candidate())));
      Distribution b = c.baseline().times();
      Distribution k = c.candidate().times();
      if (c.test() != null) {
        sb.append(effectLine("median s", b.median(), k.median(), c.median()));
        sb.append(effectLine("p90 s", b.p90(), k.p90(), c.p90()));
        String hl = format("Hodges-Lehmann x%.3f %s (exact %.1f%% interval)", c.shift().ratio(),
            interval("%.3f", c.shift().interval()), c.shift().confidence() * 100);
        String p = c.test().describeP() + holm(c.adjustedPValue());
        if (c.design() instanceof Design.Paired d) {
          sb.append(format("  per-block ratio: median x%.3f; %s%n", d.medianBlockRatio(), hl));
          sb.append(format("  %s W+ %.0f of %d, candidate slower in %d of %d blocks, %s%n", c.test().name(),
              c.test().statistic(), d.pairs() * (d.pairs() + 1) / 2, d.slowerBlocks(), d.pairs(), p));
        } else if (c.design() instanceof Design.Unpaired d) {
          sb.append("  ").append(hl).append('\n');
          sb.append(format("  %s U %s of %d pairs, %s; Cliff's delta %+.2f (positive: candidate slower)%n",
              c.test().name(), Format.plain(c.test().statistic()), b.n() * k.n(), p, d.cliffsDelta()));
        }
      }
      sb.append(format("  failed jobs: one-sided Fisher exact p %s%n",
          Format.p(c.failurePValue()) + holm(c.adjustedFailurePValue())));
      double smallest = c.smallestPossiblePValue();
      String runs = c.design() instanceof Design.Paired d ? d.pairs() + " pairs"
          : b.n() + " and " + k.n() + " successful runs";
      if (smallest >= thresholds.alpha()) {
        sb.append(format("  note: with %s no difference in time can reach alpha %s (smallest possible p %s);"
            + " run more%n", runs, Format.plain(thresholds.alpha()), Format.p(smallest)));
      } else if (smallest >= analysis.level()) {
        sb.append(format("  power: with %s no change can reach alpha %s (smallest possible p %s); run more%n",
            runs, level(), Format.p(smallest)));
      } else if (c.detectable() != null) {
        sb.append(c.detectable().possible()
            ? format("  power: this sample can see a change of x%.3f or more %.0f%% of the time at alpha %s%n",
                c.detectable().ratio(), c.detectable().power() * 100, level())
            : format("  power: with %s no slowdown up to x100 reaches alpha %s %.0f%% of the time%n",
                runs, level(), c.detectable().power() * 100));
      }
      sb.append("  verdict: ").append(c.verdict()).append(" (").append(c.reason()).append(")\n");
    }
    sb.append('\n').append(regression() ? "REGRESSION" : "no regression").append('\n');
    return sb.toString();
  }

  private static String design(Design design) {
    if (design instanceof Design.Paired p) {
      return "paired by block, " + p.pairs() + (p.pairs() == 1 ? " pair" : " pairs")
          + (p.unpairedBlocks() == 0 ? "" : " (" + p.unpairedBlocks() + (p.unpairedBlocks() == 1 ? " block" : " blocks")
              + " left out: a failed job or a missing run)");
    }
    return "unpaired, " + ((Design.Unpaired) design).why();
  }

  /** "0.05", or "0.05/15" when a lone change in a family of 15 must reach alpha / 15. */
  private String level() {
    String alpha = Format.plain(analysis.thresholds().alpha());
    return analysis.tests() == 1 ? alpha : alpha + "/" + analysis.tests();
  }

  private String holm(double adjusted) {
    return analysis.adjustment(adjusted);
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
