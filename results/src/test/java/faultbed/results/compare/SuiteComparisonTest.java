package faultbed.results.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RecordStore;
import faultbed.results.SuiteSummary;
import faultbed.results.stats.Bootstrap;
import faultbed.results.stats.GateThresholds;
import faultbed.results.stats.Verdict;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuiteComparisonTest {
  private static Path quickstart() throws URISyntaxException {
    return Path.of(SuiteComparisonTest.class.getResource("/records/quickstart").toURI());
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
    SuiteComparison c = SuiteComparison.of(s, s, null, null, GateThresholds.DEFAULT, Bootstrap.DEFAULT);
    assertEquals(2, c.comparisons().size());
    assertFalse(c.regression());
    c.comparisons().forEach(x -> assertEquals(Verdict.NO_SIGNIFICANT_DIFFERENCE, x.verdict()));
    String table = c.table();
    assertTrue(table.contains("verdict: NO_SIGNIFICANT_DIFFERENCE"), table);
    assertTrue(table.endsWith("no regression\n"), table);
  }

  @Test
  void twoVariantsOfOneSuiteAreComparedByName() throws Exception {
    SampleSet s = SampleSet.read(quickstart());
    SuiteComparison c = SuiteComparison.of(s, s, "baseline", "crash", GateThresholds.DEFAULT, Bootstrap.DEFAULT);
    assertEquals(1, c.comparisons().size());
    assertEquals("baseline -> crash", c.comparisons().get(0).baseline().label());
    assertEquals(47.834 / 20.21, c.comparisons().get(0).median().ratio(), 1e-9);
    assertTrue(c.table().contains("note: with 1 and 4 successful runs no difference in time can reach alpha 0.05"),
        c.table());
  }

  @Test
  void whatCannotBeComparedIsNamedInTheMessage(@TempDir Path tmp) throws Exception {
    SampleSet s = SampleSet.read(quickstart());
    var missing = assertThrows(SampleSet.InvalidSampleSource.class,
        () -> SuiteComparison.of(s, s, "baseline", "nope", GateThresholds.DEFAULT, Bootstrap.DEFAULT));
    assertTrue(missing.getMessage().startsWith("candidate variant: expected one of [baseline, crash], got nope"),
        missing.getMessage());

    SampleSet other = new SampleSet("x", "x", List.of(new VariantSample("other", 1, 0, List.of(1.0))));
    var disjoint = assertThrows(SampleSet.InvalidSampleSource.class,
        () -> SuiteComparison.of(s, other, null, null, GateThresholds.DEFAULT, Bootstrap.DEFAULT));
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
