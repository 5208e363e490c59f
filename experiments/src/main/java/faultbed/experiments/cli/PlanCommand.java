package faultbed.experiments.cli;

import faultbed.experiments.scenario.ScenarioException;
import faultbed.results.compare.RunPlan;
import faultbed.results.compare.SampleSet;
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
    RunPlan plan = RunPlan.of(samples, variant, blocked && !unpaired, 1 + percent / 100, power, alpha,
        PilotPower.Method.DEFAULT);
    PrintWriter out = spec.commandLine().getOut();
    out.print(plan.table());
    out.flush();
    return 0;
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
