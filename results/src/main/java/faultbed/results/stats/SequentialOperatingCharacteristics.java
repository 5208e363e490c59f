package faultbed.results.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How a {@link SequentialGate} would behave on suites like a pilot's: its false alarms, its power
 * against a slowdown, and what it costs in blocks, expected and at most. What 'faultbed plan' prints
 * for a sequential design.
 *
 * <p>As {@link PilotPower} draws suites: a drawn suite is N of the pilot's per-block log ratios drawn
 * with replacement, with the pilot's own difference (its Hodges-Lehmann estimate) taken out and
 * each drawn block's sign flipped with chance 1/2 (the two runs of a block swapping roles), so it
 * holds the pilot's noise and nothing else: the null. The same suite with ln(ratio) added to every
 * block is the slowdown. A block drawn twice would tie ranks, which the exact test cannot take, so
 * each drawn ratio gets a jitter of 1e-6. Every suite also goes through the fixed gate, one test of
 * all N blocks at alpha, so the price of stopping early is read off the same draws.
 *
 * <p>A pilot of few blocks says little: the figures are for suites made of its blocks only, and a
 * suite of more blocks than the pilot has re-uses them (see {@link PilotPower.Estimate}). So each
 * WORSE share comes with a 90 % interval as {@link PilotPower} gives one: the pilot's blocks are
 * re-drawn with replacement, the share is recomputed on each re-drawn pilot, and the 5th and 95th
 * percentiles bound it.
 *
 * @param pilotBlocks blocks in the pilot
 * @param ratio the slowdown the power is for (1.10: 10 % slower)
 * @param suites suites drawn
 * @param underNull the pilot's noise alone: its WORSE share is the false-alarm rate
 * @param atRatio the same suites slower by the ratio: its WORSE share is the power
 */
