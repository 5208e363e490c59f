package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Simulated suites published as rows, not as their records (hundreds of megabytes of 14- to
 * 243-node jobs): the CI gate's pilot and the seeds' experiments at their own scale. The simulation
 * is deterministic, so the scenario run again gives the same runs. This runs each suite's first
 * block again and checks every run's row against the published one: its job time, fault, recovery,
 * mechanisms and counts exactly; its group but for G1 against G2 and its evidence not at all, since
 * those are judged against the median of the suite's fault-free runs (ten there, one here).
 */
class SimPublishedRowsTest {
  @ParameterizedTest
  @CsvSource({"gate-power-sim, gate-power/sim", "dinu-ng-seed-scale-sim, dinu-ng-seed-scale-sim",
      "late-stragglers-ec2-sim, late-stragglers-ec2-sim", "late-heterogeneous-ec2-sim, late-heterogeneous-ec2-sim"})
  void theFirstBlockRunAgainGivesThePublishedRows(String scenario, String published, @TempDir Path dir) throws Exception {
    Map<String, List<String>> rows = byRunId(Path.of("published").resolve(published).resolve("runs.csv"));
    cli("run", "scenarios/" + scenario + ".json", "--runs", "1", "--out", dir.toString());
    cli("report", dir.toString());
    Map<String, List<String>> again = byRunId(dir.resolve("runs.csv"));
    assertEquals(rows.keySet().stream().filter(id -> id.endsWith("-000")).sorted().toList(),
        again.keySet().stream().sorted().toList(), "the first block's runs");
    again.forEach((id, row) -> assertEquals(rows.get(id), row, id));
  }

  /** The gate's pilot: a-again is a run twice under another name, with draws of its own. */
  @Test
  void theGatePilotsSecondNameDrawsOfItsOwn(@TempDir Path dir) throws Exception {
    cli("run", "scenarios/gate-power-sim.json", "--runs", "1", "--variant", "a", "--variant", "a-again",
        "--out", dir.toString());
    Map<String, Long> times = new HashMap<>();
    for (RunRecord r : new RecordStore(dir).readAll()) {
      times.put(r.variant(), r.job().finishedMs());
    }
    assertEquals(2, times.size(), times.toString());
    assertNotEquals(times.get("a"), times.get("a-again"), "a stream of its own draws other work");
  }

  private static void cli(String... args) {
    ScenarioValidationTest.Result result = ScenarioValidationTest.cli(args);
    assertEquals(0, result.code(), result.out() + result.err());
  }

  /** A suite's runs.csv rows by run id, without the evidence, G1 and G2 both "G1/G2". */
  private static Map<String, List<String>> byRunId(Path csv) throws java.io.IOException {
    Map<String, List<String>> rows = new HashMap<>();
    List<String> lines = Files.readAllLines(csv);
    List<String> header = List.of(lines.get(0).split(","));
    int group = header.indexOf("group");
    int evidence = header.indexOf("evidence");
    assertEquals(header.size() - 1, evidence, "evidence is the last column: " + header);
    for (String line : lines.subList(1, lines.size())) {
      List<String> cells = new ArrayList<>(List.of(line.split(",", header.size())).subList(0, evidence));
      cells.set(group, cells.get(group).replaceAll("^G[12]$", "G1/G2"));
      rows.put(cells.get(0), cells);
    }
    return rows;
  }
}
