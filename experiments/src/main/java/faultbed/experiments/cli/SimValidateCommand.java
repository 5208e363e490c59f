package faultbed.experiments.cli;

import faultbed.experiments.SimValidation;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Judges the sim backend against suites recorded on real clusters (see {@link SimValidation}) and
 * writes {@code validation.json}: per variant the real and simulated median and p90, per comparison
 * with the reference the real ratio's interval and the simulated ratio, a negative control, and
 * whether the criteria hold. Exit 0 when they hold, 1 when not.
 */
@Command(name = "sim-validate", mixinStandardHelpOptions = true,
    description = "Simulates recorded suites from a model fitted to each one's reference and compares.")
final class SimValidateCommand implements Callable<Integer> {

  @Parameters(paramLabel = "SUITE_DIR", arity = "1..*", description = "folders of suites recorded on real clusters")
  List<Path> suites;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "where the models, the simulated"
      + " suites and validation.json go")
  Path out;

  @Option(names = "--machine-cores", required = true, paramLabel = "N", description = "the cores of the machine the"
      + " suites' nodes shared")
  double machineCores;

  @Option(names = "--progress-from", paramLabel = "DIR", description = "folders of runs of the same machine whose"
      + " records carry progress clocks, for how long a map reports no progress, when the suites' records were"
      + " written before they carried them (repeatable); nothing else is fitted from them")
  List<Path> progressFrom = new java.util.ArrayList<>();

  @Option(names = "--shuffle-bytes-from", paramLabel = "DIR", description = "folders of runs whose records carry"
      + " each attempt's shuffled bytes (recorded by faultbed since records' schema 4), for how many bytes a map's"
      + " output holds per byte of its input, when the suites' records do not carry them (repeatable); what copies carry"
      + " through links a bandwidth-cap or latency shapes; nothing else is fitted from them")
  List<Path> shuffleBytesFrom = new java.util.ArrayList<>();

  @Option(names = "--disk-from", paramLabel = "DIR", description = "folders of runs of the same machine whose disks a"
      + " slow-disk held to a rate, for how many bytes a workload's tasks move through a disk, when the suites'"
      + " references slowed none (repeatable); nothing else is fitted from them")
  List<Path> diskFrom = new java.util.ArrayList<>();

  @Option(names = "--model", paramLabel = "FILE", description = "simulate every suite with this model (written by"
      + " 'faultbed sim-model' from other runs) instead of one fitted to each suite's reference: a prediction of"
      + " suites the model never saw")
  Path model;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter o = spec.commandLine().getOut();
    if (!(machineCores > 0)) {
      err.println("faultbed: --machine-cores: expected a positive number of cores, got " + machineCores);
      return FaultbedCli.BAD_INPUT;
    }
    for (Path suite : suites) {
      if (RecordsFolder.read(suite, err).isEmpty()) {
        return FaultbedCli.BAD_INPUT;
      }
    }
    var progressOnly = RecordsFolder.readAll("--progress-from", progressFrom, err);
    if (progressOnly.isEmpty()) {
      return FaultbedCli.BAD_INPUT;
    }
    var shuffleBytesOnly = RecordsFolder.readAll("--shuffle-bytes-from", shuffleBytesFrom, err);
    if (shuffleBytesOnly.isEmpty()) {
      return FaultbedCli.BAD_INPUT;
    }
    var diskOnly = RecordsFolder.readAll("--disk-from", diskFrom, err);
    if (diskOnly.isEmpty()) {
      return FaultbedCli.BAD_INPUT;
    }
    faultbed.harness.timemodel.TimeModel given = null;
    if (model != null) {
      try {
        given = faultbed.harness.timemodel.TimeModel.read(model);
      } catch (IllegalArgumentException e) {
        err.println("faultbed: --model: " + e.getMessage());
        return FaultbedCli.BAD_INPUT;
      }
    }
    Files.createDirectories(out);
    SimValidation validation = new SimValidation(machineCores, progressOnly.get(), shuffleBytesOnly.get(),
        diskOnly.get(), out, line -> err.println("faultbed: " + line), given);
    SimValidation.Result result = validation.validate(suites);
    validation.write(result, out.resolve("validation.json"));
    o.printf("%-22s %-28s %9s %9s %7s%n", "suite", "variant", "real s", "sim s", "error");
    for (SimValidation.VariantRow v : result.variants()) {
      if (!v.negativeControl()) {
        o.printf("%-22s %-28s %9.1f %9.1f %+6.1f%%%n", v.suite(), v.variant(), v.realMedianSeconds(),
            v.simulatedMedianSeconds(), v.medianErrorPercent());
      }
    }
    o.printf("%n%-22s %-28s %21s %9s %7s %s%n", "suite", "variant vs reference", "real ratio [95%]", "sim", "inside",
        "direction");
    for (SimValidation.ComparisonRow c : result.comparisons()) {
      if (!c.negativeControl()) {
        o.printf("%-22s %-28s %5.3f [%5.3f, %5.3f] %9.3f %7s %s%n", c.suite(), c.variant(), c.realRatio(), c.realLow(),
            c.realHigh(), c.simulatedRatio(), c.inside() ? "yes" : "no",
            c.directionAgrees() == null ? "(not significant)" : c.directionAgrees() ? "agrees" : "DISAGREES");
      }
    }
    if (!result.groups().isEmpty()) {
      o.printf("%n%-22s %-28s %-36s %-36s %5s %7s%n", "suite", "Dinu-Ng groups", "real runs", "simulated runs", "TV",
          "Holm p");
      for (SimValidation.GroupRow g : result.groups()) {
        if (!g.negativeControl()) {
          o.printf("%-22s %-28s %-36s %-36s %5.2f %7.3f%n", g.suite(), g.variant(), shares(g.real()),
              shares(g.simulated()), g.totalVariation(), g.holmPValue());
        }
      }
    }
    print(o, "simulation", result.criteria());
    print(o, "negative control", result.negativeControl());
    SimValidation.Ceiling c = result.perfectSimulation();
    o.printf("a simulation right but for chance (runs drawn from the real runs' own distribution): %.0f%% of variants"
        + " within 10%% expected, the criterion met with chance %.2f, a share as low as this one's with chance %.3f%n",
        100 * c.expectedShare(), c.chanceToMeetCriterion(), c.chanceOfObservedOrLower());
    print(o, "simulation", result.groupAgreement());
    print(o, "negative control", result.negativeControlGroupAgreement());
    result.skipped().forEach(s -> o.println("not simulated: " + s.suite() + ": " + s.why()));
    o.println("validation: " + out.resolve("validation.json"));
    return result.criteria().met() ? 0 : 1;
  }

  /** "G1 3, G6 2". */
  private static String shares(java.util.Map<String, Integer> groups) {
    return groups.isEmpty() ? "-" : groups.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
        .collect(java.util.stream.Collectors.joining(", "));
  }

  private static void print(PrintWriter o, String what, SimValidation.GroupAgreement g) {
    if (g.variants() > 0) {
      o.printf("%s: Dinu-Ng groups of %d variants: %.0f%% within 0.25 of the real shares (total variation),"
          + " %.0f%% not told apart from them at 5%% (Holm over each suite's variants)%n", what, g.variants(),
          100 * g.closeShare(), 100 * g.notRejectedShare());
    }
  }

  private static void print(PrintWriter o, String what, SimValidation.Criteria c) {
    o.printf("%s: %.0f%% of variants within 10%% of the real median, %.0f%% of ratios inside the real 95%% interval,"
        + " significant directions %s: criteria %s%n", what, 100 * c.medianErrorShare(), 100 * c.insideShare(),
        c.directionsAgree() ? "agree" : "DISAGREE", c.met() ? "met" : "NOT met");
  }
}
