package faultbed.results.report;

import faultbed.results.Distribution;
import faultbed.results.RecordStore;
import faultbed.results.RecordStore.StoredRecord;
import faultbed.results.RunRecord;
import faultbed.results.SuiteSummary;
import faultbed.results.classify.Classification;
import faultbed.results.classify.DetectionTradeoff;
import faultbed.results.classify.DinuNgComparison;
import faultbed.results.classify.DinuNgClassifier;
import faultbed.results.classify.DinuNgGroup;
import faultbed.results.compare.SampleSet;
import faultbed.results.compare.SuiteComparison;
import faultbed.results.stats.Analysis;
import faultbed.results.stats.Bootstrap;
import faultbed.results.stats.Comparison;
import faultbed.results.stats.GateThresholds;
import faultbed.results.stats.Interval;
import faultbed.results.stats.QuantileIntervals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code report.html} and {@code runs.csv} for a folder of run records. The page is one file: charts
 * are inline SVG, styles inline, no script, so it opens offline and can be mailed or archived as is.
 * Everything on it is recomputed from the records.
 */
public final class SuiteReport {
  public static final String HTML = "report.html";
  public static final String CSV = "runs.csv";

  /** What was written. */
  public record Written(Path html, Path csv, int runs) {}

  private SuiteReport() {}

  /** @throws IllegalArgumentException when the folder holds no run records */
  public static Written write(Path dir) {
    List<ReportRow> rows = rows(dir);
    try {
      Path html = Files.writeString(dir.resolve(HTML), html(dir, rows));
      Path csv = Files.writeString(dir.resolve(CSV), RunsCsv.of(rows));
      return new Written(html, csv, rows.size());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report into " + dir, e);
    }
  }

  /** Every record of the folder with its classification and costs. */
  static List<ReportRow> rows(Path dir) {
    List<StoredRecord> stored = new RecordStore(dir).list();
    if (stored.isEmpty()) {
      throw new IllegalArgumentException("expected run records (*.json) in " + dir);
    }
    List<Classification> classes = DinuNgClassifier.classifyAll(stored.stream().map(StoredRecord::record).toList());
    List<ReportRow> rows = new java.util.ArrayList<>();
    for (int i = 0; i < stored.size(); i++) {
      StoredRecord s = stored.get(i);
      rows.add(new ReportRow(s.file().getFileName().toString(), s.record(), classes.get(i), RunCosts.of(s.record())));
    }
    return rows;
  }

  static String html(Path dir, List<ReportRow> rows) {
    List<RunRecord> records = rows.stream().map(ReportRow::record).toList();
    Map<String, List<RunRecord>> byVariant = SuiteSummary.byVariant(records);
    Map<String, double[]> times = new LinkedHashMap<>();
    byVariant.forEach((v, runs) -> times.put(v, SuiteSummary.completionTimes(runs)));
    String scenario = records.get(0).scenario();

    Html h = new Html();
    h.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>")
        .raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>")
        .raw("<title>").text("faultbed report: " + scenario).raw("</title><style>").raw(STYLE).raw("</style></head>\n<body>\n");
    h.element("h1", "faultbed report: " + scenario);
    h.raw("<p class=\"meta\">").text(String.format(Locale.ROOT, "%d runs in %d variant(s), from the run records in %s."
        + " Times are seconds after job submission. Runs as a table: ", records.size(), byVariant.size(),
        dir.toAbsolutePath().normalize().getFileName())).raw("<a href=\"" + CSV + "\">" + CSV + "</a>.</p>\n");

    whatWasRun(h, records);

    nodeSpeeds(h, faultbed.results.NodeSpeeds.of(records));
    mapLocality(h, faultbed.results.MapLocality.of(records));
    cpuUse(h, faultbed.results.CpuUse.of(records));
    taskPlacement(h, faultbed.results.TaskPlacement.of(records));

    h.element("h2", "Completion time");
    summaryTable(h, records);
    comparisonTable(h, dir, records, times);

    List<Classification> classes = rows.stream().map(ReportRow::classification).toList();
    double[] faultFree = rows.stream().filter(r -> r.classification().group() == DinuNgGroup.NO_FAULT
        && r.classification().jobSucceeded() && r.classification().jobMs() != null)
        .mapToDouble(r -> r.classification().jobMs() / 1000.0).toArray();
    DetectionTradeoff tradeoff = DetectionTradeoff.of(records);
    // the groups and Figure 2 are about node failures; a suite of slow nodes would show every run as "no node failure"
    boolean nodeFailures = classes.stream().anyMatch(c -> c.group().isNodeFailure());
    if (nodeFailures) {
      h.element("h2", "Job time against failure time");
      h.raw("<p>As Figure 2 of Dinu and Ng: each faulty run at the time its fault was injected, coloured by"
          + " the mechanism that decided its fate (groups below).</p>\n");
      Double faultFreeMedian = faultFree.length == 0 ? null : Bootstrap.median(faultFree);
      // a sweep's variants are settings, compared in their own section; a reproduction's are the paper's figures
      DinuNgComparison beside = tradeoff.isSweep() ? DinuNgComparison.of(List.of()) : DinuNgComparison.of(records);
      if (beside.columns().size() < 2) {
        figure(h, Charts.jobTimeAgainstFailureTime("figure2", "", classes, faultFreeMedian));
      } else {
        // as the paper's Figures 2, 4 and 6: one chart per kind of failure run, on shared axes
        for (int i = 0; i < beside.columns().size(); i++) {
          String variant = beside.columns().get(i).variant();
          figure(h, Charts.jobTimeAgainstFailureTime("figure2-" + i, variant,
              classes.stream().filter(c -> variant.equals(c.variant())).toList(), faultFreeMedian, classes));
        }
      }
      if (!beside.isEmpty()) {
        besideSeed003(h, beside);
      }
    }

    h.element("h2", "Distributions");
    figure(h, Charts.ecdf(times));
    figure(h, Charts.boxes(times));

    h.element("h2", "Speculation and wasted work");
    backups(h, records);
    uselessBackups(h, dir, records);
    costs(h, rows, byVariant);

    if (nodeFailures) {
      h.element("h2", "Failure groups");
      groups(h, classes);
    }

    if (tradeoff.isSweep()) {
      h.element("h2", "Failure detection: reaction against cost");
      tradeoff(h, tradeoff);
    }

    h.element("h2", "Runs");
    runs(h, rows);
    h.raw("</body></html>\n");
    return h.toString();
  }

