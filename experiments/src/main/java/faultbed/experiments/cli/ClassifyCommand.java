package faultbed.experiments.cli;

import faultbed.results.RunRecord;
import faultbed.results.classify.Classification;
import faultbed.results.classify.DinuNgClassifier;
import faultbed.results.classify.DinuNgGroup;
import faultbed.results.classify.GroupsGate;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Prints every run's Dinu-Ng group with the facts from its record that put it there. */
@Command(name = "classify", mixinStandardHelpOptions = true, description = {
    "Prints each run's Dinu-Ng failure group with its evidence (no cluster needed).",
    "Evidence: the fault, the node's detection, lost map outputs, fetch-failure reports, re-runs, "
        + "speculation.",
    "With --gate: exit 1 when fewer groups are found than the baseline lists, or when a variant named"
        + " in it as expiry-bound recovered other than by node expiry."})
final class ClassifyCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "folder of run records")
  Path dir;

  @Option(names = "--gate", paramLabel = "FILE", description = "groups baseline to check against (faultbed-groups/1)")
  Path gate;

  @Option(names = "--write-gate", paramLabel = "FILE", description = "write the groups found as a baseline")
  Path writeGate;

  @Option(names = "--expiry-bound", paramLabel = "VARIANT",
      description = "with --write-gate: a variant whose crashes must be recovered by node expiry (repeatable)")
  List<String> expiryBound = new java.util.ArrayList<>();

  @Option(names = "--group", paramLabel = "GROUP", description = "show the runs of this group (G1 to G8,"
      + " \"AM lost\", \"no fault\", ...; repeatable) and those given by --run; the tally and the gate still cover"
      + " every run")
  List<String> onlyGroups = new java.util.ArrayList<>();

  @Option(names = "--run", paramLabel = "RUN", description = "show this run (its id, as crash-017; repeatable)")
  List<String> onlyRuns = new java.util.ArrayList<>();

  @CommandLine.Mixin
  JsonOutput json;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    var read = RecordsFolder.read(dir, err);
    if (read.isEmpty()) {
      return FaultbedCli.BAD_INPUT;
    }
    List<RunRecord> records = read.get();
    java.util.Set<DinuNgGroup> groupsShown = java.util.EnumSet.noneOf(DinuNgGroup.class);
    for (String g : onlyGroups) {
      java.util.Optional<DinuNgGroup> found = group(g);
      if (found.isEmpty()) {
        err.println("faultbed: --group: \"" + g + "\" is not a group; expected one of " + java.util.Arrays.stream(
            DinuNgGroup.values()).map(DinuNgGroup::label).collect(Collectors.joining(", ")));
        return FaultbedCli.BAD_INPUT;
      }
      groupsShown.add(found.get());
    }
    java.util.Set<String> ids = records.stream().map(RunRecord::runId).collect(Collectors.toSet());
    for (String r : onlyRuns) {
      if (!ids.contains(r)) {
        err.println("faultbed: --run: \"" + r + "\" is not a run in " + dir + "; expected a run id such as "
            + records.get(0).runId());
        return FaultbedCli.BAD_INPUT;
      }
    }
    GroupsGate baseline = null;
    if (gate != null) {
      try {
        baseline = GroupsGate.read(gate);
      } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
        err.println("faultbed: --gate: " + e.getMessage());
        return FaultbedCli.BAD_INPUT;
      }
    }
    List<Classification> all = DinuNgClassifier.classifyAll(records);
    // the runs named and the runs of the groups named; every run when neither is given
    java.util.function.Predicate<Classification> shown = c -> (groupsShown.isEmpty() && onlyRuns.isEmpty())
        || groupsShown.contains(c.group()) || onlyRuns.contains(c.runId());
    if (json.enabled) {
      return printJson(all, shown, baseline);
    }
    PrintWriter out = spec.commandLine().getOut();
    Map<DinuNgGroup, Integer> tally = new EnumMap<>(DinuNgGroup.class);
    for (Classification c : all) {
      tally.merge(c.group(), 1, Integer::sum);
      if (!shown.test(c)) {
        continue;
      }
      out.printf(Locale.ROOT, "%s  %s  recovery: %s%s%n", c.runId(), c.group().label(), c.recovery().label(),
          c.mechanisms().isEmpty() ? "" : "  seen: " + c.mechanisms().stream()
              .map(m -> m.label()).collect(Collectors.joining(", ")));
      c.evidence().forEach(e -> out.println("  - " + e));
    }
    out.println();
    out.println(tally.entrySet().stream().map(e -> e.getKey().label() + ": " + e.getValue())
        .collect(Collectors.joining(", ")));
    out.println(delays(all));
    if (writeGate != null) {
      GroupsGate.of(dir.getFileName().toString(), all, expiryBound).write(writeGate);
      out.println("groups baseline: " + writeGate);
    }
    if (baseline != null) {
      List<String> violations = baseline.violations(all);
      violations.forEach(v -> out.println("GATE: " + v));
      out.println(violations.isEmpty() ? "gate: passed (" + baseline.groups().size() + " groups, expiry-bound "
          + baseline.expiryBound() + ")" : "gate: FAILED");
      out.flush();
      return violations.isEmpty() ? 0 : CompareCommand.REGRESSION;
    }
    out.flush();
    return 0;
  }

  /** A group by its label or its name, in any case: "G4", "am lost", "NO_FAULT". */
  private static java.util.Optional<DinuNgGroup> group(String named) {
    return java.util.Arrays.stream(DinuNgGroup.values())
        .filter(g -> g.label().equalsIgnoreCase(named.strip()) || g.name().equalsIgnoreCase(named.strip())).findFirst();
  }

  /**
   * The runs shown (every run without --group or --run) with their classification; the groups found,
   * the runs whose delay is unexplained, and the gate's answer, over every run.
   */
  record Result(List<Classification> runs, Map<String, Integer> groups, List<String> unexplainedDelays, Gate gate) {}

  /** How many runs have a delay account, and which of them are unexplained. */
  static String delays(List<Classification> all) {
    List<Classification> accounted = all.stream().filter(c -> c.delay() != null).toList();
    List<String> unexplained = unexplained(all);
    return String.format(Locale.ROOT, "delays: %d run(s) accounted against a reference run of their workload,"
            + " %d unexplained (%.1f %%)%s", accounted.size(), unexplained.size(),
        accounted.isEmpty() ? 0.0 : 100.0 * unexplained.size() / accounted.size(),
        unexplained.isEmpty() ? "" : ": " + String.join(", ", unexplained));
  }

  static List<String> unexplained(List<Classification> all) {
    return all.stream().filter(c -> c.delay() != null && c.delay().unexplained()).map(Classification::runId).toList();
  }

  record Gate(String baseline, boolean passed, List<String> violations) {}

  private int printJson(List<Classification> all, java.util.function.Predicate<Classification> shown,
      GroupsGate baseline) {
    if (writeGate != null) {
      GroupsGate.of(dir.getFileName().toString(), all, expiryBound).write(writeGate);
    }
    List<String> violations = baseline == null ? List.of() : baseline.violations(all);
    Gate g = baseline == null ? null : new Gate(gate.toString(), violations.isEmpty(), violations);
    JsonOutput.print(spec.commandLine().getOut(),
        new Result(all.stream().filter(shown).toList(), GroupsGate.of("", all, List.of()).groups(), unexplained(all), g));
    return g == null || g.passed() ? 0 : CompareCommand.REGRESSION;
  }
}
