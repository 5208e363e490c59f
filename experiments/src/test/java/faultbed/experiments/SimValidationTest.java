package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RecordStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The published validation of the sim backend (experiments/published/sim-validation) is what
 * 'faultbed sim-validate' gives today: re-run on one of its suites, its rows come out the same.
 */
class SimValidationTest {
  private static final Path PUBLISHED = Path.of("published", "sim-validation", "validation.json");
  private static final String SUITE = "samr-long-maps";

  /** The failure-detection suite: crashes and freezes, the reducers' fetch failures, every setting its own. */
  @Test
  void theFailureDetectionSuitesRowsAreReproduced(@TempDir Path dir) throws Exception {
    String suite = "dinu-ng-thresholds";
    ScenarioValidationTest.Result r = ScenarioValidationTest.cli("sim-validate", "published/" + suite,
        "--machine-cores", "2", "--progress-from", "published/progress-profile", "--out", dir.toString());
    assertTrue(r.code() <= 1, r.out() + r.err());
    SimValidation.Result fresh = RecordStore.json().readValue(dir.resolve("validation.json").toFile(),
        SimValidation.Result.class);
    SimValidation.Result published = RecordStore.json().readValue(PUBLISHED.toFile(), SimValidation.Result.class);
    assertEquals(published.variants().stream().filter(v -> v.suite().equals(suite)).toList(), fresh.variants());
    assertEquals(published.comparisons().stream().filter(c -> c.suite().equals(suite)).toList(), fresh.comparisons());
    // the negative control runs every variant with the reference's settings: its crash variants differ from
    // the reference only in where their real runs' AM and crash were, which moves them by under 2 %
    assertTrue(fresh.comparisons().stream().filter(c -> c.negativeControl() && c.variant().endsWith("-crash"))
        .allMatch(c -> Math.abs(Math.log(c.simulatedRatio())) < 0.02), fresh.comparisons().toString());
  }

  @Test
  void aPublishedSuitesRowsAreReproduced(@TempDir Path dir) throws Exception {
    ScenarioValidationTest.Result r = ScenarioValidationTest.cli("sim-validate", "published/" + SUITE,
        "--machine-cores", "2", "--progress-from", "published/progress-profile", "--out", dir.toString());
    assertTrue(r.code() <= 1, r.out() + r.err());
    assertTrue(r.out().contains("negative control:"), r.out());
    SimValidation.Result fresh = RecordStore.json().readValue(dir.resolve("validation.json").toFile(),
        SimValidation.Result.class);
    SimValidation.Result published = RecordStore.json().readValue(PUBLISHED.toFile(), SimValidation.Result.class);
    List<SimValidation.VariantRow> publishedRows = published.variants().stream()
        .filter(v -> v.suite().equals(SUITE)).toList();
    assertFalse(publishedRows.isEmpty());
    assertEquals(publishedRows, fresh.variants());
    assertEquals(published.comparisons().stream().filter(c -> c.suite().equals(SUITE)).toList(), fresh.comparisons());
    // the negative control ran: its variants all speculate as the reference, so its ratios sit near 1
    assertTrue(fresh.comparisons().stream().filter(SimValidation.ComparisonRow::negativeControl)
        .allMatch(c -> Math.abs(Math.log(c.simulatedRatio())) < 0.1), fresh.comparisons().toString());
  }
}
