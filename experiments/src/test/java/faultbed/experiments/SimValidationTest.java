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
    SimValidation.Result fresh = reproduced(dir, suite);
    assertEquals(published().groups().stream().filter(g -> g.suite().equals(suite)).toList(), fresh.groups());
    // every variant's runs, real and simulated, sorted into groups: five a side, G1 and G2 as one
    List<SimValidation.GroupRow> simulated = fresh.groups().stream().filter(g -> !g.negativeControl()).toList();
    assertEquals(16, simulated.size(), simulated.toString());
    for (SimValidation.GroupRow g : simulated) {
      assertEquals(5, g.real().values().stream().mapToInt(Integer::intValue).sum(), g.toString());
      assertEquals(5, g.simulated().values().stream().mapToInt(Integer::intValue).sum(), g.toString());
      assertFalse(g.real().containsKey("G1") || g.simulated().containsKey("G2"), g.toString());
    }
    // the 8 s freezes under the default timeouts lose no output, in both: no run recovers by reports or expiry
    SimValidation.GroupRow freeze = simulated.stream().filter(g -> g.variant().equals("defaults-freeze")).findFirst()
        .orElseThrow();
    assertEquals(java.util.Map.of("G6", 5), freeze.real());
    assertTrue(freeze.simulated().keySet().stream().allMatch(k -> k.equals("G6") || k.equals("G7")
        || k.equals("unclassified")), freeze.toString());
    // the simulated crashes' reducers report what they could not fetch, as the real ones' logs do
    assertTrue(simulated.stream().filter(g -> g.variant().equals("notify-1-crash")).findFirst().orElseThrow()
        .simulated().containsKey("G5"), simulated.toString());
    // the negative control runs every variant with the reference's settings: its crash variants differ from
    // the reference only in where their real runs' AM and crash were, when their liveness checks ran and
    // how long their set-up took, which moves them by under 5 %
    assertTrue(fresh.comparisons().stream().filter(c -> c.negativeControl() && c.variant().endsWith("-crash"))
        .allMatch(c -> Math.abs(Math.log(c.simulatedRatio())) < 0.05), fresh.comparisons().toString());
  }

  /**
   * A simulation right but for chance: its medians would still miss by 10 % where the real runs spread
   * widely, so the criterion is read against what such a simulation scores.
   */
  @Test
  void thePerfectSimulationsScoreFollowsTheRealRunsSpread() {
    double[] tight = {30.0, 30.2, 29.9, 30.1, 30.3, 29.8, 30.0, 30.1};
    double[] split = {30, 31, 30, 60, 61, 30, 62, 59};
    assertEquals(1.0, SimValidation.perfectWithinChance(tight, "tight"));
    double coinToss = SimValidation.perfectWithinChance(split, "split");
    assertTrue(coinToss > 0.2 && coinToss < 0.8, "chance " + coinToss);
    // reproducible: the resamples are drawn from a seed of the suite and variant
    assertEquals(coinToss, SimValidation.perfectWithinChance(split, "split"));
    List<SimValidation.VariantRow> rows = List.of(row(0.0, 1.0), row(3.0, 1.0), row(40.0, 0.5), row(-2.0, 0.5),
        row(1.0, 1.0));
    SimValidation.Ceiling c = SimValidation.ceiling(rows);
    assertEquals(0.8, c.expectedShare(), 1e-12);
    // 4 of 5 needed: the three sure ones and at least one of the two coin tosses
    assertEquals(0.75, c.chanceToMeetCriterion(), 1e-12);
    // the simulation placed 4 within 10 %: at most 4 has chance 1 - 0.25
    assertEquals(0.75, c.chanceOfObservedOrLower(), 1e-12);
  }

  private static SimValidation.VariantRow row(double errorPercent, double perfectChance) {
    return new SimValidation.VariantRow("s", "v", 8, 8, 30, 30 * (1 + errorPercent / 100), errorPercent, 33, 33, 0,
        perfectChance, false);
  }

  /**
   * The capped links suite: fitted to its fault-free and capped variants' untouched attempts, the
   * simulation gives the cap's cost from the cap's rate and what a Sort map's output weighs (the
   * shuffle-bytes profile): two 1 MB/s nodes of four make the job about 2.6 times longer.
   */
  @Test
  void theCappedLinksSuitesRowsAreReproducedAndTheCapsCostIsInsideTheRealInterval(@TempDir Path dir)
      throws Exception {
    SimValidation.Result fresh = reproduced(dir, "network-heterogeneity-sort", "--shuffle-bytes-from",
        "published/shuffle-bytes");
    SimValidation.ComparisonRow uncapped = fresh.comparisons().stream()
        .filter(c -> !c.negativeControl() && c.variant().equals("one-class")).findFirst().orElseThrow();
    assertTrue(uncapped.inside() && uncapped.simulatedRatio() < 0.45, uncapped.toString());
  }

  /**
   * Runs 'faultbed sim-validate' on one published suite (with {@code more} options) and checks its
   * variant and comparison rows are the published ones; returns what it wrote.
   */
  private static SimValidation.Result reproduced(Path dir, String suite, String... more) throws Exception {
    return reproduced(dir, PUBLISHED, suite, more);
  }

  /** The same against the rows of {@code publishedFile}. */
  private static SimValidation.Result reproduced(Path dir, Path publishedFile, String suite, String... more)
      throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of("sim-validate", "published/" + suite, "--machine-cores", "2",
        "--progress-from", "published/progress-profile", "--out", dir.toString()));
    args.addAll(List.of(more));
    ScenarioValidationTest.Result r = ScenarioValidationTest.cli(args.toArray(String[]::new));
    assertTrue(r.code() <= 1, r.out() + r.err());
    assertTrue(r.out().contains("negative control:"), r.out());
    SimValidation.Result fresh = RecordStore.json().readValue(dir.resolve("validation.json").toFile(),
        SimValidation.Result.class);
    SimValidation.Result published = published(publishedFile);
    List<SimValidation.VariantRow> publishedRows = published.variants().stream()
        .filter(v -> v.suite().equals(suite)).toList();
    assertFalse(publishedRows.isEmpty());
    assertEquals(publishedRows, fresh.variants());
    assertEquals(published.comparisons().stream().filter(c -> c.suite().equals(suite)).toList(),
        fresh.comparisons());
    return fresh;
  }

  private static SimValidation.Result published() throws Exception {
    return published(PUBLISHED);
  }

  private static SimValidation.Result published(Path file) throws Exception {
    return RecordStore.json().readValue(file.toFile(), SimValidation.Result.class);
  }

  /**
   * The disk model's judgement (docs/simulation.md, "A disk's rate, judged"): the model fitted to
   * fail-slow's reference with the heterogeneous disks' bytes is the published one, and it predicts
   * heterogeneous-disks as published.
   */
  @Test
  void theDiskModelsJudgementIsReproduced(@TempDir Path dir) throws Exception {
    Path disks = Path.of("published", "sim-validation", "disks");
    List<faultbed.results.RunRecord> crash = new RecordStore(Path.of("published", "fail-slow")).readAll().stream()
        .filter(r -> r.variant().equals("crash")).toList();
    faultbed.harness.timemodel.TimeModel fitted = faultbed.harness.timemodel.TimeModel.fit("fail-slow-crash", crash,
        new RecordStore(Path.of("published", "progress-profile")).readAll(), List.of(),
        new RecordStore(Path.of("published", "heterogeneous-disks")).readAll(),
        faultbed.harness.timemodel.Machines.shared(2));
    Path model = disks.resolve("fail-slow").resolve("model.json");
    assertEquals(faultbed.harness.timemodel.TimeModel.read(model), fitted);
    reproduced(dir, disks.resolve("heterogeneous-disks").resolve("validation.json"), "heterogeneous-disks",
        "--model", model.toString());
  }

  @Test
  void aPublishedSuitesRowsAreReproduced(@TempDir Path dir) throws Exception {
    SimValidation.Result fresh = reproduced(dir, SUITE);
    // the negative control ran: its variants all speculate as the reference, so its ratios sit near 1
    assertTrue(fresh.comparisons().stream().filter(SimValidation.ComparisonRow::negativeControl)
        .allMatch(c -> Math.abs(Math.log(c.simulatedRatio())) < 0.1), fresh.comparisons().toString());
  }
}
