package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Sharding checked on real runs (experiments/scenarios/shards.json, published under
 * published/shards): the suite run once in one process, and again as two shards in separate
 * processes joined by {@code merge}. Both folders must hold the same runs with the same seeds,
 * blocks and inputs, and {@code compare} must give both the same verdict.
 */
class ShardsTest {
  private static final Path ONE = Path.of("published/shards/one-process");
  private static final Path MERGED = Path.of("published/shards/merged");

  private static Map<String, RunRecord> byRun(Path dir) {
    return new RecordStore(dir).readAll().stream().collect(Collectors.toMap(RunRecord::runId, Function.identity()));
  }

  @Test
  void theMergedShardsHoldTheSameRunsSeedsBlocksAndInputs() {
    Map<String, RunRecord> one = byRun(ONE);
    Map<String, RunRecord> merged = byRun(MERGED);
    assertEquals(12, one.size(), "six blocks of two variants");
    assertEquals(one.keySet(), merged.keySet());
    for (String id : one.keySet()) {
      RunRecord a = one.get(id);
      RunRecord b = merged.get(id);
      assertEquals(a.seed(), b.seed(), id);
      assertEquals(a.block(), b.block(), id + ": block, position and size");
      assertEquals(a.workload(), b.workload(), id + ": same input, same data seed");
      assertTrue(a.job().succeeded() && b.job().succeeded(), id);
    }
  }

  @Test
  void bothGetTheSameVerdict() {
    for (Path dir : List.of(ONE, MERGED)) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code = FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true),
          "compare", dir.toString(), "--all-against", "small", "--max-regression", "0");
      assertEquals(1, code, dir + ": the larger sort is slower\n" + out + err);
      assertTrue(out.toString().contains("verdict: WORSE"), out.toString());
      assertTrue(out.toString().contains("paired by block, 6 pairs"), dir + ": compared block by block\n" + out);
    }
  }
}
