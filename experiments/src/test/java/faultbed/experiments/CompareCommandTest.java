package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.commons.statistics.distribution.ContinuousDistribution;
import org.apache.commons.statistics.distribution.LogNormalDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CI gate: a constructed 20% regression fails it, another sample of the same variant passes. */
class CompareCommandTest {
  private static final int RUNS = 20;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int faultbed(String... args) {
    return FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  /** A suite folder of RUNS successful "crash" runs with log-normal times around 45 s (6% spread), scaled. */
  private static Path suite(Path dir, long seed, double scale) {
    ContinuousDistribution.Sampler times = LogNormalDistribution.of(Math.log(45), 0.06)
        .createSampler(new SplittableRandom(seed)::nextLong);
    RecordStore store = new RecordStore(dir);
    for (int i = 0; i < RUNS; i++) {
      long ms = Math.round(times.sample() * scale * 1000);
      store.write(new RunRecord(RunRecord.SCHEMA_VERSION, String.format("crash-%03d", i), "ci", "crash", i, seed, "t",
          new RunRecord.ClusterInfo("mini", 4, 1024, 2), Map.of(), null, List.of(), List.of(), List.of(), List.of(),
          List.of(), new RunRecord.JobOutcome("job_" + i, "SUCCEEDED", true, 0L, ms, 8, 2, null), Map.of(), List.of(), null, null, List.of(), null, null, List.of(), null, null, null, null, null, null, null, null));
    }
    return dir;
  }

  @Test
  void twentyPercentSlowerExitsOne(@TempDir Path tmp) {
    Path baseline = suite(tmp.resolve("baseline"), 1, 1.0);
    Path slower = suite(tmp.resolve("candidate"), 2, 1.2);
    assertEquals(1, faultbed("compare", baseline.toString(), slower.toString()), out + "\n" + err);
    assertTrue(out.toString().contains("verdict: WORSE"), out.toString());
    assertTrue(out.toString().endsWith("REGRESSION\n"), out.toString());
  }

  @Test
  void jsonSaysWhatTheTableSaysWithTheSameExitCode(@TempDir Path tmp) throws Exception {
    Path baseline = suite(tmp.resolve("baseline"), 1, 1.0);
    Path slower = suite(tmp.resolve("candidate"), 2, 1.2);
    assertEquals(1, faultbed("compare", baseline.toString(), slower.toString(), "--json"), out + "\n" + err);
    var doc = RecordStore.json().readTree(out.toString());
    assertEquals(1, doc.get("comparisons").size(), out.toString());
    var c = doc.get("comparisons").get(0);
    assertEquals("WORSE", c.get("verdict").asText());
    assertEquals(RUNS, c.get("candidate").get("runs").asInt());
    assertTrue(c.get("median").get("ratio").asDouble() > 1.1, c.toString());
    assertTrue(c.get("test").get("pValue").asDouble() < 0.05, c.toString());
  }

  @Test
  void htmlPageHoldsTheVerdictAndBothSidesWithTheSameExitCode(@TempDir Path tmp) throws Exception {
    Path baseline = suite(tmp.resolve("baseline"), 1, 1.0);
    Path slower = suite(tmp.resolve("candidate"), 2, 1.2);
    Path page = tmp.resolve("pages/compare.html");
    assertEquals(1, faultbed("compare", baseline.toString(), slower.toString(), "--html", page.toString()),
        out + "\n" + err);
    assertTrue(err.toString().contains("page: " + page), err.toString());
    String html = Files.readString(page);
    assertTrue(html.contains("Verdict: WORSE"), html);
    assertTrue(html.contains("verdict: WORSE"), "the table as compare prints it");
    assertTrue(html.contains("baseline: crash") && html.contains("candidate: crash"), "both sides in the charts");
    assertEquals(2, html.split("<svg", -1).length - 1, "a box plot and an ECDF");
    assertEquals(2, faultbed("compare", baseline.toString(), slower.toString(), "--html", tmp.toString()));
    assertTrue(err.toString().contains("--html: expected a file"), err.toString());
  }

  @Test
  void aRerunOfTheSameVariantExitsZero(@TempDir Path tmp) {
    Path baseline = suite(tmp.resolve("baseline"), 1, 1.0);
    Path rerun = suite(tmp.resolve("rerun"), 3, 1.0);
    assertEquals(0, faultbed("compare", baseline.toString(), rerun.toString()), out + "\n" + err);
    assertTrue(out.toString().contains("verdict: NO_SIGNIFICANT_DIFFERENCE"), out.toString());
  }

  @Test
  void aCommittedBaselineFileGatesLikeItsFolder(@TempDir Path tmp) {
    Path baselineRuns = suite(tmp.resolve("baseline"), 1, 1.0);
    Path file = tmp.resolve("baselines/mine.json");
    assertEquals(0, faultbed("baseline", baselineRuns.toString(), "--out", file.toString()), err.toString());
    assertTrue(Files.exists(file));
    assertTrue(out.toString().contains("baseline: " + file), out.toString());
    assertEquals(1, faultbed("compare", file.toString(), suite(tmp.resolve("slower"), 2, 1.2).toString()));
    assertEquals(0, faultbed("compare", file.toString(), suite(tmp.resolve("rerun"), 3, 1.0).toString()));
    // a looser budget lets the 20% through
    assertEquals(0, faultbed("compare", file.toString(), tmp.resolve("slower").toString(), "--max-regression", "30"));
  }

  @Test
  void variantsRunInBlocksArePairedByBlock(@TempDir Path tmp) {
    Path dir = BlockedRecords.hadoop3AndMine(tmp.resolve("blocks"));
    assertEquals(0, faultbed("compare", dir.toString(), dir.toString(), "--baseline-variant", "hadoop3",
        "--candidate-variant", "mine"), out + "\n" + err);
    String o = out.toString();
    assertTrue(o.contains("hadoop3 -> mine: paired by block, 9 pairs (1 block left out: a failed job or a missing run)"), o);
    assertTrue(o.contains("  runs (failed)          10 (0)         10 (1)"), o);
    // 8 of 9 blocks slower, the faster one the closest: W+ = 44 of 45, exact p = 2 * 2 / 2^9
    assertTrue(o.contains("  Wilcoxon signed-rank W+ 44 of 45, candidate slower in 8 of 9 blocks, exact p 0.00781"), o);
    assertTrue(o.contains("  per-block ratio: median x1.050; Hodges-Lehmann x1.0"), o);
    assertTrue(o.contains("  power: this sample can see a change of x1.0"), o);
    assertTrue(o.contains("verdict: SLOWER_WITHIN_TOLERANCE"), o);
    out.getBuffer().setLength(0);
    assertEquals(1, faultbed("compare", dir.toString(), dir.toString(), "--baseline-variant", "hadoop3",
        "--candidate-variant", "mine", "--max-regression", "2"), out + "\n" + err);
    assertTrue(out.toString().contains("verdict: WORSE"), out.toString());
  }

  /** hadoop3 and mine of {@link BlockedRecords}, and theirs: hadoop3 with its first block 0.1 s slower. */
  private static Path hadoop3MineAndTheirs(Path dir) {
    var times = new java.util.LinkedHashMap<String, double[]>();
    times.put("hadoop3", BlockedRecords.HADOOP3);
    times.put("mine", BlockedRecords.MINE);
    times.put("theirs", BlockedRecords.HADOOP3.clone());
    times.get("theirs")[0] = 30.1;
    return BlockedRecords.write(dir, times);
  }

  @Test
  void allAgainstComparesEveryOtherVariantInOneFamily(@TempDir Path tmp) {
    Path dir = hadoop3MineAndTheirs(tmp.resolve("blocks"));
    assertEquals(0, faultbed("compare", dir.toString(), "--all-against", "hadoop3"), out + "\n" + err);
    String o = out.toString();
    assertTrue(o.contains("2 comparisons: p-values Holm-adjusted; a lone change must reach alpha 0.05/2"), o);
    assertTrue(o.contains("hadoop3 -> mine: paired by block"), o);
    assertTrue(o.contains("hadoop3 -> theirs: paired by block"), o);
    assertTrue(o.contains("exact p 0.00781, Holm 0.0156"), o);
  }

  @Test
  void suitesAreOneFamilySoTheWholeGateHoldsItsAlpha(@TempDir Path tmp) {
    Path crash = BlockedRecords.hadoop3AndMine(tmp.resolve("crash"));
    Path stragglers = BlockedRecords.hadoop3AndMine(tmp.resolve("stragglers"));
    // alone, each suite's exact p 0.00781 is below alpha 0.01: WORSE
    assertEquals(1, faultbed("compare", crash.toString(), "--all-against", "hadoop3", "--alpha", "0.01",
        "--max-regression", "2"), out + "\n" + err);
    out.getBuffer().setLength(0);
    // together, Holm doubles the smaller: 0.0156, and neither is WORSE at 0.01
    assertEquals(0, faultbed("compare", "--suites", crash.toString(), stragglers.toString(), "--all-against", "hadoop3",
        "--alpha", "0.01", "--max-regression", "2"), out + "\n" + err);
    String o = out.toString();
    assertTrue(o.contains("== " + crash), o);
    assertTrue(o.contains("== " + stragglers), o);
    assertTrue(o.contains("2 comparisons: p-values Holm-adjusted; a lone change must reach alpha 0.01/2"), o);
    assertTrue(o.contains("exact p 0.00781, Holm 0.0156"), o);
    assertTrue(o.contains("one family: 2 comparisons across 2 suites, p-values Holm-adjusted together;"
        + " family-wise alpha 0.01"), o);
    assertTrue(o.strip().endsWith("no regression"), o);
    out.getBuffer().setLength(0);
    assertEquals(1, faultbed("compare", "--suites", crash.toString(), stragglers.toString(), "--all-against", "hadoop3",
        "--alpha", "0.05", "--max-regression", "2", "--json"), out + "\n" + err);
    assertTrue(out.toString().contains("\"familyWiseAlpha\" : 0.05"), out.toString());
  }

  @Test
  void severalReferencesAreSeveralFamiliesAdjustedAcrossThem(@TempDir Path tmp) {
    Path dir = hadoop3MineAndTheirs(tmp.resolve("blocks"));
    assertEquals(0, faultbed("compare", dir.toString(), "--all-against", "hadoop3,theirs"), out + "\n" + err);
    String o = out.toString();
    assertTrue(o.contains("== family 1 of 2: every variant against hadoop3"), o);
    assertTrue(o.contains("== family 2 of 2: every variant against theirs"), o);
    assertTrue(o.contains("family: the 2 comparisons below, Holm-adjusted within it; one of 2 families in this"
        + " document, adjusted across them (Benjamini-Hochberg"), o);
    // hadoop3 -> mine: exact p 0.00781, Holm 0.0156 in its family; both families selected: times 2 / 2
    assertTrue(o.contains("exact p 0.00781, adjusted 0.0156"), o);
    assertTrue(o.contains("theirs -> mine: paired by block"), o);
  }

  @Test
  void aDocumentsFamiliesSpanItsSuitesAdjustedAcrossThem(@TempDir Path tmp) throws Exception {
    Path crash = BlockedRecords.hadoop3AndMine(tmp.resolve("crash"));
    Path blocks = hadoop3MineAndTheirs(tmp.resolve("blocks"));
    // mine is 4.8 % slower in every family: significant, within the default 10 % allowed
    assertEquals(0, faultbed("compare", "--families", crash + "=hadoop3", blocks + "=hadoop3,theirs"),
        out + "\n" + err);
    String o = out.toString();
    assertTrue(o.contains("== family 1 of 3: " + crash + ", every variant against hadoop3"), o);
    assertTrue(o.contains("== family 3 of 3: " + blocks + ", every variant against theirs"), o);
    assertTrue(o.contains("one of 3 families in this document"), o);
    // each family's smallest Holm p: 0.00781 (one comparison), 0.0156 (two), 0.0156; Benjamini-Hochberg selects
    // all three at 0.05, so a comparison holds when its Holm p times 3 / 3 is below 0.05
    assertTrue(o.contains("families: 3 in this document; Benjamini-Hochberg over each family's smallest Holm p"
        + " selects 3 at alpha 0.05"), o);
    assertTrue(o.contains("selected " + crash + ": mine / hadoop3: smallest Holm p 0.00781"), o);
    assertTrue(o.contains("selected " + blocks + ": every variant against theirs: smallest Holm p 0.0156"), o);
    assertTrue(o.contains("holding:\n  " + crash + ": mine / hadoop3 x"), o);
    // --json: the families' comparisons, then the same selection
    out.getBuffer().setLength(0);
    assertEquals(0, faultbed("compare", "--families", crash + "=hadoop3", blocks + "=hadoop3,theirs", "--json"),
        out + "\n" + err);
    com.fasterxml.jackson.databind.JsonNode json = RecordStore.json().readTree(out.toString());
    assertEquals(3, json.get("families").size(), o);
    com.fasterxml.jackson.databind.JsonNode selection = json.get("selection");
    assertEquals(3, selection.get("selected").asInt(), selection.toString());
    assertEquals(0.05, selection.get("alpha").asDouble());
    assertEquals(crash + ": mine / hadoop3", selection.get("families").get(0).get("family").asText());
    assertEquals(0.0078125, selection.get("families").get(0).get("smallestHolmP").asDouble(), 1e-9);
    assertTrue(selection.get("families").get(2).get("selected").asBoolean(), selection.toString());
    assertTrue(selection.get("holding").get(0).asText().startsWith(crash + ": mine / hadoop3 x"), selection.toString());
    // W/V: a family of that one comparison; two such families are Benjamini-Hochberg over their two p-values
    out.getBuffer().setLength(0);
    assertEquals(0, faultbed("compare", "--families", blocks + "=mine/hadoop3,theirs/hadoop3"), out + "\n" + err);
    o = out.toString();
    assertTrue(o.contains("== family 1 of 2: " + blocks + ", mine against hadoop3"), o);
    assertTrue(o.contains("the 1 comparisons below"), o);
    assertTrue(o.contains("selects 1 at alpha 0.05; within a selected family a comparison holds when its Holm p times 2 / 1"),
        o);
    assertTrue(o.contains("holding:\n  " + blocks + ": mine / hadoop3 x1.048, adjusted p 0.0156\nno regression"), o);
    // the same families from one suite read as --all-against V1,V2 does
    out.getBuffer().setLength(0);
    faultbed("compare", "--families", blocks + "=hadoop3,theirs");
    String families = out.toString();
    out.getBuffer().setLength(0);
    faultbed("compare", blocks.toString(), "--all-against", "hadoop3,theirs");
    assertTrue(families.contains("exact p 0.00781, adjusted 0.0156"), families);
    // every comparison's adjusted p-values and verdict (the summary's holding lines aside)
    java.util.function.Predicate<String> adjusted = l -> l.startsWith("  ") && l.contains("adjusted") && !l.contains(" / ");
    assertEquals(out.toString().lines().filter(adjusted).toList(), families.lines().filter(adjusted).toList());
  }

  @Test
  void theSchedulersPagesConfirmatoryFamilyHoldsWhatThePageSays() throws Exception {
    // the command as docs/schedulers.md prints it, run from this module's folder
    String page = Files.readString(Path.of("..", "docs", "schedulers.md"));
    int start = page.indexOf("./faultbed compare --families");
    String command = page.substring(start, page.indexOf("```", start)).replace("\\\n", " ");
    List<String> args = new java.util.ArrayList<>();
    for (String a : command.trim().split("\\s+")) {
      args.add(a.replace("experiments/published/", "published/"));
    }
    faultbed(args.subList(1, args.size()).toArray(String[]::new));
    String o = out.toString();
    assertTrue(o.contains("families: 16 in this document; Benjamini-Hochberg over each family's smallest Holm p selects 6"
        + " at alpha 0.05"), o);
    for (String holds : List.of("stragglers-strong: hadoop3-legacy / no-speculation x0.536, adjusted p 0.026",
        "stragglers-strong: hadoop-0.21 / no-speculation x0.444, adjusted p 0.00521",
        "stragglers-strong: late / no-speculation x0.563, adjusted p 0.00521",
        "stragglers-strong: late / hadoop-0.21 x1.091, adjusted p 0.0365",
        "network-heterogeneity: two-classes / one-class x1.148, adjusted p 0.0417",
        "network-heterogeneity-sort: two-classes / one-class x2.550, adjusted p 0.0208")) {
      assertTrue(o.contains("  published/" + holds + "\n"), holds + "\n" + o.substring(o.indexOf("families:")));
    }
    assertEquals(6, o.substring(o.indexOf("holding:")).lines().filter(l -> l.startsWith("  ")).count(), o);
  }

  @Test
  void badInputIsOneLineNamingTheArgument(@TempDir Path tmp) throws Exception {
    Path runs = suite(tmp.resolve("runs"), 1, 1.0);
    assertBad("--alpha: expected a number between 0 and 1, got 1.5", "compare", runs.toString(), runs.toString(), "--alpha", "1.5");
    assertBad("--max-regression: expected a percentage of at least 0, got -5.0", "compare", runs.toString(), runs.toString(),
        "--max-regression", "-5");
    assertBad("BASELINE: expected a folder of run records or a baseline file, got " + tmp.resolve("nope"), "compare",
        tmp.resolve("nope").toString(), runs.toString());
    Path summary = Files.writeString(tmp.resolve("summary.json"), "{\"scenario\":\"ci\"}");
    assertBad("CANDIDATE: expected a baseline file", "compare", runs.toString(), summary.toString());
    assertBad("--variant: expected one of [crash] in BASELINE, got other", "compare", runs.toString(), runs.toString(),
        "--variant", "other");
    assertBad("--candidate-variant: expected one of [crash] in CANDIDATE, got other", "compare", runs.toString(),
        runs.toString(), "--baseline-variant", "crash", "--candidate-variant", "other");
    assertBad("Invalid value for option '--alpha'", "compare", runs.toString(), runs.toString(), "--alpha", "x");
    assertBad("CANDIDATE: expected a folder of run records or a baseline file", "compare", runs.toString());
    assertBad("--all-against: expected no --variant, --baseline-variant or --candidate-variant with it", "compare",
        runs.toString(), "--all-against", "crash", "--variant", "crash");
    assertBad("--all-against: expected one of [crash] in BASELINE, got other", "compare", runs.toString(),
        "--all-against", "other");
    assertBad("candidate has no variant but crash to compare", "compare", runs.toString(), "--all-against", "crash");
    assertBad("--suites: expected --all-against with it", "compare", "--suites", runs.toString());
    assertBad("--suites: expected no BASELINE or CANDIDATE with it, got " + runs, "compare", runs.toString(),
        "--suites", runs.toString(), "--all-against", "crash");
    assertBad("--suites: expected folders of run records, got " + tmp.resolve("nope"), "compare", "--suites",
        tmp.resolve("nope").toString(), "--all-against", "crash");
    assertBad("--all-against: expected one of [crash] in " + runs + ", got other", "compare", "--suites",
        runs.toString(), "--all-against", "other");
    assertBad("BASELINE: expected a folder of run records or a baseline file (or --suites DIR...)", "compare");
    assertBad("--all-against: expected one of [crash] in BASELINE, got other", "compare", runs.toString(),
        "--all-against", "crash,other");
    assertBad("--families: expected DIR=V1[,V2] (a suite folder and the variants to compare its others with), got "
        + runs, "compare", "--families", runs.toString());
    assertBad("--families: expected folders of run records, got " + tmp.resolve("nope"), "compare", "--families",
        tmp.resolve("nope") + "=crash");
    assertBad("--families: expected one of [crash] in " + runs + ", got other", "compare", "--families",
        runs + "=crash,other");
    assertBad("--families: expected V or W/V after " + runs + "=, got a/b/c", "compare", "--families", runs + "=a/b/c");
    assertBad("--families: expected two different variants in crash/crash", "compare", "--families",
        runs + "=crash/crash");
    assertBad("--families: expected either --suites or --families, not both", "compare", "--families",
        runs + "=crash", "--suites", runs.toString(), "--all-against", "crash");
    assertBad("--families: expected no --all-against or --variant options with it", "compare", "--families",
        runs + "=crash", "--all-against", "crash");
  }

  private void assertBad(String expectedStart, String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    assertEquals(2, faultbed(args), out.toString());
    String e = err.toString();
    assertEquals(1, e.lines().count(), e);
    assertTrue(e.startsWith("faultbed: " + expectedStart), e);
  }
}
