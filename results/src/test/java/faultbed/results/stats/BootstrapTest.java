package faultbed.results.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.function.DoubleSupplier;
import java.util.function.ToDoubleFunction;
import java.util.SplittableRandom;
import org.apache.commons.statistics.distribution.ContinuousDistribution;
import org.apache.commons.statistics.distribution.LogNormalDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;

class BootstrapTest {
  private static final int SAMPLES = 400;
  private static final int SAMPLE_SIZE = 40;

  private static ContinuousDistribution.Sampler sampler(ContinuousDistribution d, long seed) {
    return d.createSampler(new SplittableRandom(seed)::nextLong);
  }

  /** Share of SAMPLES synthetic samples whose interval holds the true value. */
  private static double coverage(DoubleSupplier draw, ToDoubleFunction<double[]> statistic, double truth) {
    int covered = 0;
    for (int s = 0; s < SAMPLES; s++) {
      double[] sample = new double[SAMPLE_SIZE];
      for (int i = 0; i < sample.length; i++) {
        sample[i] = draw.getAsDouble();
      }
      if (new Bootstrap(2000, 0.95, s).interval(sample, statistic).contains(truth)) {
        covered++;
      }
    }
    return covered / (double) SAMPLES;
  }

  @Test
  void medianIntervalCoversTheTrueMedianNearlyNinetyFivePercentOfTheTimeForNormalSamples() {
    ContinuousDistribution.Sampler normal = sampler(NormalDistribution.of(45, 5), 11);
    double c = coverage(normal::sample, Bootstrap::median, 45);
    assertTrue(c >= 0.92 && c <= 0.98, "coverage " + c);
  }

  @Test
  void medianIntervalCoversTheTrueMedianNearlyNinetyFivePercentOfTheTimeForLognormalSamples() {
    // job times are skewed: log-normal with median e^3.8 = 44.7 s and a long right tail
    ContinuousDistribution.Sampler lognormal = sampler(LogNormalDistribution.of(3.8, 0.4), 12);
    double c = coverage(lognormal::sample, Bootstrap::median, Math.exp(3.8));
    assertTrue(c >= 0.92 && c <= 0.98, "coverage " + c);
  }

  @Test
  void sameSeedSameInterval() {
    double[] x = sampler(NormalDistribution.of(45, 5), 3).samples(25).toArray();
    assertEquals(Bootstrap.DEFAULT.interval(x, Bootstrap::median), Bootstrap.DEFAULT.interval(x, Bootstrap::median));
    ToDoubleFunction<double[]> mean = v -> Arrays.stream(v).average().orElseThrow();
    assertNotEquals(new Bootstrap(2000, 0.95, 1).interval(x, mean), new Bootstrap(2000, 0.95, 2).interval(x, mean),
        "the seed drives the resampling");
  }

  @Test
  void intervalOfOneValueIsThatValueAndOfNoValuesUnknown() {
    assertEquals(new Interval(7, 7), Bootstrap.DEFAULT.interval(new double[] {7}, Bootstrap::median));
    assertTrue(Double.isNaN(Bootstrap.DEFAULT.interval(new double[0], Bootstrap::median).low()));
  }

  @Test
  void ratioIntervalOfAScaledSampleHoldsTheScale() {
    double[] base = {40, 42, 43, 44, 45, 46, 47, 48, 50, 53};
    double[] slower = new double[base.length];
    for (int i = 0; i < base.length; i++) {
      slower[i] = base[i] * 1.2;
    }
    Interval ratio = Bootstrap.DEFAULT.ratio(base, slower, Bootstrap::median);
    assertTrue(ratio.contains(1.2) && ratio.low() > 1.05, ratio.toString());
    Interval diff = Bootstrap.DEFAULT.difference(base, slower, Bootstrap::median);
    assertTrue(diff.contains(0.2 * 45.5) && diff.low() > 0, diff.toString());
  }
}
