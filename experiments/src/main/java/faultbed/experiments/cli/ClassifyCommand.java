package faultbed.experiments.cli;

import faultbed.results.RunRecord;
import faultbed.results.classify.Classification;
import faultbed.results.classify.DinuNgClassifier;
import faultbed.results.classify.DinuNgGroup;
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
import picocli.CommandLine.Parameters;

/** Prints every run's Dinu-Ng group with the facts from its record that put it there. */
@Command(name = "classify", mixinStandardHelpOptions = true, description = {
    "Prints each run's Dinu-Ng failure group with its evidence (no cluster needed).",
    "Evidence: the fault, the node's detection, lost map outputs, fetch-failure reports, re-runs, "
        + "speculation."})
final class ClassifyCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "folder of run records")
  Path dir;

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
    PrintWriter out = spec.commandLine().getOut();
    Map<DinuNgGroup, Integer> tally = new EnumMap<>(DinuNgGroup.class);
    for (Classification c : DinuNgClassifier.classifyAll(records)) {
      tally.merge(c.group(), 1, Integer::sum);
      out.printf(Locale.ROOT, "%s  %s  recovery: %s%s%n", c.runId(), c.group().label(), c.recovery().label(),
          c.mechanisms().isEmpty() ? "" : "  seen: " + c.mechanisms().stream()
              .map(m -> m.label()).collect(Collectors.joining(", ")));
      c.evidence().forEach(e -> out.println("  - " + e));
    }
    out.println();
    out.println(tally.entrySet().stream().map(e -> e.getKey().label() + ": " + e.getValue())
        .collect(Collectors.joining(", ")));
    out.flush();
    return 0;
  }
}
