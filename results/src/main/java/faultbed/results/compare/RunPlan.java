package faultbed.results.compare;

import faultbed.results.stats.Format;
import faultbed.results.stats.GateThresholds;
import faultbed.results.stats.PilotPower;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.TreeSet;

/**
 * How many runs per variant (blocks, when paired) a suite needs so the gate sees a given slowdown
 * with a given power, from a pilot suite; and the power a few sizes would have, with its interval.
 * Power is {@link PilotPower}'s, the method 'faultbed calibrate' shares, judged by the gate's rule
 * at max regression 0: the exact rank test significant and the candidate's median slower.
 *
 * <p>Unpaired, one row per variant: its runs (the candidate is assumed to spread like them).
 * Paired, one row per other variant: its blocks with the reference variant.
 */
public record RunPlan(String source, boolean paired, String reference, double effectRatio, double power,
    double alpha, PilotPower.Method method, List<Row> rows) {

  /** Sizes whose power is shown, besides the size needed. */
  public static final List<Integer> SIZES = List.of(5, 10, 20, 40);
  /** Beyond this many runs per variant the plan says "more than". */
  public static final int MAX_RUNS = 500;
  /** A pilot of fewer blocks (runs) is not worth a plan. */
  public static final int SMALLEST_PILOT = 3;

  /**
   * @param pilotSize runs (unpaired) or blocks (paired) the power was drawn from
   * @param spread standard deviation of log times or of per-block log ratios
   * @param runsNeeded empty when more than {@link #MAX_RUNS}, or the pilot is too small
   * @param power at each of {@link #SIZES} and the size needed, in increasing size
   */
  public record Row(String label, int pilotSize, double spread, OptionalInt runsNeeded, List<PilotPower.Estimate> power) {
    public boolean tooSmall() {
      return pilotSize < SMALLEST_PILOT;
    }
  }

  public RunPlan {
    rows = List.copyOf(rows);
  }

  /** Whether two of the pilot's variants ran in blocks, so a paired plan can be made. */
  public static boolean blocked(SampleSet pilot) {
    return pilot.variants().stream().filter(VariantSample::blocked).count() >= 2;
  }

  /**
   * @param variant unpaired: the only variant planned (null: each); paired: the reference the
   *     others are paired with (null: the first variant in blocks)
   */
  public static RunPlan of(SampleSet pilot, String variant, boolean paired, double effectRatio, double power,
      double alpha, PilotPower.Method method) {
    List<Row> rows = new ArrayList<>();
    String reference = null;
    GateThresholds gate = new GateThresholds(alpha, 0);
    if (paired) {
      VariantSample ref = variant != null ? pilot.variant(variant).orElseThrow()
          : pilot.variants().stream().filter(VariantSample::blocked).findFirst().orElseThrow();
      reference = ref.variant();
      for (VariantSample other : pilot.variants()) {
        if (other != ref && other.blocked()) {
          BlockPairs pairs = BlockPairs.of(ref, other);
          rows.add(row(ref.variant() + " -> " + other.variant(), pairs.pairs(),
              pairs.pairs() == 0 ? null : PilotPower.paired(pairs.baseline(), pairs.candidate()), effectRatio, power,
              gate, method));
        }
      }
    } else {
      for (VariantSample v : pilot.variants()) {
        if (variant == null || v.variant().equals(variant)) {
          double[] times = v.times();
          rows.add(row(v.variant(), times.length, times.length == 0 ? null : PilotPower.unpaired(times),
              effectRatio, power, gate, method));
        }
      }
    }
    return new RunPlan(pilot.source(), paired, reference, effectRatio, power, alpha, method, rows);
  }

  private static Row row(String label, int pilotSize, PilotPower pilot, double effectRatio, double power,
      GateThresholds gate, PilotPower.Method method) {
    if (pilotSize < SMALLEST_PILOT) {
      return new Row(label, pilotSize, Double.NaN, OptionalInt.empty(), List.of());
    }
    OptionalInt needed = pilot.sizeNeeded(effectRatio, gate, power, MAX_RUNS, method);
    TreeSet<Integer> sizes = new TreeSet<>(SIZES);
    needed.ifPresent(sizes::add);
    List<PilotPower.Estimate> estimates = sizes.stream()
        .map(n -> pilot.estimate(n, effectRatio, gate, method)).toList();
    return new Row(label, pilotSize, pilot.logSd(), needed, estimates);
  }

  /** The plan as text for a terminal. */
  public String table() {
    StringBuilder sb = new StringBuilder();
    String unit = paired ? "blocks" : "runs per variant";
    sb.append("pilot: ").append(source).append('\n');
    sb.append(paired ? "paired: each variant's per-block log ratios against " + reference
        + " (Wilcoxon signed-rank)\n" : "unpaired: each variant's runs (Mann-Whitney)\n");
    sb.append(format("to see a slowdown of x%.3f %.0f%% of the time at alpha %s: the gate's WORSE at max regression 0%n",
        effectRatio, power * 100, Format.plain(alpha)));
    sb.append(paired ? "paired " : "unpaired ").append(method.describe(paired)).append('\n');
    boolean extrapolated = false;
    for (Row r : rows) {
      sb.append('\n').append(r.label()).append(format(": pilot of %d %s", r.pilotSize(), paired ? "blocks" : "runs"));
      if (r.tooSmall()) {
        sb.append(format("; too small: at least %d successful %s needed%n", SMALLEST_PILOT,
            paired ? "pairs" : "runs"));
        continue;
      }
      sb.append(format(", %s log sd %.3f; needed: %s %s%n", paired ? "per-block ratio" : "time", r.spread(),
          r.runsNeeded().isPresent() ? Integer.toString(r.runsNeeded().getAsInt()) : "more than " + MAX_RUNS, unit));
      sb.append(format("  %7s  %-22s %s%n", paired ? "blocks" : "runs", "power [90% interval]",
          "distinct pilot " + (paired ? "blocks" : "runs") + " per suite"));
      for (PilotPower.Estimate e : r.power()) {
        extrapolated |= e.extrapolated();
        sb.append(format("  %7s  %-22s %.1f%n", e.size() + (e.extrapolated() ? "*" : ""), e.describe(),
            e.distinctBlocks()));
      }
    }
    if (extrapolated) {
      sb.append(format("%n*: more %s than the pilot has, an extrapolation: the suites re-use its few distinct ones,"
          + " so the interval understates the uncertainty%n", paired ? "blocks" : "runs"));
    }
    return sb.toString();
  }

  private static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
