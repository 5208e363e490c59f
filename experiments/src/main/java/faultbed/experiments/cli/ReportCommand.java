package faultbed.experiments.cli;

import faultbed.experiments.scenario.ScenarioException;
import faultbed.results.Distribution;
import faultbed.results.classify.DetectionTradeoff;
import faultbed.results.report.SuiteReport;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
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
      err.println(ScenarioException.oneLine("faultbed: DIR: " + e.getMessage()));
      return FaultbedCli.BAD_INPUT;
    } catch (UncheckedIOException e) {
      err.println(ScenarioException.oneLine("faultbed: DIR: " + e.getMessage() + ": "
          + e.getCause().getMessage().lines().findFirst().orElse("")));
      return FaultbedCli.BAD_INPUT;
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println("report: " + written.html() + " (" + written.runs() + " runs)");
    out.println("runs:   " + written.csv());
    RecordsFolder.read(dir, err).map(DetectionTradeoff::of).filter(DetectionTradeoff::isSweep)
        .ifPresent(t -> print(t, out));
    out.flush();
    return 0;
  }

  /** The sweep's trade-off as the page shows it, so it can be read in a terminal or pasted in notes. */
  private static void print(DetectionTradeoff t, PrintWriter out) {
    out.println();
    out.println("failure detection: reaction against cost (seconds after the fault, median [min, max])");
    for (String kind : t.faultKinds()) {
      out.println();
      out.printf(Locale.ROOT, "under %s%n", kind);
      out.printf(Locale.ROOT, "  %-22s %4s %9s %20s %25s %25s %7s %7s %7s %6s %20s%n", "variant", "runs",
          "unusable", "unusable after", "first reaction", "outputs re-run", "re-exec", "maps", "reduces",
          "failed", "job time");
      for (DetectionTradeoff.Point p : t.points(kind)) {
        out.printf(Locale.ROOT, "  %-22s %4d %9s %20s %25s %25s %7.1f %7.1f %7.1f %6d %20s%n", p.variant(),
            p.runs(), p.nodeDeclaredUnusable() + " of " + p.runs(), spread(p.unusableAfterSeconds(), p.runs()),
            spread(p.firstReactionSeconds(), p.runs()), spread(p.outputsRerunAfterSeconds(), p.runs()),
            p.reexecutionsPerRun(), p.finishedMapsRerunPerRun(), p.reducersLostPerRun(), p.failedJobs(),
            spread(p.jobSeconds(), p.runs()));
      }
    }
    out.println();
    out.println("settings:");
    t.points().stream().map(p -> "  " + p.variant() + ": " + p.setting()).forEach(out::println);
    out.println("(outputs re-run: first re-run of a map the node had finished; re-exec, maps, reduces: per run,"
        + " re-executions of the node's tasks, finished maps re-run, reducers lost; 'in k': only k runs"
        + " had the event)");
  }

  private static String spread(Distribution d, int runs) {
    return d.n() == 0 ? "-" : String.format(Locale.ROOT, "%.1f [%.1f, %.1f]", d.median(), d.min(), d.max())
        + (d.n() < runs ? " in " + d.n() : "");
  }
}
