package faultbed.junit;

import faultbed.experiments.Provenances;
import faultbed.experiments.RunOrder;
import faultbed.experiments.SuiteRunner;
import faultbed.experiments.scenario.Preconditions;
import faultbed.experiments.scenario.Scenario;
import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs scenario files as suites from a test, as {@code faultbed run} does: the same parsing, the same
 * checks of this host, interleaved blocks and records. A scenario this host cannot run (no root for
 * the namespace backend, no Docker engine for containers) skips the test with the reason, as
 * {@code faultbed run} exits 3; a scenario file with an error fails it with the one line
 * {@code faultbed validate} prints.
 */
public final class Suites {
  private final Path dir;
  private final Consumer<String> report;

  Suites(Path dir, Consumer<String> report) {
    this.dir = dir;
    this.report = report;
  }

  /** Runs the scenario file as it is. */
  public Suite run(Path scenarioFile) {
    return run(scenarioFile, UnaryOperator.identity());
  }

  /**
   * Runs the scenario file after {@code change} (for example {@code s -> s.withRuns(10)}, or
   * {@code s -> s.onlyVariants(List.of("candidate"))}).
   */
  public Suite run(Path scenarioFile, UnaryOperator<Scenario> change) {
    Scenario scenario;
    try {
      scenario = change.apply(ScenarioParser.parse(scenarioFile));
    } catch (ScenarioException e) {
      throw new IllegalArgumentException(scenarioFile + ": " + e.getMessage(), e);
    }
    List<String> problems = Preconditions.problems(scenario);
    Assumptions.assumeTrue(problems.isEmpty(), () -> "cannot run " + scenarioFile + " here: " + problems.get(0));
    Path out = dir.resolve(scenario.name());
    try {
      if (Files.exists(out)) { // a test run again starts its suite afresh
        try (var files = Files.walk(out)) {
          for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
      Files.createDirectories(out);
      Files.copy(scenarioFile, out.resolve(RecordStore.SCENARIO_COPY), StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the suite's records to " + out, e);
    }
    RunOrder order = RunOrder.of(scenario);
    report.accept(scenario.name() + ": " + order.size() + " run(s) in " + order.blocks() + " block(s) -> " + out);
    var summary = new SuiteRunner(scenario, order, new RecordStore(out), new SuiteRunner.Progress() {
      @Override
      public void runFinished(int done, int total, RunRecord record) {
        report.accept(done + "/" + total + " " + record.runId() + ": " + (record.job() == null ? "harness error"
            : record.job().state() + record.completionSeconds().map(s -> " " + s + " s").orElse("")));
      }
    }, Map.of(), Provenances.here(scenarioFile)).run();
    return new Suite(out, summary);
  }
}