  /**
   * What was run, from the records: the scenario, the seeds, when, and the machines and versions
   * (every distinct one: merged shards may come from several machines).
   */
  private static void whatWasRun(Html h, List<RunRecord> records) {
    h.element("h2", "What was run");
    h.raw("<table class=\"what\"><tbody>\n");
    String sha = distinct(records, r -> r.provenance() == null ? null
        : "file SHA-256 " + r.provenance().scenarioSha256().substring(0, 16) + "...");
    row(h, "scenario", records.get(0).scenario() + (sha.isEmpty() ? "" : ", " + sha));
    long seeds = records.stream().mapToLong(RunRecord::seed).distinct().count();
    int blocks = (int) records.stream().filter(r -> r.block() != null).mapToInt(r -> r.block().index()).distinct().count();
    row(h, "runs", records.size() + " runs, " + seeds + " run seeds" + (blocks > 0 ? ", " + blocks + " blocks" : ""));
    List<String> started = records.stream().map(RunRecord::startedAt).filter(java.util.Objects::nonNull).sorted().toList();
    if (!started.isEmpty()) {
      row(h, "started", started.get(0) + " to " + started.get(started.size() - 1));
    }
    if (records.stream().allMatch(r -> r.provenance() == null)) {
      row(h, "machine", "not recorded (records written before the provenance block)");
    } else {
      row(h, "machine", distinct(records, r -> r.provenance() == null ? null : r.provenance().host() + ": "
          + r.provenance().cores() + " cores, " + r.provenance().memoryMb() + " MB, " + r.provenance().kernel()
          + ", cgroups " + r.provenance().cgroups()));
      row(h, "versions", distinct(records, r -> r.provenance() == null ? null : "Hadoop " + r.provenance().hadoop()
          + ", faultbed " + r.provenance().faultbed() + " (" + r.provenance().commit() + "), " + r.provenance().java()));
    }
    h.raw("</tbody></table>\n");
  }

