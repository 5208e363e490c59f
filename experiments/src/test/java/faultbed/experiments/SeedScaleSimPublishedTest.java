package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The seeds' experiments at their own scale are published as rows, not as their records (over a
 * hundred megabytes of 14- and 100-node jobs): the simulation is deterministic, so the scenario run
 * again gives the same runs. This runs each suite's first block again and checks every run's row
 * against the published one: its job time, fault, recovery, mechanisms and counts exactly; its group
 * but for G1 against G2 and its evidence not at all, since those are judged against the median of
 * the suite's fault-free runs (ten there, one here).
 */
class SeedScaleSimPublishedTest {
  @ParameterizedTest
  @ValueSource(strings = {"dinu-ng-seed-scale-sim", "late-stragglers-ec2-sim"})
  void theFirstBlockRunAgainGivesThePublishedRows(String suite, @TempDir Path dir) throws Exception {
    Map<String, List<String>> published = byRunId(Path.of("published", suite, "runs.csv"));
    ScenarioValidationTest.Result run = ScenarioValidationTest.cli("run", "scenarios/" + suite + ".json", "--runs", "1",
        "--out", dir.toString());
    assertEquals(0, run.code(), run.out() + run.err());
    ScenarioValidationTest.Result report = ScenarioValidationTest.cli("report", dir.toString());
    assertEquals(0, report.code(), report.out() + report.err());
    Map<String, List<String>> again = byRunId(dir.resolve("runs.csv"));
    assertEquals(published.keySet().stream().filter(id -> id.endsWith("-000")).sorted().toList(),
        again.keySet().stream().sorted().toList(), "the first block's runs");
    again.forEach((id, row) -> assertEquals(published.get(id), row, id));
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
