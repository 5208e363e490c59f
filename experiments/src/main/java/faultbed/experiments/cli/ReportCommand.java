package faultbed.experiments.cli;

import faultbed.results.report.SuiteReport;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Writes DIR/report.html and DIR/runs.csv from the records alone. */
@Command(name = "report", mixinStandardHelpOptions = true, description = {
    "Writes DIR/report.html and DIR/runs.csv from the run records (no cluster needed).",
    "The page is self-contained and works offline: charts, summary tables with confidence "
        + "intervals, and each run's Dinu-Ng group with its evidence. The CSV has one row per run."})
final class ReportCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "folder of run records")
  Path dir;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (!RecordsFolder.exists(dir, err)) {
      return FaultbedCli.BAD_INPUT;
    }
    SuiteReport.Written written;
    try {
      written = SuiteReport.write(dir);
    } catch (IllegalArgumentException e) {
      err.println("faultbed: DIR: " + e.getMessage());
      return FaultbedCli.BAD_INPUT;
    } catch (UncheckedIOException e) {
      err.println("faultbed: DIR: " + e.getMessage() + ": "
          + e.getCause().getMessage().lines().findFirst().orElse(""));
      return FaultbedCli.BAD_INPUT;
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println("report: " + written.html() + " (" + written.runs() + " runs)");
    out.println("runs:   " + written.csv());
    out.flush();
    return 0;
  }
}