  /** How much each node setting of the scenario slowed its maps: whether "node 3 is 4x slower" held. */
  private static void nodeSpeeds(Html h, faultbed.results.NodeSpeeds speeds) {
    if (speeds.isEmpty()) {
      return; // no slowed node: nothing to calibrate
    }
    h.element("h2", "Node speed under each setting");
    h.raw("<table><thead><tr><th>setting</th><th>nodes</th><th>maps</th><th>median map s</th><th>95% CI</th>")
        .raw("<th>slow-down</th><th>95% CI</th></tr></thead><tbody>\n");
    for (faultbed.results.NodeSpeeds.Setting s : speeds.settings()) {
      h.raw("<tr>").element("td", s.label()).element("td", s.nodes().toString().replaceAll("[\\[\\]]", ""))
          .raw(num(s.mapSeconds().length)).raw(num(s.median())).raw(cell(s.medianInterval()))
          .raw(num(s.slowdown() == null ? Double.NaN : s.slowdown(), "%.2f")).raw(cell(s.slowdownInterval(), "%.2f"))
          .raw("</tr>\n");
    }
    h.raw("</tbody></table>\n");
    h.raw("<p class=\"note\">").text("Measured on this suite's own maps, from " + speeds.source() + ": each"
        + " succeeded map attempt counts for the setting in force on its node from its start to its end. The"
        + " slow-down is the median against the median under " + (faultbed.results.NodeSpeeds.NONE.equals(
            speeds.reference()) ? "no setting (unslowed nodes, which share the machine with the slowed ones)"
            : "'" + speeds.reference() + "', the setting most maps ran under") + ".").raw("</p>\n");
  }

  /** Where the maps ran relative to their input, and what losing it cost: shown once a map lost it. */
  private static void mapLocality(Html h, faultbed.results.MapLocality locality) {
    if (locality.isEmpty()) {
      return; // every map ran where its split was (or the records predate locality)
    }
    h.element("h2", "Map locality");
    h.raw("<table><thead><tr><th>variant</th><th>locality</th><th>maps</th><th>share</th>")
        .raw("<th>median map s</th><th>95% CI</th><th>last map, runs</th></tr></thead><tbody>\n");
    for (faultbed.results.MapLocality.Variant v : locality.variants()) {
      for (faultbed.results.MapLocality.Row r : v.rows()) {
        h.raw("<tr>").element("td", v.variant()).element("td", r.locality()).raw(num(r.maps()))
            .raw(num(100 * r.share(), "%.0f%%")).raw(num(r.median())).raw(cell(r.medianInterval()))
            .raw("<td class=\"num\">").text(r.lastMapRuns() + " of " + v.runs()).raw("</td></tr>\n");
      }
    }
    h.raw("</tbody></table>\n");
    h.raw("<p class=\"note\">").text("First attempts of maps (backups left out), by where YARN placed them"
        + " relative to their input split, from the AM's task-attempt-started events. A map away from its split"
        + " reads it over the network; \"last map\" counts the runs whose last map to succeed had that"
        + " locality, the map the job waited for.").raw("</p>\n");
  }

  /** What maps held to a CPU share used of it: shown when the runs held them (scenario {@code stealing}). */
  private static void cpuUse(Html h, faultbed.results.CpuUse use) {
    if (use.isEmpty()) {
      return;
    }
    h.element("h2", "CPU shares");
    h.raw("<table><thead><tr><th>variant</th><th>runs</th><th>a slot, cores</th><th>maps' CPU, core-s</th>")
        .raw("<th>95% CI</th><th>beyond their slots, core-s</th><th>95% CI</th><th>utilisation</th><th>95% CI</th>")
        .raw("</tr></thead><tbody>\n");
    for (faultbed.results.CpuUse.Variant v : use.variants()) {
      h.raw("<tr>").element("td", v.variant()).raw(num(v.runs())).raw(num(v.slotCores(), "%.3f"))
          .raw(num(v.median(v.mapCoreSeconds()))).raw(cell(v.interval(v.mapCoreSeconds())))
          .raw(num(v.median(v.beyondCoreSeconds()))).raw(cell(v.interval(v.beyondCoreSeconds())))
          .raw(num(v.median(v.utilisation()), "%.2f")).raw(cell(v.interval(v.utilisation()), "%.2f"))
          .raw("</tr>\n");
    }
    h.raw("</tbody></table>\n");
    h.raw("<p class=\"note\">").text("Medians over runs, from each map's CPU share spans read from its cgroup"
        + " (records' cpuShares). Beyond their slots: CPU a map used above its own slots' share, which it could"
        + " only take from slots lent to it. Utilisation: the maps' CPU over what the nodes offered their"
        + " containers (a slot's share per vcore) from the first map's start to the last map's end.").raw("</p>\n");
  }

