package faultbed.results.compare;

import faultbed.results.stats.Analysis;
import faultbed.results.stats.Bootstrap;
import faultbed.results.stats.Comparison;
import faultbed.results.stats.Format;
import faultbed.results.stats.GateThresholds;
import faultbed.results.stats.PilotPower;
import faultbed.results.stats.PowerSimulation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * How often the gate ('faultbed compare' with given thresholds) says WORSE, measured on real runs:
 * suites of n blocks are drawn with replacement from the blocks of a recorded suite that ran the
 * reference variant twice ({@code reference} and {@code same}: an A/A pair) and, optionally, a
 * variant with a known difference ({@code changed}). Each drawn suite goes through the gate's own
 * code ({@link SuiteComparison}), so what is measured is the gate, not a model of it:
 *
 * <ul>
 *   <li>false alarms: reference against same, which differ by nothing but noise;
 *   <li>detection of a known slowdown: reference against same with every time multiplied by the
 *       ratio (the real A/A noise, an exactly known effect);
 *   <li>detection of the changed variant: a real difference, whose size the whole suite estimates.
 * </ul>
 *
 * Each is measured twice: with the drawn runs paired by block, as the gate sees an interleaved suite,
 * and with the same runs as independent samples, as it sees runs recorded apart (a stored baseline).
 * Paired false alarms and known slowdowns are {@link PilotPower}'s, the method 'faultbed plan'
 * shares, with an interval from re-drawing the pilot's blocks: a pilot of few blocks says little.
 * Within each drawn block the reference's and the same variant's runs swap sides half the time:
 * they are exchangeable (same settings, order shuffled in the block), so this draws from the null
 * hypothesis itself rather than from whatever difference the recorded blocks happened to show.
 * A block drawn twice would tie ranks, which the exact tests cannot take; those ties are broken at
 * random by a relative jitter of 1e-6, far below the times' resolution.
 *
 * @param blocks complete blocks drawn from (every variant used ran there)
 * @param secondsPerRun median time between the starts of consecutive runs in the recorded suite,
 *     cluster reset included (NaN when unknown)
 */
