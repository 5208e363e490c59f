package faultbed.junit;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.SuiteSummary;
import faultbed.results.compare.BaselineFile;
import faultbed.results.compare.SampleSet;
import faultbed.results.compare.SuiteComparison;
import faultbed.results.stats.Analysis;
import faultbed.results.stats.GateThresholds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * A suite a test ran: its records folder (which {@code faultbed report}, {@code classify} and
 * {@code compare} read as any other) and its summary, with the gates {@code faultbed compare} applies.
 */
public record Suite(Path dir, SuiteSummary summary) {
  /**
   * The system property that turns {@link #assertNoRegressionAgainst} into writing the baseline:
   * {@code mvn test -Dfaultbed.updateBaselines=true} accepts a change on purpose.
   */
  public static final String UPDATE_BASELINES = "faultbed.updateBaselines";

  public List<RunRecord> records() {
    return new RecordStore(dir).readAll();
  }

  /**
   * Every variant this suite and the baseline file have in common, compared as {@code faultbed
   * compare BASELINE DIR} does at {@code thresholds} (exact tests, Holm-adjusted across variants).
   */
  public SuiteComparison compareWith(Path baselineFile, GateThresholds thresholds) {
    return SuiteComparison.of(SampleSet.read(baselineFile), SampleSet.read(dir), null, null,
        Analysis.DEFAULT.withThresholds(thresholds));
  }

  /**
   * Fails when a variant is significantly slower than in the committed baseline file (at alpha 0.05,
   * any slow-down; {@link #assertNoRegressionAgainst(Path, GateThresholds)} sets both), with the
   * comparison's table as the message. With {@value #UPDATE_BASELINES}=true, or no baseline file
   * yet, it writes this suite as the baseline instead and aborts the test, saying so: a baseline is
   * accepted on purpose, never by a passing test.
   */
  public void assertNoRegressionAgainst(Path baselineFile) {
    assertNoRegressionAgainst(baselineFile, new GateThresholds(0.05, 0));
  }

  public void assertNoRegressionAgainst(Path baselineFile, GateThresholds thresholds) {
    if (Boolean.getBoolean(UPDATE_BASELINES) || !Files.exists(baselineFile)) {
      BaselineFile.of(SampleSet.read(dir)).write(baselineFile);
      throw new TestAbortedException("wrote the baseline " + baselineFile + " from " + dir
          + ": commit it; the next run is gated against it");
    }
    SuiteComparison comparison = compareWith(baselineFile, thresholds);
    if (comparison.regression()) {
      throw new AssertionFailedError("slower than the baseline " + baselineFile + " (records: " + dir + ")\n"
          + comparison.table());
    }
  }

  /**
   * Fails when a variant of this suite is significantly slower than its {@code reference} variant,
   * pair by pair within blocks, as {@code faultbed compare DIR --all-against reference} does.
   */
  public void assertNoVariantWorseThan(String reference, GateThresholds thresholds) {
    SampleSet self = SampleSet.read(dir);
    SuiteComparison comparison = SuiteComparison.allAgainst(self, reference, self,
        Analysis.DEFAULT.withThresholds(thresholds));
    if (comparison.regression()) {
      throw new AssertionFailedError("slower than " + reference + " (records: " + dir + ")\n" + comparison.table());
    }
  }
}