  /** Where tasks ran and what a network-aware placement did: shown when some variant placed by a policy. */
  private static void taskPlacement(Html h, faultbed.results.TaskPlacement placement) {
    if (placement.isEmpty()) {
      return;
    }
    h.element("h2", "Task placement");
    h.raw("<table><thead><tr><th>variant</th><th>placement</th><th>runs</th><th>reduces by node</th>")
        .raw("<th>maps off their split</th><th>containers released a run</th><th>95% CI</th>")
        .raw("<th>placed maps: actual over expected</th><th>95% CI</th></tr></thead><tbody>\n");
    for (faultbed.results.TaskPlacement.Variant v : placement.variants()) {
      StringBuilder reduces = new StringBuilder();
      v.reducesByNode().forEach((node, n) -> reduces.append(reduces.length() == 0 ? "" : ", ").append("node ")
          .append(node).append(": ").append(n));
      h.raw("<tr>").element("td", v.variant()).element("td", v.policy()).raw(num(v.runs()))
          .element("td", reduces.toString())
          .raw("<td class=\"num\">").text(v.mapsOffSplit() + " of " + v.maps()).raw("</td>")
          .raw(num(v.median(v.releasedPerRun()))).raw(cell(v.interval(v.releasedPerRun())))
          .raw(num(v.median(v.foretold()), "%.2f")).raw(cell(v.interval(v.foretold()), "%.2f"))
          .raw("</tr>\n");
    }
    h.raw("</tbody></table>\n");
    h.raw("<p class=\"note\">").text("Successful runs; counts over the runs. Reduces by node: succeeded reduce"
        + " attempts (backups included). Maps off their split: maps whose first attempt ran on no node holding their split."
        + " Released: containers the placement policy turned away because no waiting task preferred their node"
        + " (records' placementEvents). Actual over expected: each placed map's time from its placement to its end"
        + " over the completion time the policy expected for it (1: foretold exactly); medians over maps.")
        .raw("</p>\n");
  }

  private static void row(Html h, String what, String value) {
    h.raw("<tr>").element("th", what).element("td", value).raw("</tr>\n");
  }

  private static String distinct(List<RunRecord> records, java.util.function.Function<RunRecord, String> f) {
    List<String> values = records.stream().map(f).filter(java.util.Objects::nonNull).distinct().toList();
    return String.join("; ", values);
  }

  private static void summaryTable(Html h, List<RunRecord> records) {
    Bootstrap b = Bootstrap.DEFAULT;
    h.raw("<table><thead><tr><th>variant</th><th>runs</th><th>failed</th><th>min</th><th>median</th>")
        .raw(String.format(Locale.ROOT, "<th>median %.0f%% CI</th>", b.level() * 100))
        .raw("<th>mean</th><th>p90</th>")
        .raw(String.format(Locale.ROOT, "<th>p90 %.0f%% CI</th>", b.level() * 100))
        .raw("<th>p99</th><th>max</th></tr></thead><tbody>\n");
    for (SuiteSummary.VariantSummary v : SuiteSummary.of(records).variants()) {
      Distribution d = v.completionSeconds();
      QuantileIntervals ci = v.completionIntervals();
      h.raw("<tr>").element("td", v.variant()).raw(num(v.runs())).raw(num(v.failed()))
          .raw(num(d.min())).raw(num(d.median())).raw(cell(ci.median())).raw(num(d.mean()))
          .raw(num(d.p90())).raw(cell(ci.p90())).raw(num(d.p99())).raw(num(d.max())).raw("</tr>\n");
    }
    h.raw("</tbody></table>\n");
    h.raw("<p class=\"note\">").text(String.format(Locale.ROOT, "Successful runs only; quantiles by the R-7 rule"
        + " (as R and NumPy). Intervals: percentile bootstrap, %d resamples, seed %d.", b.resamples(), b.seed()))
        .raw("</p>\n");
  }

