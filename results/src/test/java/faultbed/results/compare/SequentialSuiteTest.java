package faultbed.results.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.stats.SequentialGate.Decision;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SequentialSuiteTest {
  private static final List<String> VARIANTS = List.of("reference", "candidate");

  private static JsonNode scenario(String sequential) throws Exception {
    return RecordStore.json().readTree("{\"reference\": \"reference\", \"sequential\": " + sequential + "}");
  }

  private static SequentialSuite design(String sequential, int blocks) throws Exception {
    return SequentialSuite.ofScenario(scenario(sequential), blocks, VARIANTS).orElseThrow();
  }

  /** Blocks of a noisy job (13 % log sd, as the straggler pilot) with the candidate {@code ratio} slower. */
  private static Map<String, double[]> blocks(int n, double ratio, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    double[] reference = new double[n];
    double[] candidate = new double[n];
    for (int b = 0; b < n; b++) {
      double block = 30 * Math.exp(0.2 * random.nextGaussian()); // what moves both variants of a block
      reference[b] = block * Math.exp(0.09 * random.nextGaussian());
      candidate[b] = block * ratio * Math.exp(0.09 * random.nextGaussian());
    }
    Map<String, double[]> m = new LinkedHashMap<>();
    m.put("reference", reference);
    m.put("candidate", candidate);
    return m;
  }

  private static List<RunRecord> records(Map<String, double[]> seconds) {
    List<RunRecord> out = new ArrayList<>();
    seconds.forEach((variant, times) -> {
      for (int b = 0; b < times.length; b++) {
        out.add(BlockedSuite.record(variant, b, 1000L + b, times[b]).inBlock(new RunRecord.Block(b, 0, 2)));
      }
    });
    return out;
  }

  @Test
  void aLargeSlowdownStopsWorseAtTheFirstLookThatCanSeeIt() throws Exception {
    SequentialSuite suite = design("{\"blocks\": 40, \"looks\": 8}", 40);
    // 40 % slower: O'Brien-Fleming's first look at 8 blocks cannot reject (its level is below 2/2^8), the second can
    List<SequentialSuite.Result> results = suite.decide(records(blocks(40, 1.4, 1)));
    assertEquals(1, results.size());
    SequentialSuite.Result r = results.get(0);
    assertEquals(Decision.STOP_WORSE, r.outcome().decision(), r.describe());
    assertTrue(r.outcome().stoppedEarly(), r.describe());
    assertEquals(16, r.outcome().blocks(), r.describe());
    assertTrue(SequentialSuite.ended(results));
    assertTrue(SequentialSuite.regression(results));
  }

  @Test
  void noDifferenceRunsToTheEndAndIsNotARegression() throws Exception {
    SequentialSuite suite = design("{\"blocks\": 40, \"looks\": 8}", 40);
    List<RunRecord> all = records(blocks(40, 1.0, 2));
    // before N it goes on; the first 39 blocks leave it undecided
    List<RunRecord> before = all.stream().filter(r -> r.block().index() < 39).toList();
    assertFalse(SequentialSuite.ended(suite.decide(before)));
    List<SequentialSuite.Result> results = suite.decide(all);
    assertTrue(SequentialSuite.ended(results), results.toString());
    assertEquals(Decision.NO_DIFFERENCE, results.get(0).outcome().decision(), results.get(0).describe());
    assertFalse(SequentialSuite.regression(results));
  }

  @Test
  void aCandidateWhoseJobsFailIsSlowerThanAnyFinishedJob() throws Exception {
    SequentialSuite suite = design("{\"blocks\": 16, \"looks\": [8, 16]}", 16);
    Map<String, double[]> times = blocks(16, 1.0, 3);
    java.util.Arrays.fill(times.get("candidate"), Double.NaN);
    List<SequentialSuite.Result> results = suite.decide(records(times));
    assertEquals(16, results.get(0).failedBlocks());
    assertEquals(Decision.STOP_WORSE, results.get(0).outcome().decision(), results.get(0).describe());
  }

  @Test
  void twoCandidatesShareAlpha() throws Exception {
    JsonNode root = scenario("{\"blocks\": 40, \"looks\": 8, \"alpha\": 0.1}");
    SequentialSuite two = SequentialSuite.ofScenario(root, 40, List.of("reference", "a", "b")).orElseThrow();
    assertEquals(0.05, two.gate().design().alpha(), 1e-12);
    assertTrue(two.describe().contains("Bonferroni"), two.describe());
  }

  @Test
  void theFolderCopyOfTheScenarioDeclaresIt(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve(RecordStore.SCENARIO_COPY), "{\"name\": \"s\", \"reference\": \"reference\","
        + " \"runs\": 24, \"variants\": {\"reference\": {}, \"candidate\": {}},"
        + " \"sequential\": {\"blocks\": 24, \"looks\": 12, \"spending\": \"pocock\"}}");
    SequentialSuite suite = SequentialSuite.of(dir).orElseThrow();
    assertEquals(List.of(12, 24), suite.design().looks());
    assertEquals("Pocock", suite.design().spending().label());
    assertTrue(SequentialSuite.of(dir.resolve("missing")).isEmpty());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{\"blocks\": 40, \"looks\": 8, \"extra\": 1}|sequential.extra",
      "{\"blocks\": 30, \"looks\": 8}|sequential.blocks",
      "{\"blocks\": 40, \"looks\": 4}|sequential.looks",
      "{\"blocks\": 40, \"looks\": [8, 8, 40]}|sequential.looks",
      "{\"blocks\": 40, \"looks\": [8, 16]}|sequential.looks",
      "{\"blocks\": 40, \"looks\": \"8\"}|sequential.looks",
      "{\"blocks\": 40, \"looks\": 8, \"spending\": \"linear\"}|sequential.spending",
      "{\"blocks\": 40, \"looks\": 8, \"alpha\": 1}|sequential.alpha",
      "{\"blocks\": 40, \"looks\": 8, \"maxRegression\": -1}|sequential.maxRegression",
      "{\"blocks\": 40.5, \"looks\": 8}|sequential.blocks",
      "[40]|sequential"})
  void aBadDesignNamesItsField(String sequential, String field) throws Exception {
    SequentialSuite.Invalid e = assertThrows(SequentialSuite.Invalid.class, () -> design(sequential, 40));
    assertEquals(field, e.field(), e.getMessage());
  }

  @Test
  void aDesignNeedsAReference() throws Exception {
    JsonNode root = RecordStore.json().readTree("{\"sequential\": {\"blocks\": 40, \"looks\": 8}}");
    SequentialSuite.Invalid e = assertThrows(SequentialSuite.Invalid.class,
        () -> SequentialSuite.ofScenario(root, 40, VARIANTS));
    assertEquals("reference", e.field());
  }
}
