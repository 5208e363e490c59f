package faultbed.experiments;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.experiments.scenario.Scenario;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Records the drift experiment of experiments/published/drift: two identical variants (an A/A
 * suite) while a competing load on the machine grows run by run, once in interleaved blocks and
 * once variant by variant. {@link DriftTest} re-analyses the records. Run with
 * {@code -Dfaultbed.drift.out=DIR} (minutes of cluster time); skipped otherwise.
 */
class DriftExperiment {
  /** Busy share of each 50 ms period added per finished run, on one thread per core. */
  static final double DRIFT_PER_RUN = 0.05;

  @Test
  void record() throws Exception {
    String out = System.getProperty("faultbed.drift.out");
    assumeTrue(out != null, "records the drift experiment only when -Dfaultbed.drift.out=DIR is given");
    Path scenarioFile = Path.of("../experiments/published/drift/scenario.json.txt");
    Scenario scenario = ScenarioParser.parse(scenarioFile);
    RunOrder blocked = RunOrder.of(scenario);
    // the same runs, each variant's all before the next's, and no block: nothing to pair
    List<RunOrder.Slot> byVariant = new ArrayList<>(blocked.runs().stream()
        .map(s -> new RunOrder.Slot(s.variant(), s.runIndex(), null)).toList());
    byVariant.sort(Comparator.comparing((RunOrder.Slot s) -> s.variant().name()).thenComparing(RunOrder.Slot::runIndex));
    record(scenario, scenarioFile, blocked, Path.of(out, "blocked"));
    record(scenario, scenarioFile, new RunOrder(byVariant), Path.of(out, "variant-by-variant"));
  }

  private static void record(Scenario scenario, Path scenarioFile, RunOrder order, Path dir) throws Exception {
    Files.createDirectories(dir);
    Files.copy(scenarioFile, dir.resolve("scenario.json.txt"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    AtomicInteger done = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> load = new ArrayList<>();
    for (int c = 0; c < Runtime.getRuntime().availableProcessors(); c++) {
      Thread t = new Thread(() -> {
        while (!stop.get()) {
          long period = 50_000_000L;
          long busy = (long) (period * Math.min(0.95, DRIFT_PER_RUN * done.get()));
          long start = System.nanoTime();
          while (System.nanoTime() - start < busy) {
            Thread.onSpinWait();
          }
          java.util.concurrent.locks.LockSupport.parkNanos(period - busy);
        }
      }, "drift-" + c);
      t.setDaemon(true);
      t.start();
      load.add(t);
    }
    try {
      new SuiteRunner(scenario, order, new RecordStore(dir), new SuiteRunner.Progress() {
        @Override
        public void runFinished(int n, int total, RunRecord record) {
          done.set(n);
          System.out.printf("%s: %s %.1f s, drift now %.0f %% of each core%n", dir.getFileName(), record.runId(),
              record.completionSeconds().orElse(Double.NaN), 100 * Math.min(0.95, DRIFT_PER_RUN * n));
        }
      }, java.util.Map.of(), Provenances.here(scenarioFile)).run();
    } finally {
      stop.set(true);
      for (Thread t : load) {
        t.join();
      }
    }
  }
}
