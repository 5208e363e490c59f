package faultbed.experiments.cli;

import faultbed.results.Expectation;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Checks every run against the expectation its scenario states for its variant. */
@Command(name = "verify", mixinStandardHelpOptions = true, description = {
    "Checks every run against what its scenario expects of its variant (\"expect\": the job's state, whether"
        + " a backup was launched, of which tasks, failed map attempts), from the records (no cluster needed).",
    "Exit 0: every run met its expectations; 1: some run did not; 2: no records, or a scenario that states"
        + " no expectation."})
final class VerifyCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "folder of run records with its scenario's copy ("
      + RecordStore.SCENARIO_COPY + ")")
  Path dir;

  @CommandLine.Mixin
  JsonOutput json;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** The runs checked, those that had no expectation, and whether all checked runs met theirs. */
  record Result(List<Expectation.Verdict> runs, List<String> unchecked, boolean passed) {}

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    var read = RecordsFolder.read(dir, err);
    if (read.isEmpty()) {
      return FaultbedCli.BAD_INPUT;
    }
    Optional<Map<String, Expectation>> stated;
    try {
      stated = Expectation.ofSuite(dir);
    } catch (IOException | Expectation.Invalid e) {
      err.println("faultbed: DIR: cannot read the expectations in " + dir.resolve(RecordStore.SCENARIO_COPY)
          + ": " + e.getMessage());
      return FaultbedCli.BAD_INPUT;
    }
    if (stated.isEmpty() || stated.get().isEmpty()) {
      err.println("faultbed: DIR: expected a suite whose scenario states \"expect\" for its variants, got "
          + (stated.isEmpty() ? "no " + RecordStore.SCENARIO_COPY : "none") + " in " + dir);
      return FaultbedCli.BAD_INPUT;
    }
    List<RunRecord> records = new ArrayList<>(read.get());
    records.sort(Comparator.comparing(RunRecord::variant).thenComparingInt(RunRecord::runIndex));
    List<Expectation.Verdict> verdicts = new ArrayList<>();
    List<String> unchecked = new ArrayList<>();
    for (RunRecord r : records) {
      Expectation e = stated.get().get(r.variant());
      if (e == null) {
        unchecked.add(r.runId());
      } else {
        verdicts.add(e.check(r));
      }
    }
    boolean passed = verdicts.stream().allMatch(Expectation.Verdict::met);
    if (json.enabled) {
      JsonOutput.print(spec.commandLine().getOut(), new Result(verdicts, unchecked, passed));
      return passed ? 0 : CompareCommand.REGRESSION;
    }
    PrintWriter out = spec.commandLine().getOut();
    for (Expectation.Verdict v : verdicts) {
      out.println((v.met() ? "met    " : "UNMET  ") + v.runId());
      v.unmet().forEach(u -> out.println("  - " + u));
      out.println("  " + v.observed());
    }
    long met = verdicts.stream().filter(Expectation.Verdict::met).count();
    out.println();
    out.println("verify: " + met + " of " + verdicts.size() + " run(s) met their expectations"
        + (unchecked.isEmpty() ? "" : "; " + unchecked.size() + " run(s) of variants with none: "
        + String.join(", ", unchecked)));
    out.flush();
    return passed ? 0 : CompareCommand.REGRESSION;
  }
}
