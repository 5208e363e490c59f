package faultbed.experiments.cli;

import faultbed.experiments.RunOrder;
import faultbed.experiments.scenario.Preconditions;
import faultbed.experiments.scenario.Scenario;
import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Checks scenario files the way 'run' does before it starts anything, and starts nothing. */
@Command(name = "validate", mixinStandardHelpOptions = true, description = {
    "Checks scenario files as 'run' would, and starts nothing: for each, one line saying what it would run "
        + "(and, as a note, what this machine lacks for it), or one line naming the bad field.",
    "Exit 0: every file is valid; 2: at least one is not."})
final class ValidateCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "SCENARIO", description = "scenario files (JSON)")
  List<Path> files;

  @CommandLine.Mixin
  UserClasspath userClasspath;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    try (UserClasspath.Installed cp = userClasspath.install()) {
      return validate(spec.commandLine().getOut(), err);
    } catch (UserClasspath.BadEntry e) {
      err.println("faultbed: " + e.getMessage());
      return FaultbedCli.BAD_INPUT;
    }
  }

  private int validate(PrintWriter out, PrintWriter err) {
    int code = 0;
    for (Path file : files) {
      Scenario scenario;
      try {
        scenario = ScenarioParser.parse(file);
      } catch (ScenarioException e) {
        err.println(ScenarioException.oneLine("faultbed: " + file + ": " + e.getMessage()));
        code = FaultbedCli.BAD_INPUT;
        continue;
      }
      RunOrder order = RunOrder.of(scenario);
      int blocks = order.blocks();
      out.printf("%s: valid: %s, %d variant(s), %d run(s) in %d block(s), %d cluster start(s)%n", file,
          scenario.name(), scenario.variants().size(), order.size(), blocks, order.clusterStarts());
      List<String> problems = Preconditions.problems(scenario);
      if (!problems.isEmpty()) {
        out.println("  note: cannot run on this machine: " + problems.get(0));
      }
    }
    out.flush();
    err.flush();
    return code;
  }
}
