package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario with a sequential design stops at the first look where its verdict is decided, and
 * compare judges the folder by the same design: on the sim backend, turning speculation off under
 * stragglers is slower in every block, so Pocock's first look (8 of at most 24 blocks, where eight
 * ratios of one sign reach p 0.0078 against a level of 0.023) stops the suite WORSE after 16 of 48 runs.
 */
class SequentialSuiteRunTest {
  private static final String SCENARIO = """
      { "name": "sequential", "cluster": { "backend": "sim", "nodes": 40, "timeScale": 0.1 },
        "hadoop": { "mapreduce.task.progress-report.interval": "3000" },
        "workload": { "type": "wordcount", "size": "800MB", "maps": 200, "reduces": 10 },
        "faults": [ { "kind": "slow-node", "node": 3, "at": "0s", "cpu": 0.1 },
                    { "kind": "slow-node", "node": 17, "at": "0s", "cpu": 0.1 },
                    { "kind": "slow-node", "node": 31, "at": "0s", "cpu": 0.1 } ],
        "seed": 11, "runs": 24, "reference": "hadoop3",
        "sequential": { "blocks": 24, "looks": 8, "spending": "pocock" },
        "variants": { "hadoop3": { "speculation": "hadoop3" }, "off": { "speculation": "off" } } }
      """;

  private static ScenarioValidationTest.Result cli(String... args) {
    return ScenarioValidationTest.cli(args);
  }

  @Test
  void aDecidedSuiteStopsEarlyAndCompareGivesTheSameVerdict(@TempDir Path dir) throws Exception {
    Path scenario = dir.resolve("sequential.json");
    Files.writeString(scenario, SCENARIO);
    Path out = dir.resolve("out");
    ScenarioValidationTest.Result run = cli("run", scenario.toString(), "--out", out.toString());
    // (run prints its progress and the sequential verdict on the process's own standard output)
    assertEquals(0, run.code(), run.out() + run.err());
    List<RunRecord> records = new RecordStore(out).readAll();
    assertEquals(16, records.size(), "the blocks after the look are not run");

    ScenarioValidationTest.Result compare = cli("compare", out.toString(), "--all-against", "hadoop3");
    assertEquals(1, compare.code(), compare.out() + compare.err());
    assertTrue(compare.out().contains("the verdict is the sequential gate's"), compare.out());
    assertTrue(compare.out().contains("off: STOP_WORSE after 8 of at most 24 blocks"), compare.out());
    ScenarioValidationTest.Result suites = cli("compare", "--suites", out.toString(), "--all-against", "hadoop3");
    assertEquals(1, suites.code(), suites.out() + suites.err());
    assertTrue(suites.out().contains("ran under a sequential design"), suites.out());

    // plan on the suite's own blocks as a pilot: an A/A-like draw around them, as the gate would run
    ScenarioValidationTest.Result plan = cli("plan", out.toString(), "--variant", "hadoop3", "--sequential",
        scenario.toString(), "--effect", "10%");
    assertEquals(0, plan.code(), plan.out() + plan.err());
    assertTrue(plan.out().contains("blocks expected"), plan.out());
    assertTrue(plan.out().contains("8 pilot blocks (fewer than the design's 24"), plan.out());
  }

  @Test
  void whatASequentialDesignCannotTakeIsRefusedBeforeAnythingRuns(@TempDir Path dir) throws Exception {
    Path scenario = dir.resolve("sequential.json");
    Files.writeString(scenario, SCENARIO);
    String[][] cases = {
        {"--runs", "10"},
        {"--shard", "1/2"},
        {"--variant", "off"},
    };
    for (String[] c : cases) {
      Path out = dir.resolve("out-" + c[0].substring(2));
      ScenarioValidationTest.Result r = cli("run", scenario.toString(), "--out", out.toString(), c[0], c[1]);
      assertEquals(2, r.code(), String.join(" ", c) + "\n" + r.out() + r.err());
      assertTrue(r.err().contains(c[0] + ": expected none for a sequential scenario"), r.err());
      assertEquals(1, r.err().strip().lines().count(), r.err());
      assertTrue(!Files.exists(out) || !Files.list(out).findAny().isPresent(), "nothing written for " + c[0]);
    }
    Files.writeString(scenario, SCENARIO.replace("\"blocks\": 24", "\"blocks\": 20"));
    ScenarioValidationTest.Result r = cli("validate", scenario.toString());
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("sequential.blocks: expected the scenario's 24 blocks"), r.err());
  }
}