  /**
   * Every variant against the fault-free one (named "baseline", else the first), when there are two
   * or more: 'faultbed compare DIR DIR --all-against REFERENCE', paired by block where the runs were.
   */
  private static void comparisonTable(Html h, Path dir, List<RunRecord> records, Map<String, double[]> times) {
    if (times.size() < 2) {
      return;
    }
    faultbed.results.ReferenceVariant ref = faultbed.results.ReferenceVariant.of(dir, records).orElseThrow();
    String reference = ref.name();
    if (times.get(reference).length == 0) {
      return;
    }
    SampleSet samples = SampleSet.fromRecords(dir.toString(), dir.toAbsolutePath().normalize(), records);
    SuiteComparison all = SuiteComparison.allAgainst(samples, reference, samples, Analysis.DEFAULT);
    GateThresholds g = all.analysis().thresholds();
    h.raw("<table><thead><tr><th>variant</th><th>median ratio</th><th>95% CI</th><th>p90 ratio</th>")
        .raw("<th>95% CI</th><th>test</th><th>p</th><th>Holm p</th><th>verdict</th></tr></thead><tbody>\n");
    for (Comparison c : all.comparisons()) {
      h.raw("<tr>").element("td", c.baseline().label().replace(reference + " -> ", "") + " vs " + reference);
      if (c.test() == null) {
        h.raw("<td colspan=\"7\">no successful run</td>");
      } else {
        String design = c.design() instanceof Comparison.Design.Paired p ? ", " + p.pairs() + " pairs" : "";
        h.raw(num(c.median().ratio(), "%.3f")).raw(cell(c.median().ratioInterval(), "%.3f"))
            .raw(num(c.p90().ratio(), "%.3f")).raw(cell(c.p90().ratioInterval(), "%.3f"))
            .element("td", c.test().name() + ", " + c.test().method() + design)
            .raw(num(c.test().pValue(), "%.3g")).raw(num(c.adjustedPValue(), "%.3g"));
      }
      h.raw("<td title=\"").text(c.reason()).raw("\">").text(c.verdict().toString()).raw("</td></tr>\n");
    }
    h.raw("</tbody></table>\n");
    int k = all.comparisons().size();
    h.raw("<p class=\"note\">").text(String.format(Locale.ROOT, "Ratios are variant over %s (%s); a ratio above 1 is"
        + " slower. One family: the %d %s of every other variant against %s; p-values Holm-adjusted within it"
        + " (Holm p), verdicts at alpha %.2f with at most %.0f%% regression on them, as 'faultbed compare DIR"
        + " --all-against' gives them. This report holds no other family, so nothing is adjusted across families;"
        + " a document that quotes several families adjusts across them ('--all-against V1,V2': Benjamini-Hochberg"
        + " over the families).", reference, ref.why(), k, k == 1 ? "comparison" : "comparisons", reference,
        g.alpha(), g.maxRegressionPercent())).raw("</p>\n");
  }

  /** The speculators' backups per variant: launched, useful (beat the original), useless (lost to it). */
  private static void backups(Html h, List<RunRecord> records) {
    List<SuiteSummary.VariantSummary> withSpeculation = SuiteSummary.of(records).variants().stream()
        .filter(v -> v.speculation() != null).toList();
    if (withSpeculation.isEmpty()) {
      h.raw("<p>No variant ran a speculator.</p>\n");
      return;
    }
    h.raw("<table><thead><tr><th>variant</th><th>speculator</th><th>backups asked</th><th>launched</th>")
        .raw("<th>useful (won)</th><th>useless (lost)</th><th>refused on a slow node</th>")
        .raw("<th>wasted container-s</th><th>on a slowed node</th></tr></thead><tbody>\n");
    for (SuiteSummary.VariantSummary v : withSpeculation) {
      SuiteSummary.SpeculationTotals t = v.speculation();
      h.raw("<tr>").element("td", v.variant()).element("td", t.policy()).raw(num(t.asked())).raw(num(t.launched()))
          .raw(num(t.won())).raw(num(t.lost())).raw(num(t.refusedOnNode()))
          .raw(num(t.wastedContainerSeconds(), "%.1f")).raw(num(t.onSlowedNodes())).raw("</tr>\n");
    }
    h.raw("</tbody></table>\n");
    h.raw("<p class=\"note\">A backup is useful when it finished before its original, useless when it was"
        + " killed because the original finished first; wasted container-seconds are the container time of every"
        + " killed attempt of a backed-up task: the loser of each race and the refused placements.</p>\n");
  }

  /** Each speculating variant's useless backups against the reference's, block by block (BASE's claim). */
  private static void uselessBackups(Html h, Path dir, List<RunRecord> records) {
    if (SuiteSummary.byVariant(records).size() < 2) {
      return;
    }
    String reference = faultbed.results.ReferenceVariant.of(dir, records).orElseThrow().name();
    List<faultbed.results.compare.UselessBackups> rows = new java.util.ArrayList<>();
    for (SuiteSummary.VariantSummary v : SuiteSummary.of(records).variants()) {
      if (!v.variant().equals(reference) && v.speculation() != null) {
        faultbed.results.compare.UselessBackups.of(records, reference, v.variant()).ifPresent(rows::add);
      }
    }
    if (rows.isEmpty()) {
      return;
    }
    h.raw("<table><thead><tr><th>variant</th><th>blocks</th><th>useless backups (variant / reference)</th>")
        .raw("<th>blocks with fewer</th><th>with more</th><th>sign test p (fewer)</th></tr></thead><tbody>\n");
    for (faultbed.results.compare.UselessBackups u : rows) {
      h.raw("<tr>").element("td", u.candidate() + " vs " + u.baseline()).raw(num(u.blocks()))
          .element("td", u.candidateUseless() + " / " + u.baselineUseless()).raw(num(u.candidateFewer()))
          .raw(num(u.candidateMore())).raw(num(u.pFewer(), "%.3g")).raw("</tr>\n");
    }
    h.raw("</tbody></table>\n");
    h.raw("<p class=\"note\">Useless backups: killed because the original finished first, or killed at once by"
        + " their policy on a node it judged slow (the refused above). Paired by block;"
        + " the exact one-sided sign test over the blocks where the counts differ (its smallest p is 0.5 to the"
        + " power of those blocks), each variant on its own, not adjusted for the family.</p>\n");
  }

