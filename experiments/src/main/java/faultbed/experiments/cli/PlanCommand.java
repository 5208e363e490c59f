package faultbed.experiments.cli;

import faultbed.experiments.scenario.ScenarioException;
import faultbed.results.compare.RunPlan;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.results.compare.SampleSet;
import faultbed.results.compare.SequentialSuite;
import faultbed.results.stats.SequentialGate;
import faultbed.results.stats.SequentialOperatingCharacteristics;
import faultbed.results.stats.PilotPower;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** How many runs a suite needs to see a change, from a pilot's spread. Reads records only, starts nothing. */
@Command(name = "plan", mixinStandardHelpOptions = true, description = {
    "Says how many runs per variant (blocks, when paired) a suite needs for 'faultbed compare' to see a "
        + "slowdown, from a pilot suite's spread (no cluster needed).",
    "PILOT is a folder of run records or a baseline file. It gives the power at 5, 10, 20 and 40 runs and at the "
        + "size needed, with a 90%% interval from re-drawing the pilot's blocks (or runs), by the method "
        + "'faultbed calibrate' uses; sizes beyond the pilot are marked as extrapolations. Exit 0: planned; "
        + "2: bad input."})
final class PlanCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "PILOT", description = "folder of run records or baseline file")
  Path pilot;

  @Option(names = "--variant", paramLabel = "V",
      description = "plan for this variant only; paired: the variant the others are paired with (default: the first)")
  String variant;

  @Option(names = "--effect", paramLabel = "PCT", defaultValue = "5%",
      description = "slowdown of the median to see (default ${DEFAULT-VALUE})")
  String effect;

  @Option(names = "--power", paramLabel = "P", defaultValue = "0.8",
      description = "share of suites that should see it (default ${DEFAULT-VALUE})")
  double power;

  @Option(names = "--alpha", paramLabel = "A", defaultValue = "0.05",
      description = "significance level of the test (default ${DEFAULT-VALUE})")
  double alpha;

  @Option(names = "--paired", description = "runs in blocks, compared pair by pair (default when the pilot ran in blocks)")
  boolean paired;

  @Option(names = "--unpaired", description = "independent runs (default when the pilot did not run in blocks)")
  boolean unpaired;

  @Option(names = "--sequential", paramLabel = "SCENARIO",
      description = "plan for the sequential design this scenario declares (its \"sequential\" field): false alarms,"
          + " power, blocks expected and at most, from the pilot's paired blocks")
  Path sequential;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Double percent = percentage(effect);
    if (percent == null) {
      return bad(err, "--effect: expected a percentage above 0 such as 5%, got " + effect);
    }
    if (!(power > 0 && power < 1)) {
      return bad(err, "--power: expected a number between 0 and 1, got " + power);
    }
    if (!(alpha > 0 && alpha < 1)) {
      return bad(err, "--alpha: expected a number between 0 and 1, got " + alpha);
    }
    if (paired && unpaired) {
      return bad(err, "--paired: expected either --paired or --unpaired, not both");
    }
    SampleSet samples;
    try {
      samples = SampleSet.read(pilot);
    } catch (SampleSet.InvalidSampleSource e) {
      return bad(err, "PILOT: " + e.getMessage());
    }
    if (variant != null && samples.variant(variant).isEmpty()) {
      return bad(err, "--variant: expected one of " + samples.variantNames() + " in PILOT, got " + variant);
    }
    boolean blocked = RunPlan.blocked(samples);
    if (paired && !blocked) {
      return bad(err, "--paired: expected a pilot with two variants run in blocks, got " + pilot
          + " (its runs have no blocks; plan --unpaired)");
    }
    if (blocked && !unpaired && variant != null && !samples.variant(variant).orElseThrow().blocked()) {
      return bad(err, "--variant: expected a variant run in blocks to pair the others with, got " + variant
          + " (or plan --unpaired)");
    }
    if (sequential != null) {
      return planSequential(err, samples, blocked && !unpaired, 1 + percent / 100);
    }
    RunPlan plan = RunPlan.of(samples, variant, blocked && !unpaired, 1 + percent / 100, power, alpha,
        PilotPower.Method.DEFAULT);
    PrintWriter out = spec.commandLine().getOut();
    out.print(plan.table());
    out.flush();
    return 0;
  }

  /**
   * The scenario's sequential design on suites drawn from the pilot: each of the pilot's variants
   * against --variant (default the first), as a candidate would be against the reference.
   */
  private int planSequential(PrintWriter err, SampleSet samples, boolean paired, double ratio) {
    if (!paired) {
      return bad(err, "--sequential: expected a pilot run in blocks (a sequential gate pairs its blocks), got " + pilot);
    }
    SequentialSuite design;
    try {
      ScenarioParser.parse(sequential);
      design = SequentialSuite.ofFile(sequential).orElse(null);
    } catch (ScenarioException e) {
      return bad(err, "--sequential: " + sequential + ": " + e.getMessage());
    }
    if (design == null) {
      return bad(err, "--sequential: expected a scenario with a \"sequential\" design, got " + sequential);
    }
    String reference = variant != null ? variant : samples.variantNames().get(0);
    PrintWriter out = spec.commandLine().getOut();
    SequentialGate gate = design.gate();
    out.print(gate.describe());
    for (String candidate : samples.variantNames()) {
      if (candidate.equals(reference)) {
        continue;
      }
      double[] ratios = SequentialSuite.logRatios(samples, reference, candidate);
      if (ratios.length < 2) {
        return bad(err, "PILOT: expected at least 2 blocks where both " + reference + " and " + candidate
            + " ran, got " + ratios.length);
      }
      var oc = SequentialOperatingCharacteristics.simulate(gate, ratios, ratio);
      out.println();
      out.println(candidate + " against " + reference + ", " + ratios.length + " pilot blocks" + (ratios.length
          < design.design().maxBlocks() ? " (fewer than the design's " + design.design().maxBlocks()
          + ": its suites re-use the pilot's blocks, an extrapolation)" : "") + ":");
      out.print(oc.describe());
      out.println("  suites ended at each look " + design.design().looks() + ": no difference "
          + shares(oc.underNull().endedAtLook()) + "; " + faultbed.results.stats.Format.ratio(ratio) + " "
          + shares(oc.atRatio().endedAtLook()));
    }
    out.flush();
    return 0;
  }

  private static String shares(java.util.List<Double> shares) {
    return shares.stream().map(d -> String.format(java.util.Locale.ROOT, "%.3f", d))
        .collect(java.util.stream.Collectors.joining(", ", "[", "]"));
  }

  /** "5%" or "5" as 5; null unless a finite number above 0. */
  private static Double percentage(String text) {
    try {
      double v = Double.parseDouble(text.strip().replaceFirst("%$", ""));
      return v > 0 && Double.isFinite(v) ? v : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static int bad(PrintWriter err, String message) {
    err.println(ScenarioException.oneLine("faultbed: " + message)); // a path may hold a line break
    err.flush();
    return FaultbedCli.BAD_INPUT;
  }
}
