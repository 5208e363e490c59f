package faultbed.experiments.cli;

import faultbed.results.compare.SampleSet;
import faultbed.results.compare.SuiteComparison;
import faultbed.results.report.ComparePage;
import faultbed.results.stats.Analysis;
import faultbed.results.stats.GateThresholds;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The regression gate: exit 0 no regression, 1 regression, 2 bad input. Reads records only, starts nothing. */
@Command(name = "compare", mixinStandardHelpOptions = true, description = {
    "Gates CANDIDATE against BASELINE: exit 1 on a regression (no cluster needed).",
    "Each is a folder of run records or a baseline file written by 'faultbed baseline'; variants "
        + "are compared by name, two variants of one suite that ran in blocks pair by pair. Several "
        + "variants at once get Holm-adjusted p-values. Exit 0: no regression; 1: a variant got "
        + "significantly slower than allowed, or failed significantly more jobs; 2: bad input."})
final class CompareCommand implements Callable<Integer> {
  static final int REGRESSION = 1;

  @Parameters(index = "0", paramLabel = "BASELINE", description = "folder of run records or baseline file")
  Path baseline;

  @Parameters(index = "1", arity = "0..1", paramLabel = "CANDIDATE",
      description = "folder of run records or baseline file (with --all-against: BASELINE unless given)")
  Path candidate;

  @Option(names = "--max-regression", paramLabel = "PCT", defaultValue = "10",
      description = "slowdown of the median allowed before a significant difference fails the gate (default ${DEFAULT-VALUE})")
  double maxRegressionPercent;

  @Option(names = "--alpha", paramLabel = "A", defaultValue = "0.05",
      description = "significance level of the rank and Fisher tests, Holm-adjusted when several variants are"
          + " compared (default ${DEFAULT-VALUE})")
  double alpha;

  @Option(names = "--variant", paramLabel = "V", description = "compare only this variant (same name on both sides)")
  String variant;

  @Option(names = "--baseline-variant", paramLabel = "V",
      description = "the baseline's variant to compare (the candidate's too, unless --candidate-variant names another)")
  String baselineVariant;

  @Option(names = "--candidate-variant", paramLabel = "V",
      description = "the candidate's variant to compare, e.g. another variant of the same folder"
          + " (the baseline's too, unless --baseline-variant names another)")
  String candidateVariant;

  @Option(names = "--all-against", paramLabel = "V", arity = "0..1", fallbackValue = "",
      description = "compare every other variant of CANDIDATE with BASELINE's V, e.g. 'compare DIR --all-against baseline';"
          + " without V, the suite's reference: the variant its scenario names as \"reference\", else its only"
          + " fault-free variant, else its first")
  String allAgainst;

  @Option(names = "--html", paramLabel = "FILE",
      description = "also write a page with the verdicts and both suites' completion times side by side")
  Path html;

  @CommandLine.Mixin
  JsonOutput json;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!(alpha > 0 && alpha < 1)) {
      return bad(err, "--alpha: expected a number between 0 and 1, got " + alpha);
    }
    if (!(maxRegressionPercent >= 0) || Double.isInfinite(maxRegressionPercent)) {
      return bad(err, "--max-regression: expected a percentage of at least 0, got " + maxRegressionPercent);
    }
    if (variant != null && (baselineVariant != null || candidateVariant != null)) {
      return bad(err, "--variant: expected either --variant or --baseline-variant/--candidate-variant, not both");
    }
    if (allAgainst != null && (variant != null || baselineVariant != null || candidateVariant != null)) {
      return bad(err, "--all-against: expected no --variant, --baseline-variant or --candidate-variant with it");
    }
    if (html != null && java.nio.file.Files.isDirectory(html)) {
      return bad(err, "--html: expected a file to write the page to, got the folder " + html);
    }
    if (candidate == null && allAgainst == null) {
      return bad(err, "CANDIDATE: expected a folder of run records or a baseline file"
          + " (only --all-against compares a suite with itself)");
    }
    String fromBaseline = variant != null ? variant : baselineVariant != null ? baselineVariant : candidateVariant;
    String fromCandidate = variant != null ? variant : candidateVariant != null ? candidateVariant : baselineVariant;
    SampleSet base;
    SampleSet cand;
    try {
      base = SampleSet.read(baseline);
    } catch (SampleSet.InvalidSampleSource e) {
      return bad(err, "BASELINE: " + e.getMessage());
    }
    try {
      cand = candidate == null ? base : SampleSet.read(candidate);
    } catch (SampleSet.InvalidSampleSource e) {
      return bad(err, "CANDIDATE: " + e.getMessage());
    }
    Analysis analysis = Analysis.DEFAULT.withThresholds(new GateThresholds(alpha, maxRegressionPercent));
    if ("".equals(allAgainst)) {
      if (!java.nio.file.Files.isDirectory(baseline)) {
        return bad(err, "--all-against: expected a variant name when BASELINE is a baseline file, not a suite folder");
      }
      var reference = faultbed.results.ReferenceVariant.of(baseline, new faultbed.results.RecordStore(baseline).readAll());
      if (reference.isEmpty()) {
        return bad(err, "BASELINE: expected run records in " + baseline);
      }
      allAgainst = reference.get().name();
      err.println("faultbed: comparing every variant with " + allAgainst + " (" + reference.get().why() + ")");
    }
    if (allAgainst != null) {
      String missing = missingVariant(base, allAgainst, "BASELINE", "--all-against");
      if (missing != null) {
        return bad(err, missing);
      }
      try {
        return report(out, err, SuiteComparison.allAgainst(base, allAgainst, cand, analysis), base, cand);
      } catch (SampleSet.InvalidSampleSource e) {
        return bad(err, e.getMessage());
      }
    }
    // a side without its own name takes the other side's, so name the option the user gave
    String missing = missingVariant(base, fromBaseline, "BASELINE", variant != null ? "--variant"
        : baselineVariant != null ? "--baseline-variant" : "--candidate-variant");
    if (missing == null) {
      missing = missingVariant(cand, fromCandidate, "CANDIDATE", variant != null ? "--variant"
          : candidateVariant != null ? "--candidate-variant" : "--baseline-variant");
    }
    if (missing != null) {
      return bad(err, missing);
    }
    try {
      return report(out, err, SuiteComparison.of(base, cand, fromBaseline, fromCandidate, analysis), base, cand);
    } catch (SampleSet.InvalidSampleSource e) {
      return bad(err, e.getMessage());
    }
  }

  private int report(PrintWriter out, PrintWriter err, SuiteComparison comparison, SampleSet base, SampleSet cand) {
    if (html != null) {
      err.println("faultbed: page: " + ComparePage.write(html, comparison, base, cand));
      err.flush();
    }
    if (json.enabled) {
      JsonOutput.print(out, comparison);
    } else {
      out.print(comparison.table());
      out.flush();
    }
    return comparison.regression() ? REGRESSION : 0;
  }

  /** One line naming the option when {@code name} is given but {@code set} lacks it; null when fine. */
  private static String missingVariant(SampleSet set, String name, String side, String option) {
    if (name == null || set.variant(name).isPresent()) {
      return null;
    }
    return option + ": expected one of " + set.variantNames() + " in " + side + ", got " + name;
  }

  private static int bad(PrintWriter err, String message) {
    err.println("faultbed: " + message);
    err.flush();
    return FaultbedCli.BAD_INPUT;
  }
}