public record GateCalibration(String source, String reference, String same, String changed,
    GateThresholds thresholds, PilotPower.Method method, int blocks, double secondsPerRun,
    List<Double> shifts, Comparison changedOnWholeSuite, List<Row> rows) {

  /** A rate of the gate's WORSE verdicts: paired by block with its interval, and as independent runs. */
  public record Rate(PilotPower.Estimate paired, double unpaired) {}

  /**
   * Rates at one suite size.
   *
   * @param detectedShift per shift in {@link #shifts()}
   * @param detectedChanged {paired, unpaired}, or null without a changed variant
   */
  public record Row(int blocks, Rate falseAlarms, List<Rate> detectedShift, double[] detectedChanged) {}

  public GateCalibration {
    shifts = List.copyOf(shifts);
    rows = List.copyOf(rows);
  }

  // Only the verdict of each drawn comparison is read: its intervals and power line are not worth
  // 2000 resamples and 1000 simulations each, so they get one.
  private static Analysis verdictOnly(GateThresholds thresholds, long seed) {
    return new Analysis(thresholds, new Bootstrap(1, 0.95, seed), new PowerSimulation(1, seed), 1, 1);
  }

  /**
   * @param changed the variant with a known difference, or null
   * @param sizes suite sizes in blocks
   * @param shifts known slowdowns as ratios (1.05: 5 % slower)
   * @param method the power method; its suite count is also the draws of the unpaired and changed rates
   * @throws SampleSet.InvalidSampleSource when a variant is missing or did not run in blocks
   */
  public static GateCalibration of(SampleSet suite, String reference, String same, String changed,
      List<Integer> sizes, List<Double> shifts, GateThresholds thresholds, PilotPower.Method method,
      double secondsPerRun) {
    int draws = method.suites();
    long seed = method.seed();
    List<String> names = new ArrayList<>(List.of(reference, same));
    if (changed != null) {
      names.add(changed);
    }
    List<Map<Integer, Double>> byBlock = new ArrayList<>();
    for (String name : names) {
      VariantSample v = suite.variant(name).orElseThrow(() -> new SampleSet.InvalidSampleSource(
          "expected a variant " + name + ", got " + suite.variantNames()));
      if (!v.blocked()) {
        throw new SampleSet.InvalidSampleSource("variant " + name + ": expected runs in blocks, got runs without");
      }
      Map<Integer, Double> times = new TreeMap<>();
      // a failed job keeps its block with no time: the gate's failure test sees it
      v.runs().forEach(r -> times.put(r.block(), r.seconds() == null ? Double.NaN : r.seconds()));
      byBlock.add(times);
    }
    List<Integer> complete = byBlock.get(0).keySet().stream()
        .filter(b -> byBlock.stream().allMatch(m -> m.containsKey(b))).toList();
    if (complete.size() < 2) {
      throw new SampleSet.InvalidSampleSource("expected at least 2 blocks in which " + names
          + " all ran, got " + complete.size());
    }
    double[][] table = new double[names.size()][complete.size()];
    for (int v = 0; v < names.size(); v++) {
      for (int b = 0; b < complete.size(); b++) {
        table[v][b] = byBlock.get(v).get(complete.get(b));
      }
    }
    PilotPower pilot = PilotPower.paired(successful(table[0], table[0], table[1]),
        successful(table[1], table[0], table[1]));
    Analysis analysis = verdictOnly(thresholds, seed);
    Path origin = suite.origin() != null ? suite.origin() : Path.of(suite.source());
    List<Row> rows = new ArrayList<>();
    for (int n : sizes) {
      // a stream per size, so a row is the same whichever other sizes are asked for
      SplittableRandom random = new SplittableRandom(seed + n);
      int[] falseAlarms = new int[2];
      int[][] shifted = new int[shifts.size()][2];
      int[] changedHits = new int[2];
      for (int d = 0; d < draws; d++) {
        int[] drawn = random.ints(n, 0, complete.size()).toArray();
        double[][] times = new double[names.size()][n];
        for (int v = 0; v < names.size(); v++) {
          for (int i = 0; i < n; i++) {
            times[v][i] = table[v][drawn[i]] * Math.exp(1e-6 * random.nextGaussian());
          }
        }
        for (int i = 0; i < n; i++) {
          if (random.nextBoolean()) {
            double t = times[0][i];
            times[0][i] = times[1][i];
            times[1][i] = t;
          }
        }
        // paired, the A/A pair and its known slowdowns are the pilot's power below
        falseAlarms[1] += worse(origin, reference, times[0], same, times[1], false, analysis);
        for (int s = 0; s < shifts.size(); s++) {
          double ratio = shifts.get(s);
          double[] slower = Arrays.stream(times[1]).map(t -> t * ratio).toArray();
          shifted[s][1] += worse(origin, reference, times[0], same, slower, false, analysis);
        }
        for (int p = 0; changed != null && p < 2; p++) {
          changedHits[p] += worse(origin, reference, times[0], changed, times[2], p == 0, analysis);
        }
      }
      List<Rate> detected = new ArrayList<>();
      for (int s = 0; s < shifts.size(); s++) {
        detected.add(new Rate(pilot.estimate(n, shifts.get(s), thresholds, method), shifted[s][1] / (double) draws));
      }
      rows.add(new Row(n, new Rate(pilot.estimate(n, 1, thresholds, method), falseAlarms[1] / (double) draws),
          detected, changed == null ? null : rates(changedHits, draws)));
    }
    Comparison whole = changed == null ? null : SuiteComparison.of(suite, suite, reference, changed,
        Analysis.DEFAULT.withThresholds(thresholds)).comparisons().get(0);
    return new GateCalibration(suite.source(), reference, same, changed, thresholds, method,
        complete.size(), secondsPerRun, shifts, whole, rows);
  }

  /** {@code times} of the blocks in which both variants' jobs succeeded (NaN: a failed job). */
  private static double[] successful(double[] times, double[] baseline, double[] candidate) {
    return IntStream.range(0, times.length)
        .filter(i -> !Double.isNaN(baseline[i]) && !Double.isNaN(candidate[i])).mapToDouble(i -> times[i]).toArray();
  }

  private static double[] rates(int[] counts, int draws) {
    return new double[] {counts[0] / (double) draws, counts[1] / (double) draws};
  }

  /** 1 when the gate fails a drawn suite of these two variants, else 0. */
  private static int worse(Path origin, String baseline, double[] baselineTimes, String candidate,
      double[] candidateTimes, boolean paired, Analysis analysis) {
    SampleSet drawn = new SampleSet("drawn", origin, "drawn",
        List.of(sample(baseline, baselineTimes, paired), sample(candidate, candidateTimes, paired)));
    return SuiteComparison.of(drawn, drawn, baseline, candidate, analysis).regression() ? 1 : 0;
  }

  private static VariantSample sample(String variant, double[] times, boolean paired) {
    List<VariantSample.Run> runs = new ArrayList<>();
    for (int i = 0; i < times.length; i++) {
      runs.add(new VariantSample.Run(i, paired ? i : null, Double.isNaN(times[i]) ? null : times[i]));
    }
    return new VariantSample(variant, runs);
  }

  /** Minutes of machine time a gate suite of n blocks of two variants takes, from the recorded pace. */
  public double minutes(int n) {
    return n * 2 * secondsPerRun / 60;
  }

  /** The calibration as text for a terminal. */
  public String table() {
    StringBuilder sb = new StringBuilder();
    sb.append("suite: ").append(source).append(", ").append(blocks).append(" complete blocks of ")
        .append(reference).append(", ").append(same).append(changed == null ? "" : ", " + changed).append('\n');
    sb.append("gate: compare at ").append(thresholds.describe()).append('\n');
    sb.append("paired ").append(method.describe(true)).append('\n');
    sb.append("as independent runs").append(changed == null ? "" : ", and " + changed).append(": share of ")
        .append(method.suites()).append(" suites of n blocks drawn with replacement, the A/A pair's roles swapped at"
            + " random, that the gate fails; seed ").append(method.seed()).append('\n');
    if (changedOnWholeSuite != null) {
      Comparison c = changedOnWholeSuite;
      sb.append(format("%s against %s on the whole suite: median %s [%s, %s], Hodges-Lehmann %s [%s, %s]%n",
          changed, reference, Format.ratio(c.median().ratio()), Format.ratio(c.median().ratioInterval().low()),
          Format.ratio(c.median().ratioInterval().high()), Format.ratio(c.shift().ratio()),
          Format.ratio(c.shift().interval().low()), Format.ratio(c.shift().interval().high())));
    }
    sb.append("share of drawn suites the gate fails (WORSE), paired by block [90% interval] / as independent runs:\n\n");
    StringBuilder header = new StringBuilder(format("%6s %8s  %-28s", "blocks", "minutes", "A/A false alarm"));
    shifts.forEach(s -> header.append(format("  %-28s", same + " " + Format.ratio(s))));
    if (changed != null) {
      header.append(format("  %-15s", changed));
    }
    sb.append(header.toString().stripTrailing()).append('\n');
    for (Row r : rows) {
      StringBuilder line = new StringBuilder(format("%6s %8s  %-28s",
          r.blocks() + (r.falseAlarms().paired().extrapolated() ? "*" : ""),
          Double.isNaN(secondsPerRun) ? "?" : format("%.1f", minutes(r.blocks())), rate(r.falseAlarms())));
      r.detectedShift().forEach(d -> line.append(format("  %-28s", rate(d))));
      if (r.detectedChanged() != null) {
        line.append(format("  %-15s", format("%.3f / %.3f", r.detectedChanged()[0], r.detectedChanged()[1])));
      }
      sb.append(line.toString().stripTrailing()).append('\n');
    }
    rows.stream().filter(r -> r.falseAlarms().paired().extrapolated()).findFirst().ifPresent(r -> sb.append(format(
        "%n*: more blocks than the pilot's %d, an extrapolation: a suite of %d drawn from them holds about %.1f distinct"
            + " blocks, so its interval understates the uncertainty%n", blocks, r.blocks(),
        r.falseAlarms().paired().distinctBlocks())));
    if (!Double.isNaN(secondsPerRun)) {
      sb.append(format("%nminutes: n blocks of two variants at the recorded pace, %.1f s per run including the reset%n",
          secondsPerRun));
    }
    return sb.toString();
  }

  private static String rate(Rate rate) {
    return rate.paired().describe() + format(" / %.3f", rate.unpaired());
  }

  private static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
