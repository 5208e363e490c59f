package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulated stage's pilot (experiments/published/gate-power/sim) publishes its runs' rows, not
 * its 800 records of 200-node jobs: the simulation is deterministic, so running the scenario again
 * gives the same runs, which this checks on its first blocks.
 */
class SimGatePilotTest {
  private static final Path PUBLISHED = Path.of("published", "gate-power", "sim");

  @Test
  void theFirstBlocksRunAgainGiveThePublishedJobTimes(@TempDir Path dir) throws Exception {
    Map<String, String> published = new HashMap<>();
    List<String> rows = Files.readAllLines(PUBLISHED.resolve("runs.csv"));
    List<String> header = List.of(rows.get(0).split(","));
    int id = header.indexOf("run_id");
    int seconds = header.indexOf("completion_s");
    for (String row : rows.subList(1, rows.size())) {
      String[] cells = row.split(",", -1);
      published.put(cells[id], cells[seconds]);
    }
    ScenarioValidationTest.Result run = ScenarioValidationTest.cli("run", "scenarios/gate-power-sim.json", "--runs", "2",
        "--out", dir.toString());
    assertEquals(0, run.code(), run.out() + run.err());
    List<RunRecord> again = new RecordStore(dir).readAll();
    assertEquals(8, again.size());
    for (RunRecord r : again) {
      assertEquals(published.get(r.runId()), String.format(java.util.Locale.ROOT, "%.3f", r.job().finishedMs() / 1000.0),
          r.runId());
    }
    // a-again's draws are its own: its job times are not a's
    assertFalse(again.stream().filter(r -> r.variant().equals("a")).map(r -> r.job().finishedMs()).toList()
        .equals(again.stream().filter(r -> r.variant().equals("a-again")).map(r -> r.job().finishedMs()).toList()));
  }
}