  private static void costs(Html h, List<ReportRow> rows, Map<String, List<RunRecord>> byVariant) {
    Map<String, Double> speculative = new LinkedHashMap<>();
    Map<String, Double> wasted = new LinkedHashMap<>();
    h.raw("<table><thead><tr><th>variant</th><th>runs</th><th>speculative attempts</th><th>per run</th>")
        .raw("<th>re-executed attempts</th><th>wasted container-s</th><th>per run</th></tr></thead><tbody>\n");
    for (String variant : byVariant.keySet()) {
      List<RunCosts> c = rows.stream().filter(r -> variant.equals(r.record().variant())).map(ReportRow::costs).toList();
      int spec = c.stream().mapToInt(RunCosts::speculativeAttempts).sum();
      int reexec = c.stream().mapToInt(RunCosts::reexecutedAttempts).sum();
      double waste = c.stream().mapToDouble(RunCosts::wastedContainerSeconds).sum();
      speculative.put(variant, spec / (double) c.size());
      wasted.put(variant, waste / c.size());
      h.raw("<tr>").element("td", variant).raw(num(c.size())).raw(num(spec)).raw(num(spec / (double) c.size(), "%.2f"))
          .raw(num(reexec)).raw(num(waste, "%.1f")).raw(num(waste / c.size(), "%.1f")).raw("</tr>\n");
    }
    h.raw("</tbody></table>\n<div class=\"pair\">");
    figure(h, Charts.bars("speculative", "Speculative attempts per run", "attempts per run", speculative));
    figure(h, Charts.bars("wasted", "Wasted work per run", "container-seconds per run", wasted));
    h.raw("</div>\n<p class=\"note\">Speculative: started while an earlier attempt of the task still ran."
        + " Wasted: run time of attempts that ended KILLED or FAILED, counted until the node failed for"
        + " attempts on a failed node.</p>\n");
  }

  private static void groups(Html h, List<Classification> classes) {
    h.raw("<table><thead><tr><th>group</th><th>runs</th><th>in the paper (Hadoop 0.21)</th>")
        .raw("<th>here (Hadoop 3, by mechanism)</th></tr></thead><tbody>\n");
    for (DinuNgGroup g : DinuNgGroup.values()) {
      long n = classes.stream().filter(c -> c.group() == g).count();
      h.raw("<tr><td>").raw(swatch(g)).text(g.label()).raw("</td>").raw(num(n))
          .element("td", g.paperMeaning()).element("td", g.description()).raw("</tr>\n");
    }
    h.raw("</tbody></table>\n");
    List<Classification> accounted = classes.stream().filter(c -> c.delay() != null).toList();
    List<String> unexplained = accounted.stream().filter(c -> c.delay().unexplained()).map(Classification::runId).toList();
    h.element("p", String.format(java.util.Locale.ROOT, "Delays: %d failure run(s) set against a reference run of"
            + " their workload, their delay split along the critical path (the \"delay\" line of each run's evidence);"
            + " %d unexplained (%.1f %%)%s", accounted.size(), unexplained.size(),
        accounted.isEmpty() ? 0.0 : 100.0 * unexplained.size() / accounted.size(),
        unexplained.isEmpty() ? "." : ": " + String.join(", ", unexplained) + "."));
    h.raw("<p>Where Hadoop 3 differs from the paper's Hadoop 0.21:</p><ul>");
    DinuNgGroup.HADOOP3_DIFFERENCES.forEach(d -> h.element("li", d));
    h.raw("</ul>\n");
  }

