package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The pilots behind the CI gate's sizes (experiments/scenarios/gate-power-*.json, published under
 * published/gate-power): A/A suites in blocks, re-analysed on every test run. At the size each CI
 * scenario runs, the gate's measured false-alarm rate must stay within its alpha, and the figures
 * BENCHMARKS.md quotes must be the ones the code computes from these records.
 */
class GatePowerTest {
  private static final Path PUBLISHED = Path.of("published/gate-power");

  @ParameterizedTest
  @CsvSource({"stragglers, 10, a a-again b", "crash, 8, a a-again", "crash-hadoop3, 8, a a-again", "crash-pinned, 8, pinned pinned-again",
      "stragglers-pair, 10, pinned pinned-again",
      "stragglers-pinned, 8, a a-again pinned pinned-again"})
  void theRecordsAreCompleteBlocksWithTheSameFaultDraw(String pilot, int blocks, String variants) {
    Set<String> names = Set.of(variants.split(" "));
    List<RunRecord> runs = new RecordStore(PUBLISHED.resolve(pilot)).readAll();
    assertEquals(names.size() * blocks, runs.size());
    Map<Integer, List<RunRecord>> byBlock = runs.stream()
        .collect(Collectors.groupingBy(r -> r.block().index(), TreeMap::new, Collectors.toList()));
    assertEquals(blocks, byBlock.size());
    for (List<RunRecord> block : byBlock.values()) {
      assertEquals(names, block.stream().map(RunRecord::variant).collect(Collectors.toSet()));
      assertEquals(names.size(), block.stream().map(r -> r.block().position()).distinct().count());
      assertEquals(1, block.stream().map(RunRecord::seed).distinct().count(), "one seed per block");
      // the same fault draw: the same kinds, roles and offsets for every variant of the block
      assertEquals(1, block.stream().map(r -> r.faults().stream()
          .map(f -> f.kind() + "/" + f.target() + "/" + f.scheduledMs()).toList()).distinct().count(),
          () -> "block " + block.get(0).block().index());
      assertTrue(block.stream().allMatch(r -> "SUCCEEDED".equals(r.job().state())), "every job finished");
    }
  }

  @ParameterizedTest
  @CsvSource({"stragglers, 8, a, a-again, b", "crash, 10, a, a-again, ''", "crash-hadoop3, 10, a, a-again, ''", "crash-pinned, 10, pinned, pinned-again, ''",
      "stragglers-pair, 10, pinned, pinned-again, ''",
      "stragglers-pinned, 8, pinned, pinned-again, ''", "stragglers-pinned, 8, a, a-again, ''"})
  void atTheCiSizeTheGateKeepsItsAlphaAndTheFiguresAreThePublishedOnes(String pilot, int ciBlocks, String reference,
      String same, String changed) throws IOException {
    List<String> args = new ArrayList<>(List.of("calibrate", PUBLISHED.resolve(pilot).toString(), "--reference",
        reference, "--same", same, "--blocks", Integer.toString(ciBlocks), "--max-regression", "0"));
    if (changed != null && !changed.isEmpty()) {
      args.addAll(List.of("--changed", changed));
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
    assertEquals(0, code, err.toString());
    String o = out.toString();
    String row = o.lines().filter(l -> l.trim().replace("*", "").startsWith(ciBlocks + " ")).findFirst()
        .orElseThrow(() -> new AssertionError(o));
    // blocks, minutes, then paired [interval] / unpaired for the A/A pair, x1.05, x1.10 (and the changed variant)
    String[] cells = row.replaceAll("[\\[\\],/*]", " ").trim().split("\\s+");
    assertTrue(Double.parseDouble(cells[2]) <= 0.05, "paired false alarms within alpha:\n" + o);
    assertTrue(Double.parseDouble(cells[5]) <= 0.05, "unpaired false alarms within alpha:\n" + o);
    String benchmarks = Files.readString(Path.of("..", "BENCHMARKS.md"));
    assertTrue(benchmarks.contains(row.strip()), "BENCHMARKS.md quotes this row:\n" + row.strip());
  }
}
