package faultbed.results.compare;

import faultbed.results.stats.Format;
import faultbed.results.stats.PowerSimulation;
import faultbed.results.stats.Spread;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * How many runs per variant (blocks, when paired) a suite needs so its comparison sees a given
 * slowdown with a given power, from a pilot suite's own spread; and the smallest slowdown a few
 * sizes would see. The same simulation as the power line of 'faultbed compare': draws from the
 * pilot's residuals, the candidate made slower by the effect, the same exact rank test.
 *
 * <p>Unpaired, one row per variant: its log times about their median (the candidate is assumed to
 * spread like it). Paired, one row per other variant: its per-block log ratios against the
 * reference variant.
 */
public record RunPlan(String source, boolean paired, String reference, double effectRatio, double power,
    double alpha, PowerSimulation simulation, List<Row> rows) {

  /** Sizes whose smallest detectable change is shown. */
  public static final List<Integer> SIZES = List.of(5, 10, 20, 40);
  /** Beyond this many runs per variant the plan says "more than". */
  public static final int MAX_RUNS = 500;
  /** A spread measured on fewer values is not worth a plan. */
  public static final int SMALLEST_PILOT = 3;

  /**
   * @param pilotSize runs (unpaired) or blocks (paired) the spread was measured on
   * @param spread standard deviation of log times or of per-block log ratios
   * @param runsNeeded empty when more than {@link #MAX_RUNS}, or the pilot is too small
   * @param detectable smallest detectable ratio for each of {@link #SIZES}; infinite when none
   */
  public record Row(String label, int pilotSize, double spread, OptionalInt runsNeeded, List<Double> detectable) {
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
      double alpha, PowerSimulation simulation) {
    List<Row> rows = new ArrayList<>();
    String reference = null;
    if (paired) {
      VariantSample ref = variant != null ? pilot.variant(variant).orElseThrow()
          : pilot.variants().stream().filter(VariantSample::blocked).findFirst().orElseThrow();
      reference = ref.variant();
      for (VariantSample other : pilot.variants()) {
        if (other != ref && other.blocked()) {
          BlockPairs pairs = BlockPairs.of(ref, other);
          double[] logRatios = new double[pairs.pairs()];
          for (int i = 0; i < logRatios.length; i++) {
            logRatios[i] = Math.log(pairs.candidate()[i] / pairs.baseline()[i]);
          }
          rows.add(row(ref.variant() + " -> " + other.variant(), logRatios.length,
              logRatios.length == 0 ? null : Spread.paired(logRatios), effectRatio, power, alpha, simulation));
        }
      }
    } else {
      for (VariantSample v : pilot.variants()) {
        if (variant == null || v.variant().equals(variant)) {
          double[] logTimes = Arrays.stream(v.times()).map(Math::log).toArray();
          rows.add(row(v.variant(), logTimes.length, logTimes.length == 0 ? null : Spread.unpaired(logTimes),
              effectRatio, power, alpha, simulation));
        }
      }
    }
    return new RunPlan(pilot.source(), paired, reference, effectRatio, power, alpha, simulation, rows);
  }

  private static Row row(String label, int pilotSize, Spread spread, double effectRatio, double power,
      double alpha, PowerSimulation simulation) {
    if (pilotSize < SMALLEST_PILOT) {
      return new Row(label, pilotSize, Double.NaN, OptionalInt.empty(), List.of());
    }
    OptionalInt needed = simulation.runsNeeded(spread, Math.log(effectRatio), alpha, power, MAX_RUNS);
    List<Double> detectable = SIZES.stream()
        .map(n -> simulation.minimumDetectableRatio(spread, n, n, alpha, power)).toList();
    return new Row(label, pilotSize, spread.standardDeviation(), needed, detectable);
  }

  /** The plan as text for a terminal. */
  public String table() {
    StringBuilder sb = new StringBuilder();
    String unit = paired ? "blocks" : "runs per variant";
    sb.append("pilot: ").append(source).append('\n');
    sb.append(paired ? "paired: each variant's per-block log ratios against " + reference
        + " (Wilcoxon signed-rank)\n" : "unpaired: each variant's log times about their median (Mann-Whitney)\n");
    sb.append(format("to see a slowdown of x%.3f %.0f%% of the time at alpha %s; %d simulations per size, seed %d%n",
        effectRatio, power * 100, Format.plain(alpha), simulation.repetitions(), simulation.seed()));
    sb.append('\n');
    int width = Math.max(20, rows.stream().mapToInt(r -> r.label().length()).max().orElse(0));
    sb.append(format("%-" + width + "s %6s %7s %9s   smallest slowdown seen with n %s%n", "", "pilot",
        paired ? "ratio" : "time", "needed", unit));
    StringBuilder header = new StringBuilder(format("%-" + width + "s %6s %7s %9s  ", paired ? "variants" : "variant",
        paired ? "blocks" : "runs", "log sd", unit.equals("blocks") ? "blocks" : "runs"));
    SIZES.forEach(n -> header.append(format(" %8s", "n=" + n)));
    sb.append(header).append('\n');
    for (Row r : rows) {
      sb.append(format("%-" + width + "s %6d ", r.label(), r.pilotSize()));
      if (r.tooSmall()) {
        sb.append(format("pilot too small: at least %d successful %s needed%n", SMALLEST_PILOT,
            paired ? "pairs" : "runs"));
        continue;
      }
      sb.append(format("%7.3f %9s  ", r.spread(), r.runsNeeded().isPresent()
          ? Integer.toString(r.runsNeeded().getAsInt()) : ">" + MAX_RUNS));
      r.detectable().forEach(d -> sb.append(format(" %8s", Double.isFinite(d) ? format("x%.3f", d) : "none")));
      sb.append('\n');
    }
    if (rows.stream().anyMatch(r -> r.detectable().stream().anyMatch(d -> !Double.isFinite(d)))) {
      sb.append("none: so few cannot reach alpha (or not below x100)\n");
    }
    return sb.toString();
  }

  private static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
