package faultbed.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.compare.SampleSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The suite gate a user's tests use, on simulated suites (Hadoop's own ApplicationMaster, seconds
 * each): a missing baseline is written and the test aborted, the same suite again passes against
 * it, and the same variant with speculation turned off fails it with the comparison's table.
 */
class SuitesTest {
  private static final Path SCENARIO = Path.of("src/test/resources/stragglers-small.json");
  private static final Path REGRESSED = Path.of("src/test/resources/stragglers-small-regressed.json");

  @TempDir Path dir;

  @Test
  void aBaselineIsWrittenOnPurposeThenGatesTheNextRuns() throws Exception {
    List<String> lines = new ArrayList<>();
    Suites suites = new Suites(dir.resolve("suites"), lines::add);
    Path baseline = dir.resolve("baseline.json");

    Suite first = suites.run(SCENARIO);
    assertEquals(8, first.records().size());
    assertTrue(lines.get(0).contains("8 run(s) in 8 block(s)"), lines.toString());
    TestAbortedException written = assertThrows(TestAbortedException.class, () -> first.assertNoRegressionAgainst(baseline));
    assertTrue(written.getMessage().contains("commit it"), written.getMessage());
    assertEquals(8, SampleSet.read(baseline).variant("policy").orElseThrow().runs().size());

    suites.run(SCENARIO).assertNoRegressionAgainst(baseline); // the same draws, the same policy

    Suite regressed = suites.run(REGRESSED);
    AssertionFailedError worse = assertThrows(AssertionFailedError.class, () -> regressed.assertNoRegressionAgainst(baseline));
    assertTrue(worse.getMessage().contains("slower than the baseline") && worse.getMessage().contains("WORSE"),
        worse.getMessage());
    assertTrue(Files.exists(regressed.dir().resolve(faultbed.results.RecordStore.SCENARIO_COPY)), "the scenario kept beside its records");
  }

  @Test
  void aScenarioFileWithAnErrorFailsWithItsOneLine() throws Exception {
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, Files.readString(SCENARIO).replace("\"nodes\": 40", "\"nodes\": -1"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new Suites(dir, line -> { }).run(bad));
    assertTrue(e.getMessage().contains("cluster.nodes"), e.getMessage());
  }
}
