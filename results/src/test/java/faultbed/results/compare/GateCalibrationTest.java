package faultbed.results.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.stats.GateThresholds;
import faultbed.results.stats.PilotPower;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gate's rates measured on a suite whose truth is known: blocks differ a lot (a 15 % spread, as
 * faults landing at different moments do), runs within a block little (2 %), and b is 10 % slower.
 */
class GateCalibrationTest {
  private static final int BLOCKS = 24;
  private static final PilotPower.Method METHOD = new PilotPower.Method(2000, 100, 100, 1);

  private static SampleSet suite(Path dir) {
    SplittableRandom random = new SplittableRandom(7);
    double[] a = new double[BLOCKS];
    double[] again = new double[BLOCKS];
    double[] b = new double[BLOCKS];
    for (int i = 0; i < BLOCKS; i++) {
      double block = 40 * Math.exp(0.15 * random.nextGaussian());
      a[i] = block * Math.exp(0.02 * random.nextGaussian());
      again[i] = block * Math.exp(0.02 * random.nextGaussian());
      b[i] = 1.10 * block * Math.exp(0.02 * random.nextGaussian());
    }
    Map<String, double[]> seconds = new LinkedHashMap<>();
    seconds.put("a", a);
    seconds.put("a-again", again);
    seconds.put("b", b);
    return SampleSet.read(BlockedSuite.write(dir, seconds));
  }

  private static GateCalibration calibrate(SampleSet suite) {
    return GateCalibration.of(suite, "a", "a-again", "b", List.of(6, 12), List.of(1.05, 1.10),
        new GateThresholds(0.1, 0), METHOD, 30);
  }

  @Test
  void pairingSeesWhatIndependentRunsCannotAndFalseAlarmsStayAtTheLevel(@TempDir Path tmp) {
    GateCalibration c = calibrate(suite(tmp));
    assertEquals(BLOCKS, c.blocks());
    GateCalibration.Row twelve = c.rows().get(1);
    // one-sided in effect: a two-sided 0.1 flags the slower side only, about 5 % of A/A suites
    assertTrue(twelve.falseAlarms().paired().point() > 0.02 && twelve.falseAlarms().paired().point() < 0.08, c.table());
    assertTrue(twelve.falseAlarms().unpaired() < 0.08, c.table());
    // a known 5 % slowdown under 2 % within-block noise: paired blocks see it, independent runs hardly
    assertTrue(twelve.detectedShift().get(0).paired().point() > 0.9, c.table());
    assertTrue(twelve.detectedShift().get(0).paired().interval().low() > 0.7, c.table());
    assertTrue(twelve.detectedShift().get(0).unpaired() < 0.4, c.table());
    assertTrue(twelve.detectedChanged()[0] > 0.9, c.table());
    assertTrue(c.rows().get(0).detectedShift().get(1).unpaired() < twelve.detectedShift().get(1).unpaired(), c.table());
    // 24 pilot blocks: no size asked for is an extrapolation
    assertFalse(c.table().contains("*"), c.table());
    assertTrue(c.changedOnWholeSuite().shift().ratio() > 1.07 && c.changedOnWholeSuite().shift().ratio() < 1.13,
        c.table());
    assertEquals(12, c.minutes(12), 1e-9);
  }

  @Test
  void theSameSuiteGivesTheSameFigures(@TempDir Path tmp) {
    SampleSet s = suite(tmp);
    assertEquals(calibrate(s).table(), calibrate(s).table());
    // and a size asked for alone gives the row it has among other sizes
    GateCalibration alone = GateCalibration.of(s, "a", "a-again", "b", List.of(12), List.of(1.05, 1.10),
        new GateThresholds(0.1, 0), METHOD, 30);
    GateCalibration.Row inTable = calibrate(s).rows().get(1);
    assertEquals(inTable.falseAlarms(), alone.rows().get(0).falseAlarms());
    assertEquals(inTable.detectedShift(), alone.rows().get(0).detectedShift());
    assertEquals(java.util.Arrays.toString(inTable.detectedChanged()), java.util.Arrays.toString(alone.rows().get(0).detectedChanged()));
  }

  @Test
  void aSuiteLargerThanThePilotIsFlaggedAsAnExtrapolation(@TempDir Path tmp) {
    GateCalibration c = GateCalibration.of(suite(tmp), "a", "a-again", null, List.of(24, 32), List.of(1.05),
        new GateThresholds(0.1, 0), new PilotPower.Method(200, 20, 50, 1), 30);
    assertFalse(c.rows().get(0).falseAlarms().paired().extrapolated());
    assertTrue(c.rows().get(1).falseAlarms().paired().extrapolated());
    assertTrue(c.table().lines().anyMatch(l -> l.startsWith("   32* ")), c.table());
    assertTrue(c.table().contains("more blocks than the pilot's 24, an extrapolation: a suite of 32 drawn from them"
        + " holds about 17.9 distinct blocks"), c.table());
  }

  @Test
  void refusesVariantsNotInBlocks(@TempDir Path tmp) {
    RecordStoreHelper.unblocked(tmp);
    SampleSet s = SampleSet.read(tmp);
    SampleSet.InvalidSampleSource e = assertThrows(SampleSet.InvalidSampleSource.class,
        () -> GateCalibration.of(s, "a", "a-again", null, List.of(4), List.of(1.05), new GateThresholds(0.1, 0),
            METHOD, Double.NaN));
    assertTrue(e.getMessage().contains("variant a: expected runs in blocks"), e.getMessage());
  }
}
