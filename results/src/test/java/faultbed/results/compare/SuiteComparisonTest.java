package faultbed.results.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RecordStore;
import faultbed.results.SuiteSummary;
import faultbed.results.stats.Analysis;
import faultbed.results.stats.Comparison;
import faultbed.results.stats.Comparison.Design;
import faultbed.results.stats.Holm;
import faultbed.results.stats.Verdict;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuiteComparisonTest {
  /**
   * Ten blocks whose fault draw moves both variants together (30 to 66 s); "mine" takes 4-6%
   * longer in every block but the 7th, and its job in block 3 failed.
   */
  private static final double[] HADOOP3 = {30.2, 45.1, 38.0, 52.3, 61.0, 33.3, 47.7, 40.4, 58.8, 66.1};
  private static final double[] MINE = {31.7, 47.0, 40.1, Double.NaN, 64.2, 35.1, 47.1, 42.5, 61.3, 69.0};

  private static Path quickstart() throws URISyntaxException {
    return Path.of(SuiteComparisonTest.class.getResource("/records/quickstart").toURI());
  }

  private static Path blocked(Path dir) {
    return BlockedSuite.write(dir, BlockedSuite.of("hadoop3", HADOOP3, "mine", MINE));
  }

  @Test
  void baselineFileKeepsTheRawTimesAndReadsBackAsTheSameSamples(@TempDir Path tmp) throws Exception {
    SampleSet fromFolder = SampleSet.read(quickstart());
    Path file = tmp.resolve("baselines/quickstart.json");
    BaselineFile.of(fromFolder).write(file);

    String json = Files.readString(file);
    assertTrue(json.contains("\"format\" : \"faultbed-baseline/1\""), json);
    assertTrue(json.contains("49.906"), "raw completion times are kept");
    SampleSet fromFile = SampleSet.read(file);
    assertEquals(fromFolder.variants(), fromFile.variants());
    assertEquals(List.of("baseline", "crash"), fromFile.variantNames());
    assertEquals(4, fromFile.variant("crash").orElseThrow().completionSeconds().size());
  }

  @Test
  void aBaselineFileOfTheFirstFormatReadsAsRunsWithoutBlocks(@TempDir Path tmp) throws IOException {
    Path file = tmp.resolve("old.json");
    Files.writeString(file, "{\"format\":\"faultbed-baseline/1\",\"scenario\":\"ci\",\"variants\":[{\"variant\":\"a\","
        + "\"runs\":3,\"failed\":1,\"completionSeconds\":[18.8,24.2],\"summary\":{\"n\":2}}]}");
    VariantSample a = SampleSet.read(file).variant("a").orElseThrow();
    assertEquals(List.of(18.8, 24.2), a.completionSeconds());
    assertEquals(1, a.failed());
    assertFalse(a.blocked());
  }

  @Test
  void aBaselineFileSavedAmongTheRecordsIsNotMistakenForARun(@TempDir Path tmp) throws Exception {
    try (var files = Files.list(quickstart())) {
      for (Path f : files.toList()) {
        Files.copy(f, tmp.resolve(f.getFileName()));
      }
    }
    BaselineFile.of(SampleSet.read(tmp)).write(tmp.resolve("baseline.json"));
    assertEquals(5, new RecordStore(tmp).readAll().size());
    assertEquals(SampleSet.read(tmp).variants(), SampleSet.read(tmp.resolve("baseline.json")).variants());
  }

  @Test
  void sameSuiteAgainstItselfIsNoRegression() throws Exception {
    SampleSet s = SampleSet.read(quickstart());
    SuiteComparison c = SuiteComparison.of(s, s, null, null, Analysis.DEFAULT);
    assertEquals(2, c.comparisons().size());
    assertEquals(2, c.analysis().tests());
    assertFalse(c.regression());
    c.comparisons().forEach(x -> assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, x.verdict()));
    String table = c.table();
    assertTrue(table.contains("crash: unpaired, the same runs on both sides"), table);
    assertTrue(table.contains("2 comparisons: p-values Holm-adjusted; a lone change must reach alpha 0.05/2"), table);
    assertTrue(table.contains("verdict: NO_SIGNIFICANT_DIFFERENCE"), table);
    assertTrue(table.endsWith("no regression\n"), table);
  }

  @Test
  void twoVariantsOfOneSuiteAreComparedByName() throws Exception {
    SampleSet s = SampleSet.read(quickstart());
    SuiteComparison c = SuiteComparison.of(s, s, "baseline", "crash", Analysis.DEFAULT);
    assertEquals(1, c.comparisons().size());
    Comparison only = c.comparisons().get(0);
    assertEquals("baseline -> crash", only.baseline().label());
    assertEquals(47.834 / 20.21, only.median().ratio(), 1e-9);
    assertEquals("runs not in blocks", ((Design.Unpaired) only.design()).why());
    assertTrue(c.table().contains("note: with 1 and 4 successful runs no difference in time can reach alpha 0.05"
        + " (smallest possible p 0.4); run more"), c.table());
  }

  @Test
  void variantsOfOneSuiteRunInBlocksArePairedByBlock(@TempDir Path tmp) {
    SampleSet s = SampleSet.read(blocked(tmp));
    Comparison c = SuiteComparison.of(s, s, "hadoop3", "mine", Analysis.DEFAULT).comparisons().get(0);
    Design.Paired d = assertInstanceOf(Design.Paired.class, c.design());
    assertEquals(9, d.pairs());
    assertEquals(1, d.unpairedBlocks(), "the block whose job failed");
    assertEquals(8, d.slowerBlocks());
    // the failed job still counts, for the failure test: 1 of 10 against 0 of 10
    assertEquals(10, c.candidate().runs());
    assertEquals(1, c.candidate().failed());
    assertEquals(0.5, c.failurePValue(), 1e-12);
    // block 6 is the one faster block and its |log ratio| the smallest: W+ = 45 - 1 = 44 of 45,
    // exact two-sided p = 2 P(W+ <= 1) = 2 * 2/512
    assertEquals("Wilcoxon signed-rank", c.test().name());
    assertEquals(44, c.test().statistic(), 1e-12);
    assertEquals(4 / 512.0, c.test().pValue(), 1e-15);
    assertTrue(c.test().exact());
    assertEquals(Verdict.SLOWER_WITHIN_TOLERANCE, c.verdict(), c.reason());
    String table = SuiteComparison.of(s, s, "hadoop3", "mine", Analysis.DEFAULT).table();
    assertTrue(table.contains("hadoop3 -> mine: paired by block, 9 pairs (1 block left out: a failed job or a"
        + " missing run)"), table);
    assertTrue(table.contains("Wilcoxon signed-rank W+ "), table);
    assertTrue(table.contains("candidate slower in 8 of 9 blocks, exact p"), table);
    assertTrue(table.contains("power: this sample can see a change of x1.0"), table);

    // the same runs in independent samples hide the 5% under the blocks' spread
    Comparison unpaired = SuiteComparison.of(s, SampleSet.read(blocked(tmp.resolve("copy"))), "hadoop3", "mine",
        Analysis.DEFAULT).comparisons().get(0);
    assertEquals("runs of different suites", ((Design.Unpaired) unpaired.design()).why());
    assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, unpaired.verdict(), unpaired.reason());
    assertTrue(unpaired.detectable().ratio() > c.detectable().ratio() + 0.1);
  }

  @Test
  void aBaselineFileKeepsTheBlocksSoItsVariantsStillPair(@TempDir Path tmp) {
    Path folder = blocked(tmp.resolve("runs"));
    Path file = tmp.resolve("blocks.json");
    BaselineFile.of(SampleSet.read(folder)).write(file);
    SampleSet fromFile = SampleSet.read(file);
    assertTrue(fromFile.variant("mine").orElseThrow().blocked());
    assertInstanceOf(Design.Paired.class,
        SuiteComparison.of(fromFile, fromFile, "hadoop3", "mine", Analysis.DEFAULT).comparisons().get(0).design());
    // a file against the folder it came from: two sources, so no pairing across them
    assertInstanceOf(Design.Unpaired.class, SuiteComparison.of(fromFile, SampleSet.read(folder), "hadoop3", "mine",
        Analysis.DEFAULT).comparisons().get(0).design());
  }

  @Test
  void allAgainstOneVariantIsOneFamilyWithHolmAdjustedPValues(@TempDir Path tmp) {
    Map<String, double[]> times = new LinkedHashMap<>();
    times.put("hadoop3", HADOOP3);
    times.put("mine", MINE);
    times.put("same", HADOOP3.clone());
    times.get("same")[0] = 30.1;
    SampleSet s = SampleSet.read(BlockedSuite.write(tmp, times));
    SuiteComparison all = SuiteComparison.allAgainst(s, "hadoop3", s, Analysis.DEFAULT);
    assertEquals(List.of("hadoop3 -> mine", "hadoop3 -> same"),
        all.comparisons().stream().map(c -> c.baseline().label()).toList());
    assertEquals(2, all.analysis().tests());
    double[] raw = all.comparisons().stream().mapToDouble(c -> c.test().pValue()).toArray();
    double[] adjusted = Holm.adjust(raw);
    for (int i = 0; i < raw.length; i++) {
      assertEquals(adjusted[i], all.comparisons().get(i).adjustedPValue(), 1e-15);
    }
    assertEquals(2 * raw[0], adjusted[0], 1e-15, "the smaller p-value doubles");
    String table = all.table();
    assertTrue(table.contains(", Holm "), table);
    assertTrue(table.contains("at alpha 0.05/2"), table);
    var missing = assertThrows(SampleSet.InvalidSampleSource.class,
        () -> SuiteComparison.allAgainst(s, "nope", s, Analysis.DEFAULT));
    assertTrue(missing.getMessage().startsWith("baseline variant: expected one of [hadoop3, mine, same], got nope"),
        missing.getMessage());
  }

  @Test
  void whatCannotBeComparedIsNamedInTheMessage(@TempDir Path tmp) throws Exception {
    SampleSet s = SampleSet.read(quickstart());
    var missing = assertThrows(SampleSet.InvalidSampleSource.class,
        () -> SuiteComparison.of(s, s, "baseline", "nope", Analysis.DEFAULT));
    assertTrue(missing.getMessage().startsWith("candidate variant: expected one of [baseline, crash], got nope"),
        missing.getMessage());

    SampleSet other = new SampleSet("x", null, "x", List.of(VariantSample.unblocked("other", List.of(1.0), 0)));
    var disjoint = assertThrows(SampleSet.InvalidSampleSource.class,
        () -> SuiteComparison.of(s, other, null, null, Analysis.DEFAULT));
    assertTrue(disjoint.getMessage().startsWith("no variant in common"), disjoint.getMessage());

    Path summary = tmp.resolve("summary.json");
    Files.writeString(summary, RecordStore.json().writeValueAsString(
        SuiteSummary.of(new RecordStore(quickstart()).readAll())));
    var notBaseline = assertThrows(SampleSet.InvalidSampleSource.class, () -> SampleSet.read(summary));
    assertTrue(notBaseline.getMessage().startsWith("expected a baseline file"), notBaseline.getMessage());

    var absent = assertThrows(SampleSet.InvalidSampleSource.class, () -> SampleSet.read(tmp.resolve("absent")));
    assertTrue(absent.getMessage().startsWith("expected a folder of run records or a baseline file"));

    var empty = assertThrows(SampleSet.InvalidSampleSource.class, () -> SampleSet.read(Files.createDirectory(tmp.resolve("empty"))));
    assertTrue(empty.getMessage().startsWith("expected run records"), empty.getMessage());
  }

  @Test
  void aBaselineFileWithInconsistentCountsIsRejected(@TempDir Path tmp) throws IOException {
    Path file = tmp.resolve("bad.json");
    Files.writeString(file, "{\"format\":\"faultbed-baseline/1\",\"variants\":[{\"variant\":\"a\",\"runs\":3,"
        + "\"failed\":0,\"completionSeconds\":[1.0]}]}");
    var e = assertThrows(SampleSet.InvalidSampleSource.class, () -> SampleSet.read(file));
    assertTrue(e.getMessage().contains("variants: a: runs 3 != failed 0 + completion times 1"), e.getMessage());
  }
}