  /** The suite's failure runs beside seed 003's figures, in seconds and in multiples of the fault-free time. */
  private static void besideSeed003(Html h, DinuNgComparison c) {
    DinuNgComparison.Paper p = DinuNgComparison.PAPER;
    Distribution ff = c.faultFreeSeconds();
    h.raw("<table><thead><tr><th></th><th>Dinu and Ng (Hadoop 0.21, 14 nodes)</th>");
    c.columns().forEach(col -> h.element("th", col.variant()));
    h.raw("</tr></thead><tbody>\n");
    row(h, "runs with a node failure", Integer.toString(p.runs()), c, col -> Integer.toString(col.runs()));
    row(h, "fault-free job time", fmt("%.0f s", p.faultFreeSeconds()), c, col -> ff.n() == 0 ? ""
        : fmt("%.1f s (median of %d)", ff.median(), ff.n()));
    row(h, "node expiry", fmt("%.0f s (%.1f x fault-free)", p.expirySeconds(), p.expiryMultiple()), c,
        col -> fmt("%.1f s (%.2f x fault-free)", col.expirySeconds(), col.expiryMultiple(ff))
            + (col.timeScale() == 1 ? "" : ", timers x " + col.timeScale()));
    row(h, "job time under failure", fmt("%.0f to about %.0f s", p.faultFreeSeconds(), p.maxJobSeconds()), c,
        col -> col.jobSeconds().n() == 0 ? "" : fmt("%.1f to %.1f s, median %.1f", col.jobSeconds().min(),
            col.jobSeconds().max(), col.jobSeconds().median()));
    row(h, "slowest run", fmt("%.1f x fault-free", p.slowestMultiple()), c,
        col -> Double.isNaN(col.slowestMultiple(ff)) ? "" : fmt("%.2f x fault-free", col.slowestMultiple(ff)));
    row(h, "failed jobs", fmt("%d of %d", p.failedJobs(), p.runs()), c,
        col -> fmt("%d of %d (Fisher exact p %s against the paper's)", col.failedJobs(), col.runs(),
            faultbed.results.stats.Format.p(col.failedJobsPValue(p))));
    row(h, "runs with induced reducer death", "many; a reducer that died so four times failed each of the 7 jobs", c,
        col -> fmt("%d of %d", col.inducedDeaths(), col.runs()));
    row(h, "groups", p.groups(), c, col -> String.join(", ", col.groups().entrySet().stream()
        .map(e -> e.getKey().label() + " " + e.getValue()).toList()));
    row(h, "runs that redid work: waited for node expiry", p.expiryWaits(), c,
        col -> fmt("%d of %d", col.waitedForExpiry(), col.impacted()));
    h.raw("</tbody></table>\n<p class=\"note\">The paper's column is from its text (Figure 2, 200 runs of a 220 s"
        + " Sort, one TaskTracker killed at a uniform time; section 4 for filtered RSTs, 56 reducers). Slowest run"
        + " and expiry as multiples of the fault-free time put the two scales side by side: how far a run can"
        + " stretch is bounded by how long the expiry is against the job.</p>\n");
  }

  private static void row(Html h, String label, String paper, DinuNgComparison c,
      java.util.function.Function<DinuNgComparison.Column, String> cell) {
    h.raw("<tr>").element("td", label).element("td", paper);
    c.columns().forEach(col -> h.element("td", cell.apply(col)));
    h.raw("</tr>\n");
  }

  private static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  private static void tradeoff(Html h, DetectionTradeoff t) {
    h.raw("<p>Seed 003's trade-off, one row per variant, lined up by setting (the Hadoop properties in which"
        + " a variant differs from most of the suite). Under a crash a fast reaction is what a setting is for;"
        + " under a freeze shorter than the thresholds the node comes back, so every re-execution is needless.</p>\n");
    if (t.faultKinds().size() >= 2) {
      figure(h, Charts.tradeoff(t));
    }
    for (String kind : t.faultKinds()) {
      h.element("h3", "Under " + kind);
      h.raw("<table><thead><tr><th>setting</th><th>variant</th><th>runs</th><th>node unusable</th>")
          .raw("<th>unusable after (s)</th><th>first reaction after (s)</th><th>map outputs re-run after (s)</th>")
          .raw("<th>re-executions per run</th>")
          .raw("<th>finished maps re-run per run</th><th>reducers lost per run</th><th>failed jobs</th>")
          .raw("<th>job time (s)</th></tr></thead><tbody>\n");
      for (DetectionTradeoff.Point p : t.points(kind)) {
        h.raw("<tr>").element("td", p.setting()).element("td", p.variant()).raw(num(p.runs()))
            .raw("<td class=\"num\">" + p.nodeDeclaredUnusable() + " of " + p.runs() + "</td>")
            .raw(spread(p.unusableAfterSeconds(), p.runs())).raw(spread(p.firstReactionSeconds(), p.runs()))
            .raw(spread(p.outputsRerunAfterSeconds(), p.runs()))
            .raw(num(p.reexecutionsPerRun(), "%.1f")).raw(num(p.finishedMapsRerunPerRun(), "%.1f"))
            .raw(num(p.reducersLostPerRun(), "%.1f")).raw(num(p.failedJobs())).raw(spread(p.jobSeconds(), p.runs()))
            .raw("</tr>\n");
      }
      h.raw("</tbody></table>\n");
    }
    h.raw("<p class=\"note\">Times are seconds after the fault (job time: after submission), as median"
        + " [min, max] over the runs that had the event; with few runs a point, read differences of a few"
        + " seconds as noise. Unusable: the RM declared the node LOST (or otherwise unusable). Reaction: the"
        + " first attempt started after the fault for a task the node had started (a re-run or a speculative"
        + " backup, on any node: a frozen node comes back); map outputs re-run: the first such attempt of a map"
        + " the node had finished. 'in k': only k of the runs had the event. Reducers lost: reduce attempts"
        + " that failed, or were killed other than by losing a race to a sibling that had already succeeded.</p>\n");
  }

