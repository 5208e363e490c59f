package faultbed.experiments.cli;

import faultbed.experiments.scenario.ScenarioException;
import faultbed.results.compare.SampleSet;
import faultbed.results.compare.SequentialSuite;
import faultbed.results.compare.SuiteComparison;
import faultbed.results.report.ComparePage;
import faultbed.results.stats.Analysis;
import faultbed.results.stats.Families;
import faultbed.results.stats.Format;
import faultbed.results.stats.GateThresholds;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
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
        + "variants at once get Holm-adjusted p-values; --suites makes one family of several suites, as a gate "
        + "of several scenarios needs. Exit 0: no regression; 1: a variant got "
        + "significantly slower than allowed, or failed significantly more jobs; 2: bad input."})
final class CompareCommand implements Callable<Integer> {
  static final int REGRESSION = 1;

  @Parameters(index = "0", arity = "0..1", paramLabel = "BASELINE",
      description = "folder of run records or baseline file (none with --suites)")
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
          + " fault-free variant, else its first. V1,V2,...: one family against each, Holm within each and"
          + " Benjamini-Hochberg across them")
  String allAgainst;

  @Option(names = "--suites", paramLabel = "DIR", arity = "1..*",
      description = "with --all-against: each of these suite folders against its own reference, every comparison"
          + " of every suite in one family, Holm-adjusted together, so the chance that any says WORSE when nothing"
          + " changed is at most --alpha (the CI gate over its scenarios)")
  List<Path> suites;

  @Option(names = "--families", paramLabel = "DIR=V1[,V2]", arity = "1..*",
      description = "the families of one document: each DIR's other variants against each of its V1, V2, ..., one"
          + " family per DIR and V (W/V: W against V alone, a family of one); Holm within each family and"
          + " Benjamini-Hochberg across all of them, as a page that quotes several suites needs")
  List<String> families;

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
    if (html != null && Files.isDirectory(html)) {
      return bad(err, "--html: expected a file to write the page to, got the folder " + html);
    }
    if (suites != null && families != null) {
      return bad(err, "--families: expected either --suites or --families, not both");
    }
    if (suites != null) {
      return compareSuites(out, err);
    }
    if (families != null) {
      return compareDocument(out, err);
    }
    if (baseline == null) {
      return bad(err, "BASELINE: expected a folder of run records or a baseline file (or --suites DIR...)");
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
      if (!Files.isDirectory(baseline)) {
        return bad(err, "--all-against: expected a variant name when BASELINE is a baseline file, not a suite folder");
      }
      allAgainst = reference(baseline, err);
      if (allAgainst == null) {
        return bad(err, "BASELINE: expected run records in " + baseline);
      }
    }
    if (allAgainst != null && allAgainst.contains(",")) {
      return compareFamilies(out, err, base);
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
    Sequential sequential = base.sameOrigin(cand) ? Sequential.of(base.origin()) : null;
    if (json.enabled) {
      JsonOutput.print(out, sequential == null ? comparison : new SequentialComparison(comparison, sequential));
    } else {
      out.print(comparison.table());
      if (sequential != null) {
        out.print(sequential.text());
        out.println(sequential.regression() ? "REGRESSION" : "no regression");
      }
      out.flush();
    }
    boolean regression = sequential == null ? comparison.regression() : sequential.regression();
    return regression ? REGRESSION : 0;
  }

  /**
   * A suite that ran under a sequential design ({@link SequentialSuite}) is judged by it: the
   * fixed-size tests above it do not hold their error rates on a suite that stopped at a look.
   *
   * @param design the design in a line
   * @param results each candidate's gate
   */
  record Sequential(String design, List<SequentialSuite.Result> results, boolean regression) {
    /** The design of the suite folder {@code dir}, judged on its records; null when it declares none. */
    static Sequential of(Path dir) {
      if (dir == null || !Files.isDirectory(dir)) {
        return null;
      }
      var suite = SequentialSuite.of(dir);
      if (suite.isEmpty()) {
        return null;
      }
      List<SequentialSuite.Result> results = suite.get().decide(new faultbed.results.RecordStore(dir).readAll());
      return new Sequential(suite.get().describe(), results, SequentialSuite.regression(results));
    }

    String text() {
      StringBuilder sb = new StringBuilder("\n").append(design).append('\n')
          .append("the verdict is the sequential gate's (the fixed-size tests above are for reading, not for"
              + " gating: they do not hold their error rates on a suite that stopped at a look):\n");
      results.forEach(r -> sb.append("  ").append(r.describe()).append('\n'));
      return sb.toString();
    }
  }

  /** compare --json on a sequential suite: the fixed-size comparison and the verdicts that count. */
  record SequentialComparison(SuiteComparison comparison, Sequential sequential) {}

  /** --all-against V1,V2: one family against each, in one suite; the families adjusted across. */
  private int compareFamilies(PrintWriter out, PrintWriter err, SampleSet base) {
    if (candidate != null && !candidate.equals(baseline)) {
      return bad(err, "--all-against: expected one suite with several variants V1,V2, got CANDIDATE " + candidate);
    }
    if (html != null) {
      return bad(err, "--html: expected one family, not several --all-against variants");
    }
    List<String> references = List.of(allAgainst.split(","));
    for (String reference : references) {
      String missing = missingVariant(base, reference, "BASELINE", "--all-against");
      if (missing != null) {
        return bad(err, missing);
      }
    }
    List<SuiteComparison> families;
    try {
      families = SuiteComparison.families(base, references,
          Analysis.DEFAULT.withThresholds(new GateThresholds(alpha, maxRegressionPercent)));
    } catch (SampleSet.InvalidSampleSource e) {
      return bad(err, e.getMessage());
    }
    boolean regression = families.stream().anyMatch(SuiteComparison::regression);
    if (json.enabled) {
      JsonOutput.print(out, families);
    } else {
      for (int i = 0; i < families.size(); i++) {
        out.print("== family " + (i + 1) + " of " + families.size() + ": every variant against " + references.get(i)
            + "\n" + families.get(i).table() + "\n");
      }
      out.println(regression ? "REGRESSION" : "no regression");
      out.flush();
    }
    return regression ? REGRESSION : 0;
  }

  /**
   * --families DIR=V1,V2 ...: a document's families, each a suite against one of its variants; Holm within
   * each, Benjamini-Hochberg across all. Each family's table, then which families were selected.
   */
  private int compareDocument(PrintWriter out, PrintWriter err) {
    if (baseline != null) {
      return bad(err, "--families: expected no BASELINE or CANDIDATE with it, got " + baseline);
    }
    if (allAgainst != null || variant != null || baselineVariant != null || candidateVariant != null) {
      return bad(err, "--families: expected no --all-against or --variant options with it (each DIR=V names its own)");
    }
    if (html != null) {
      return bad(err, "--html: expected one family, not --families");
    }
    List<SampleSet> sets = new ArrayList<>();
    List<String> references = new ArrayList<>();
    List<String> only = new ArrayList<>();
    Map<Path, SampleSet> read = new HashMap<>();
    for (String family : families) {
      int eq = family.lastIndexOf('=');
      if (eq <= 0 || eq == family.length() - 1) {
        return bad(err, "--families: expected DIR=V1[,V2] (a suite folder and the variants to compare its others"
            + " with), got " + family);
      }
      Path dir = Path.of(family.substring(0, eq));
      if (!Files.isDirectory(dir)) {
        return bad(err, "--families: expected folders of run records, got " + dir);
      }
      SampleSet set = read.get(dir);
      if (set == null) {
        try {
          set = SampleSet.read(dir);
        } catch (SampleSet.InvalidSampleSource e) {
          return bad(err, "--families: " + dir + ": " + e.getMessage());
        }
        read.put(dir, set);
      }
      for (String against : family.substring(eq + 1).split(",")) {
        String[] ratio = against.split("/", -1); // W/V: W against V alone
        if (ratio.length > 2 || ratio[0].isEmpty() || ratio[ratio.length - 1].isEmpty()) {
          return bad(err, "--families: expected V or W/V after " + dir + "=, got " + against);
        }
        String reference = ratio[ratio.length - 1];
        for (String name : ratio) {
          String missing = missingVariant(set, name, dir.toString(), "--families");
          if (missing != null) {
            return bad(err, missing);
          }
        }
        if (ratio.length == 2 && ratio[0].equals(reference)) {
          return bad(err, "--families: expected two different variants in " + against);
        }
        sets.add(set);
        references.add(reference);
        only.add(ratio.length == 2 ? ratio[0] : null);
      }
    }
    List<SuiteComparison> compared;
    try {
      compared = SuiteComparison.families(sets, references, only,
          Analysis.DEFAULT.withThresholds(new GateThresholds(alpha, maxRegressionPercent)));
    } catch (SampleSet.InvalidSampleSource e) {
      return bad(err, e.getMessage());
    }
    boolean regression = compared.stream().anyMatch(SuiteComparison::regression);
    DocumentFamilies document = DocumentFamilies.of(alpha, sets, references, compared);
    if (json.enabled) {
      JsonOutput.print(out, new FamiliesJson(compared, document.selection()));
    } else {
      for (int i = 0; i < compared.size(); i++) {
        out.print("== family " + (i + 1) + " of " + compared.size() + ": " + sets.get(i).source() + ", "
            + (only.get(i) == null ? "every variant" : only.get(i)) + " against " + references.get(i) + "\n"
            + compared.get(i).table() + "\n");
      }
      out.print(document.text());
      out.println(regression ? "REGRESSION" : "no regression");
      out.flush();
    }
    return regression ? REGRESSION : 0;
  }

  /**
   * What a document's families came to: per family its smallest Holm p and its Benjamini-Hochberg p
   * across families, which were selected, and the comparisons that hold (significant after both).
   */
  record DocumentFamilies(double alpha, List<String> families, double[] smallestHolm, double[] acrossFamilies,
      int selected, List<String> holding) {
    static DocumentFamilies of(double alpha, List<SampleSet> sets, List<String> references,
        List<SuiteComparison> compared) {
      int m = compared.size();
      double[][] raw = new double[m][];
      List<String> names = new ArrayList<>();
      List<String> holding = new ArrayList<>();
      for (int f = 0; f < m; f++) {
        SuiteComparison c = compared.get(f);
        raw[f] = c.comparisons().stream().mapToDouble(x -> x.test() == null ? Double.NaN : x.test().pValue())
            .toArray();
        names.add(sets.get(f).source() + ": " + (c.pairs().size() == 1 ? c.pairs().get(0).candidateVariant() + " / "
            : "every variant against ") + references.get(f));
        for (int i = 0; i < c.comparisons().size(); i++) {
          var x = c.comparisons().get(i);
          if (x.adjustedPValue() < alpha) {
            holding.add(String.format(Locale.ROOT, "%s: %s / %s x%.3f, adjusted p %s", sets.get(f).source(),
                c.pairs().get(i).candidateVariant(), references.get(f), x.shift().ratio(),
                Format.p(x.adjustedPValue())));
          }
        }
      }
      double[] bh = Families.acrossFamilies(raw);
      int selected = (int) Arrays.stream(bh).filter(p -> p < alpha).count();
      return new DocumentFamilies(alpha, names, Families.smallestHolm(raw), bh, selected, holding);
    }

    /** The selection as --json gives it: a p that could not be computed is null, not NaN. */
    Selection selection() {
      List<Selection.Family> each = new ArrayList<>();
      for (int f = 0; f < families.size(); f++) {
        each.add(new Selection.Family(families.get(f), finite(smallestHolm[f]), finite(acrossFamilies[f]),
            acrossFamilies[f] < alpha));
      }
      return new Selection(alpha, "Benjamini-Hochberg across families of Holm-adjusted comparisons"
          + " (Benjamini and Bogomolov 2014)", selected, each, holding);
    }

    private static Double finite(double p) {
      return Double.isFinite(p) ? p : null;
    }

    String text() {
      StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "families: %d in this document;"
          + " Benjamini-Hochberg over each family's smallest Holm p selects %d at alpha %s; within a selected family a"
          + " comparison holds when its Holm p times %d / %d is below alpha (Benjamini and Bogomolov 2014)%n",
          families.size(), selected, Format.plain(alpha), families.size(), Math.max(selected, 1)));
      for (int f = 0; f < families.size(); f++) {
        sb.append(String.format(Locale.ROOT, "  %-8s %s: smallest Holm p %s, across families %s%n",
            acrossFamilies[f] < alpha ? "selected" : "-", families.get(f), Format.p(smallestHolm[f]),
            Format.p(acrossFamilies[f])));
      }
      sb.append(holding.isEmpty() ? "holding: none\n" : "holding:\n  " + String.join("\n  ", holding) + "\n");
      return sb.toString();
    }
  }

  /** compare --families --json: each family's comparison, then which families were selected and what holds. */
  record FamiliesJson(List<SuiteComparison> families, Selection selection) {}

  /** Which of a document's families Benjamini-Hochberg selected, and the comparisons that hold in them. */
  record Selection(double alpha, String method, int selected, List<Family> families, List<String> holding) {
    record Family(String family, Double smallestHolmP, Double acrossFamiliesP, boolean selected) {}
  }

  /**
   * --suites: every suite against its own reference in one family. Each suite's table, then the
   * family-wise level the whole gate holds.
   */
  private int compareSuites(PrintWriter out, PrintWriter err) {
    if (baseline != null) {
      return bad(err, "--suites: expected no BASELINE or CANDIDATE with it, got " + baseline);
    }
    if (allAgainst == null) {
      return bad(err, "--suites: expected --all-against with it (each suite's variants against its reference)");
    }
    if (html != null) {
      return bad(err, "--html: expected one suite, not --suites");
    }
    List<SampleSet> sets = new ArrayList<>();
    List<String> references = new ArrayList<>();
    for (Path dir : suites) {
      if (!Files.isDirectory(dir)) {
        return bad(err, "--suites: expected folders of run records, got " + dir);
      }
      SampleSet set;
      try {
        set = SampleSet.read(dir);
      } catch (SampleSet.InvalidSampleSource e) {
        return bad(err, "--suites: " + dir + ": " + e.getMessage());
      }
      String reference = allAgainst.isEmpty() ? reference(dir, err) : allAgainst;
      String missing = reference == null ? "--suites: expected run records in " + dir
          : missingVariant(set, reference, dir.toString(), "--all-against");
      if (missing != null) {
        return bad(err, missing);
      }
      sets.add(set);
      references.add(reference);
    }
    List<SuiteComparison> compared;
    Analysis analysis = Analysis.DEFAULT.withThresholds(new GateThresholds(alpha, maxRegressionPercent));
    try {
      compared = SuiteComparison.allAgainst(sets, references, analysis);
    } catch (SampleSet.InvalidSampleSource e) {
      return bad(err, e.getMessage());
    }
    List<Sequential> sequential = suites.stream().map(Sequential::of).toList();
    boolean regression = false;
    for (int i = 0; i < compared.size(); i++) {
      regression |= sequential.get(i) == null ? compared.get(i).regression() : sequential.get(i).regression();
    }
    GateFamily family = new GateFamily(alpha, compared.stream().mapToInt(c -> c.comparisons().size()).sum(),
        compared, sequential, regression);
    if (json.enabled) {
      JsonOutput.print(out, family);
    } else {
      for (int i = 0; i < compared.size(); i++) {
        SuiteComparison c = compared.get(i);
        out.print("== " + c.candidateSource() + "\n" + c.table()
            + (sequential.get(i) == null ? "" : sequential.get(i).text()) + "\n");
      }
      out.println(family.statement());
      out.println(family.regression() ? "REGRESSION" : "no regression");
      out.flush();
    }
    return family.regression() ? REGRESSION : 0;
  }

  /**
   * Several suites compared as one family.
   *
   * @param familyWiseAlpha the chance that any comparison says WORSE on times when nothing changed is at most this
   */
  record GateFamily(double familyWiseAlpha, int comparisons, List<SuiteComparison> suites,
      List<Sequential> sequential, boolean regression) {
    String statement() {
      String fixed = String.format(Locale.ROOT, "one family: %d comparisons across %d suites, p-values"
          + " Holm-adjusted together; family-wise alpha %s: when nothing changed, the chance that any says WORSE on"
          + " times is at most %s (the failed-job tests are a second family, Holm-adjusted the same way)", comparisons,
          suites.size(), Format.plain(familyWiseAlpha),
          Format.plain(familyWiseAlpha));
      long designs = sequential.stream().filter(Objects::nonNull).count();
      return designs == 0 ? fixed : fixed + "; " + designs + " suite(s) ran under a sequential design and are gated by"
          + " it instead, each at the alpha it declares, which adds to the gate's (Bonferroni)";
    }
  }

  /** The suite's reference variant, said on standard error; null without run records. */
  private static String reference(Path dir, PrintWriter err) {
    var reference = faultbed.results.ReferenceVariant.of(dir, new faultbed.results.RecordStore(dir).readAll());
    if (reference.isEmpty()) {
      return null;
    }
    err.println("faultbed: " + dir + ": comparing every variant with " + reference.get().name() + " ("
        + reference.get().why() + ")");
    err.flush();
    return reference.get().name();
  }

  /** One line naming the option when {@code name} is given but {@code set} lacks it; null when fine. */
  private static String missingVariant(SampleSet set, String name, String side, String option) {
    if (name == null || set.variant(name).isPresent()) {
      return null;
    }
    return option + ": expected one of " + set.variantNames() + " in " + side + ", got " + name;
  }

  private static int bad(PrintWriter err, String message) {
    err.println(ScenarioException.oneLine("faultbed: " + message)); // a path may hold a line break
    err.flush();
    return FaultbedCli.BAD_INPUT;
  }
}
