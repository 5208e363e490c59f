package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import faultbed.results.compare.SequentialSuite;
import faultbed.results.stats.SequentialGate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The CI's simulated stage run sequentially (experiments/published/sequential-sim) publishes its
 * rows, not its records (about 1 MB each; the simulation gives them again): its verdict, judged
 * again from the published job times by the design in its scenario copy, is the published one.
 */
class SequentialSimPublishedTest {
  private static final Path PUBLISHED = Path.of("published", "sequential-sim");

  @Test
  void thePublishedRowsStopBetterAtTheSecondLook() throws Exception {
    List<String> rows = Files.readAllLines(PUBLISHED.resolve("runs.csv"));
    List<String> header = List.of(rows.get(0).split(","));
    int variant = header.indexOf("variant");
    int index = header.indexOf("run_index");
    int seconds = header.indexOf("completion_s");
    Map<String, Map<Integer, Double>> times = new TreeMap<>();
    for (String row : rows.subList(1, rows.size())) {
      String[] cells = row.split(",", -1);
      times.computeIfAbsent(cells[variant], v -> new TreeMap<>())
          .put(Integer.parseInt(cells[index]), Double.parseDouble(cells[seconds]));
    }
    // block i holds run i of each variant (RunOrder)
    Map<Integer, Double> reference = times.get("reference");
    Map<Integer, Double> candidate = times.get("candidate");
    assertEquals(32, reference.size(), "blocks run before the suite stopped");
    assertEquals(reference.keySet(), candidate.keySet());
    double[] logRatios = reference.keySet().stream()
        .mapToDouble(b -> Math.log(candidate.get(b) / reference.get(b))).toArray();

    SequentialSuite design = SequentialSuite.of(PUBLISHED).orElseThrow();
    SequentialGate.Outcome outcome = design.gate().decide(logRatios);
    assertEquals(SequentialGate.Decision.STOP_BETTER, outcome.decision(), outcome.describe());
    assertEquals(32, outcome.blocks(), outcome.describe());
    // the first look could not have stopped it: its level is below the smallest p of 16 blocks
    assertEquals(SequentialGate.Decision.CONTINUE, outcome.looks().get(0).decision(), outcome.describe());
  }
}