  /** Median [min, max], and in how many of the runs when not all had the event. */
  private static String spread(Distribution d, int runs) {
    return "<td class=\"num\">" + (d.n() == 0 ? "" : String.format(Locale.ROOT, "%.1f [%.1f, %.1f]",
        d.median(), d.min(), d.max()) + (d.n() < runs ? " in " + d.n() : "")) + "</td>";
  }

  private static void runs(Html h, List<ReportRow> rows) {
    h.raw("<table class=\"runs\"><thead><tr><th>run</th><th>variant</th><th>failure</th><th>job</th>")
        .raw("<th>group</th><th>recovery</th><th>evidence</th></tr></thead><tbody>\n");
    for (ReportRow row : rows) {
      Classification c = row.classification();
      RunRecord r = row.record();
      h.raw("<tr id=\"").text(r.runId()).raw("\"><td><a href=\"").text(row.fileName()).raw("\">")
          .text(r.runId()).raw("</a></td>").element("td", r.variant())
          .raw(c.failureMs() == null ? "<td></td>" : num(c.failureMs() / 1000.0, "%.1f"))
          .raw("<td class=\"num\">").text(c.jobMs() == null ? "" : String.format(Locale.ROOT, "%.1f", c.jobMs() / 1000.0))
          .text(c.jobSucceeded() ? "" : " " + (r.job() == null ? "no outcome" : r.job().state())).raw("</td>")
          .raw("<td>").raw(swatch(c.group())).text(c.group().label()).raw("</td>")
          .element("td", c.recovery().label()).raw("<td><ul>");
      c.evidence().forEach(e -> h.element("li", e));
      h.raw("</ul></td></tr>\n");
    }
    h.raw("</tbody></table>\n");
  }

  private static void figure(Html h, String svg) {
    h.raw("<figure>").raw(svg).raw("</figure>\n");
  }

  private static String swatch(DinuNgGroup g) {
    return "<span class=\"swatch\" style=\"background:" + Palette.hex(Palette.group(g)) + "\"></span>";
  }

  private static String num(double v) {
    return num(v, "%.1f");
  }

  private static String num(long v) {
    return "<td class=\"num\">" + v + "</td>";
  }

  private static String num(double v, String format) {
    return "<td class=\"num\">" + (Double.isNaN(v) ? "" : String.format(Locale.ROOT, format, v)) + "</td>";
  }

  private static String cell(Interval i) {
    return cell(i, "%.1f");
  }

  private static String cell(Interval i, String format) {
    return "<td class=\"num\">" + (Double.isNaN(i.low()) ? "" : "[" + String.format(Locale.ROOT, format, i.low())
        + ", " + String.format(Locale.ROOT, format, i.high()) + "]") + "</td>";
  }

  static final String STYLE = String.join("\n",
      "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;margin:24px auto;max-width:1180px;color:#222;padding:0 16px}",
      "h1{font-size:24px;margin-bottom:4px}h2{font-size:19px;margin-top:32px;border-bottom:1px solid #ddd;padding-bottom:4px}",
      "p.meta,p.note{color:#555;font-size:13px}",
      "table{border-collapse:collapse;margin:8px 0;font-size:13px}",
      "th,td{border:1px solid #ddd;padding:4px 8px;vertical-align:top;text-align:left}",
      "th{background:#f4f4f4}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}",
      "table.runs ul{margin:0;padding-left:16px}table.runs li{margin:1px 0}",
      "figure{margin:12px 0}figure svg{max-width:100%;height:auto}",
      "div.pair{display:flex;flex-wrap:wrap;gap:12px}",
      ".swatch{display:inline-block;width:10px;height:10px;border-radius:5px;margin-right:6px}");
}
