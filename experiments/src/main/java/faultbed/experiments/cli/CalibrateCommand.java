package faultbed.experiments.cli;

import faultbed.experiments.scenario.PilotOfGate;
import faultbed.experiments.scenario.Scenario;
import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.compare.GateCalibration;
import faultbed.results.compare.SampleSet;
import faultbed.results.Distribution;
import faultbed.results.stats.GateThresholds;
import faultbed.results.stats.PilotPower;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The gate's measured false-alarm and detection rates, from a recorded A/A suite. Reads records only. */
@Command(name = "calibrate", mixinStandardHelpOptions = true, description = {
    "Measures how often 'faultbed compare' fails a suite (false alarms, and detection of a known slowdown) "
        + "by drawing suites of n blocks from a recorded suite that ran one variant twice (no cluster needed).",
    "SUITE is a folder of run records in blocks with the variants named by --reference and --same (identical "
        + "settings: an A/A pair) and, if given, --changed (a known difference). Paired rates come with a 90%% "
        + "interval from re-drawing the pilot's blocks, by the method 'faultbed plan' uses. Exit 0: measured; "
        + "2: bad input."})
final class CalibrateCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "SUITE", description = "folder of run records that ran in blocks")
  Path suite;

  @Option(names = "--reference", paramLabel = "V", required = true, description = "the reference variant")
  String reference;

  @Option(names = "--same", paramLabel = "V", required = true,
      description = "a variant with the same settings as the reference")
  String same;

  @Option(names = "--changed", paramLabel = "V", description = "a variant with a known difference (optional)")
  String changed;

  @Option(names = "--blocks", paramLabel = "N,...", split = ",", defaultValue = "4,6,8,10,12,16",
      description = "suite sizes in blocks (default ${DEFAULT-VALUE})")
  List<Integer> sizes;

  @Option(names = "--shift", paramLabel = "PCT,...", split = ",", defaultValue = "5,10",
      description = "known slowdowns laid on the A/A pair, in percent (default ${DEFAULT-VALUE})")
  List<Double> shifts;

  @Option(names = "--alpha", paramLabel = "A", defaultValue = "0.05",
      description = "the gate's significance level (default ${DEFAULT-VALUE})")
  double alpha;

  @Option(names = "--max-regression", paramLabel = "PCT", defaultValue = "10",
      description = "the gate's allowed slowdown of the median (default ${DEFAULT-VALUE})")
  double maxRegression;

  @Option(names = "--gate", paramLabel = "SCENARIO",
      description = "the gate scenario the pilot stands for (ci/scenarios/*.json): refuse unless --reference and"
          + " --same ran as one of its variants, in everything but the name")
  Path gate;

  @Option(names = "--draws", paramLabel = "K", defaultValue = "2000",
      description = "suites drawn per size from the pilot as recorded (default ${DEFAULT-VALUE}); each interval"
          + " re-draws the pilot 200 times, 200 suites each")
  int draws;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (!(alpha > 0 && alpha < 1)) {
      return bad(err, "--alpha: expected a number between 0 and 1, got " + alpha);
    }
    if (!(maxRegression >= 0) || Double.isInfinite(maxRegression)) {
      return bad(err, "--max-regression: expected a percentage of 0 or more, got " + maxRegression);
    }
    if (draws < 10) {
      return bad(err, "--draws: expected at least 10, got " + draws);
    }
    for (int n : sizes) {
      if (n < 2) {
        return bad(err, "--blocks: expected sizes of 2 or more blocks, got " + n);
      }
    }
    for (double s : shifts) {
      if (!(s > 0) || Double.isInfinite(s)) {
        return bad(err, "--shift: expected percentages above 0, got " + s);
      }
    }
    if (!Files.isDirectory(suite)) {
      return bad(err, "SUITE: expected a folder of run records, got " + suite);
    }
    List<RunRecord> records = new RecordStore(suite).readAll();
    if (gate != null) {
      String mismatch = gateMismatch(records);
      if (mismatch != null) {
        return bad(err, mismatch);
      }
    }
    GateCalibration calibration;
    try {
      calibration = GateCalibration.of(SampleSet.read(suite), reference, same, changed, sizes,
          shifts.stream().map(s -> 1 + s / 100).toList(), new GateThresholds(alpha, maxRegression),
          PilotPower.Method.DEFAULT.withSuites(draws), secondsPerRun(records));
    } catch (SampleSet.InvalidSampleSource e) {
      return bad(err, "SUITE: " + e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(calibration.table());
    out.flush();
    return 0;
  }

  /** One line saying how the pilot's A/A pair is not the gate's variant; null when it is. */
  private String gateMismatch(List<RunRecord> records) {
    if (!Files.isRegularFile(gate)) {
      return "--gate: expected a scenario file, got " + gate;
    }
    Scenario gateScenario;
    try {
      gateScenario = ScenarioParser.parse(gate);
    } catch (ScenarioException e) {
      return "--gate: " + e.getMessage();
    }
    Path copy = suite.resolve(RecordStore.SCENARIO_COPY);
    if (!Files.isRegularFile(copy)) {
      return "SUITE: expected the scenario it ran (" + RecordStore.SCENARIO_COPY + ") to check against --gate, got none in "
          + suite;
    }
    Scenario pilot;
    try {
      pilot = ScenarioParser.parse(copy);
    } catch (ScenarioException e) {
      return "SUITE: " + RecordStore.SCENARIO_COPY + ": " + e.getMessage();
    }
    for (String variant : List.of(reference, same)) {
      if (pilot.variants().stream().noneMatch(v -> v.name().equals(variant))) {
        return "SUITE: expected a variant " + variant + " in " + RecordStore.SCENARIO_COPY;
      }
      var difference = PilotOfGate.difference(pilot, variant,
          records.stream().filter(r -> variant.equals(r.variant())).toList(), gateScenario);
      if (difference.isPresent()) {
        return "SUITE: variant " + variant + " is not the gate " + gate + ": " + difference.get();
      }
    }
    return null;
  }

  /** Median gap between consecutive run starts: a run and the reset after it. NaN when unknown. */
  static double secondsPerRun(List<RunRecord> records) {
    List<Instant> starts = new ArrayList<>();
    for (RunRecord r : records) {
      try {
        if (r.startedAt() != null) {
          starts.add(Instant.parse(r.startedAt()));
        }
      } catch (DateTimeParseException e) {
        // a record without a readable start time says nothing about the pace
      }
    }
    starts.sort(Comparator.naturalOrder());
    if (starts.size() < 2) {
      return Double.NaN;
    }
    double[] gaps = new double[starts.size() - 1];
    for (int i = 1; i < starts.size(); i++) {
      gaps[i - 1] = (starts.get(i).toEpochMilli() - starts.get(i - 1).toEpochMilli()) / 1000.0;
    }
    return Distribution.quantile(gaps, 50);
  }

  private static int bad(PrintWriter err, String message) {
    err.println("faultbed: " + message);
    err.flush();
    return FaultbedCli.BAD_INPUT;
  }
}