public record SequentialOperatingCharacteristics(SequentialGate gate, int pilotBlocks, double ratio, int suites,
    long seed, Scenario underNull, Scenario atRatio) {

  private static final double JITTER = 1e-6;

  /**
   * What the gate did over the drawn suites of one scenario.
   *
   * @param worse share that ended WORSE
   * @param better share that ended BETTER
   * @param expectedBlocks mean blocks run before the suite ended
   * @param maximumBlocks the most any suite can run: N
   * @param endedAtLook share that ended at each look, in order (the last look takes the rest)
   * @param fixedWorse share of the same suites, all N blocks tested once at alpha, that end WORSE
   * @param worseInterval the WORSE share's 5th to 95th percentile over re-drawn pilots
   */
  public record Scenario(double worse, double better, double expectedBlocks, int maximumBlocks,
      List<Double> endedAtLook, double fixedWorse, Interval worseInterval) {
    public Scenario {
      endedAtLook = List.copyOf(endedAtLook);
    }
  }

  /** With {@link PilotPower.Method#DEFAULT}: the method 'plan' and 'calibrate' use for fixed sizes. */
  public static SequentialOperatingCharacteristics simulate(SequentialGate gate, double[] pilotLogRatios,
      double ratio) {
    return simulate(gate, pilotLogRatios, ratio, PilotPower.Method.DEFAULT);
  }

  /** {@code suites} drawn for the point figures; the interval from 20 re-drawn pilots of a tenth as many each. */
  public static SequentialOperatingCharacteristics simulate(SequentialGate gate, double[] pilotLogRatios,
      double ratio, int suites, long seed) {
    return simulate(gate, pilotLogRatios, ratio, new PilotPower.Method(suites, 20, Math.max(1, suites / 10), seed));
  }

  /**
   * @param pilotLogRatios ln(candidate time / reference time) of each pilot block, at least 2
   * @param ratio the slowdown for the power, above 0
   */
  public static SequentialOperatingCharacteristics simulate(SequentialGate gate, double[] pilotLogRatios,
      double ratio, PilotPower.Method method) {
    int suites = method.suites();
    long seed = method.seed();
    if (pilotLogRatios.length < 2 || !Arrays.stream(pilotLogRatios).allMatch(Double::isFinite)) {
      throw new IllegalArgumentException("pilot log ratios: expected at least 2 finite numbers, got "
          + Arrays.toString(pilotLogRatios));
    }
    if (!(ratio > 0) || Double.isInfinite(ratio)) {
      throw new IllegalArgumentException("ratio: expected a slowdown above 0, got " + ratio);
    }
    double own = Math.log(Shift.paired(pilotLogRatios, 0.95).ratio());
    double[] noise = Arrays.stream(pilotLogRatios).map(d -> d - own).toArray();
    double shift = Math.log(ratio);
    SplittableRandom pointRandom = new SplittableRandom(seed); // as before the interval: the same point figures
    SplittableRandom redrawRandom = new SplittableRandom(seed).split();
    Tally[] point = tallies(gate, noise, shift, suites, pointRandom);
    double[] nullWorse = new double[method.redraws()];
    double[] ratioWorse = new double[method.redraws()];
    double[] redrawn = new double[noise.length];
    for (int r = 0; r < method.redraws(); r++) {
      for (int i = 0; i < redrawn.length; i++) {
        redrawn[i] = noise[redrawRandom.nextInt(noise.length)];
      }
      Tally[] t = tallies(gate, redrawn, shift, method.suitesPerRedraw(), redrawRandom);
      nullWorse[r] = t[0].worse / (double) method.suitesPerRedraw();
      ratioWorse[r] = t[1].worse / (double) method.suitesPerRedraw();
    }
    int n = gate.design().maxBlocks();
    return new SequentialOperatingCharacteristics(gate, pilotLogRatios.length, ratio, suites, seed,
        point[0].scenario(suites, n, interval(nullWorse)), point[1].scenario(suites, n, interval(ratioWorse)));
  }

  /** The no-difference and the slowed tallies over {@code suites} suites drawn from {@code noise}. */
  private static Tally[] tallies(SequentialGate gate, double[] noise, double shift, int suites,
      SplittableRandom random) {
    SequentialGate fixed = gate.fixed();
    int n = gate.design().maxBlocks();
    Tally nullTally = new Tally(gate.design().looks().size());
    Tally ratioTally = new Tally(gate.design().looks().size());
    double[] drawnNull = new double[n];
    double[] drawnSlower = new double[n];
    for (int s = 0; s < suites; s++) {
      for (int i = 0; i < n; i++) {
        double d = noise[random.nextInt(noise.length)];
        drawnNull[i] = (random.nextBoolean() ? d : -d) + JITTER * random.nextGaussian();
        drawnSlower[i] = drawnNull[i] + shift;
      }
      nullTally.add(gate.decide(drawnNull), fixed.decide(drawnNull));
      ratioTally.add(gate.decide(drawnSlower), fixed.decide(drawnSlower));
    }
    return new Tally[] {nullTally, ratioTally};
  }

  private static Interval interval(double[] shares) {
    double tail = (1 - PilotPower.Method.LEVEL) / 2 * 100;
    return new Interval(faultbed.results.Distribution.quantile(shares, tail),
        faultbed.results.Distribution.quantile(shares, 100 - tail));
  }

  /** Counts over the suites of one scenario. */
  private static final class Tally {
    private final int[] endedAtLook;
    private int worse;
    private int better;
    private long blocks;
    private int fixedWorse;

    Tally(int looks) {
      endedAtLook = new int[looks];
    }

    void add(SequentialGate.Outcome sequential, SequentialGate.Outcome fixed) {
      endedAtLook[sequential.looks().size() - 1]++;
      blocks += sequential.blocks();
      worse += sequential.decision() == SequentialGate.Decision.STOP_WORSE ? 1 : 0;
      better += sequential.decision() == SequentialGate.Decision.STOP_BETTER ? 1 : 0;
      fixedWorse += fixed.decision() == SequentialGate.Decision.STOP_WORSE ? 1 : 0;
    }

    Scenario scenario(int suites, int maxBlocks, Interval worseInterval) {
      List<Double> shares = new ArrayList<>();
      for (int count : endedAtLook) {
        shares.add(count / (double) suites);
      }
      return new Scenario(worse / (double) suites, better / (double) suites, blocks / (double) suites, maxBlocks,
          shares, fixedWorse / (double) suites, worseInterval);
    }
  }

  /** The figures as 'faultbed plan' would print them. */
  public String describe() {
    return String.format(Locale.ROOT, "%d suites drawn from the pilot's %d blocks (own difference taken out, signs"
        + " flipped at random), seed %d; [5%%, 95%%]: the same over re-draws of the pilot's blocks%n%s%n%s%n", suites,
        pilotBlocks, seed, line("no difference", underNull, true), line(Format.ratio(ratio), atRatio, false));
  }

  private static String line(String label, Scenario s, boolean falseAlarm) {
    return String.format(Locale.ROOT, "  %s: WORSE in %.3f [%.3f, %.3f] of suites%s (fixed %d blocks: %.3f), blocks"
        + " expected %.1f, at most %d", label, s.worse(), s.worseInterval().low(), s.worseInterval().high(),
        falseAlarm ? " (false alarms)" : "", s.maximumBlocks(), s.fixedWorse(), s.expectedBlocks(), s.maximumBlocks());
  }
}
