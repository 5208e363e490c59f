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
 * A scenario on the sim backend goes through the same commands as a real one: run writes records
 * that report, classify and compare read; a cluster far larger than this machine is allowed; what
 * the simulation cannot time or drive is refused with one line naming the field, before anything runs.
 */
class SimScenarioTest {
  private static final String LARGE = """
      { "name": "sim-crash", "cluster": { "backend": "sim", "nodes": 100, "timeScale": 0.1 },
        "hadoop": { "yarn.nm.liveness-monitor.expiry-interval-ms": "20000" },
        "workload": { "type": "sort", "size": "8GB", "maps": 800, "reduces": 20 },
        "faults": [ { "kind": "crash", "node": "most-maps", "spareAm": true, "at": "15s" },
                    { "kind": "cpu-hog", "node": "random", "spareAm": true, "at": "10s", "spinners": 2 } ],
        "seed": 5, "runs": 2, "reference": "hadoop3",
        "variants": { "hadoop3": { "speculation": "hadoop3" }, "late": { "speculation": "late" } } }
      """;

  private static ScenarioValidationTest.Result cli(String... args) {
    return ScenarioValidationTest.cli(args);
  }

  @Test
  void aHundredNodeSuiteRunsAndIsReadLikeARealOne(@TempDir Path dir) throws Exception {
    Path scenario = dir.resolve("sim-crash.json");
    Files.writeString(scenario, LARGE);
    Path out = dir.resolve("out");
    ScenarioValidationTest.Result run = cli("run", scenario.toString(), "--out", out.toString());
    assertEquals(0, run.code(), run.out() + run.err());
    List<RunRecord> records = new RecordStore(out).readAll();
    assertEquals(4, records.size());
    for (RunRecord r : records) {
      assertTrue(r.job().succeeded(), r.runId() + ": " + r.job());
      assertEquals("sim", r.cluster().backend());
      assertEquals(100, r.cluster().nodes());
      assertTrue(r.faults().stream().allMatch(f -> f.injectedMs() != null), r.faults().toString());
      assertTrue(r.attempts().stream().anyMatch(a -> a.type().equals("MAP") && a.attempt() > 0),
          r.runId() + ": the crashed node's maps ran again");
    }
    // the variants of a block saw the same fault times and nodes (common random numbers)
    assertEquals(records.get(0).faults().get(0).injectedMs(), records.get(1).faults().get(0).injectedMs());
    assertEquals(0, cli("report", out.toString()).code());
    ScenarioValidationTest.Result classify = cli("classify", out.toString());
    assertEquals(0, classify.code(), classify.out() + classify.err());
    ScenarioValidationTest.Result compare = cli("compare", out.toString(), "--all-against", "hadoop3");
    assertTrue(compare.code() <= 1, compare.out() + compare.err());
    assertTrue(compare.out().contains("late"), compare.out());
  }

  @Test
  void whatTheSimulationCannotExpressIsRefusedBeforeAnythingRuns(@TempDir Path dir) throws Exception {
    // a model that does not know what a map's output weighs cannot time a link's cap or delay
    faultbed.harness.timemodel.TimeModel standard = faultbed.harness.timemodel.TimeModel.standard();
    java.util.Map<String, faultbed.harness.timemodel.TimeModel.WorkloadTimes> unweighed = new java.util.TreeMap<>();
    standard.workloads().forEach((type, w) -> unweighed.put(type, new faultbed.harness.timemodel.TimeModel.WorkloadTimes(
        w.bytesPerMap(), w.map(), w.reduce(), w.shuffleLag(), w.sort(), w.mapProgress(), w.shuffleTail(),
        w.lateShuffle(), null, null)));
    Path model = dir.resolve("unweighed.json");
    new faultbed.harness.timemodel.TimeModel("unweighed", standard.fittedFrom(), unweighed, standard.jobSetupMs(),
        standard.jobCommitMs(), standard.slowdowns(), standard.baseline()).write(model);
    String[][] cases = {
        {"\"hadoop\": { \"faultbed.sim.model\": \"" + model + "\" }, \"faults\": [ { \"kind\": \"latency\", \"node\": 1,"
            + " \"at\": \"5s\", \"delay\": \"100ms\" } ]",
            "faults: a latency shapes what crosses a link, and the time model \"unweighed\" does not know how many bytes"
                + " a sort map's output holds"},
        {"\"workload\": { \"type\": \"synthetic\", \"maps\": 4, \"reduces\": 1, \"mapTime\": \"5s\", \"reduceTime\": \"1s\" }",
            "workload.type: the time model \"default\" knows [sort, wordcount], got \"synthetic\""},
        {"\"hadoop\": { \"faultbed.sim.model\": \"no-such-model.json\" }", "hadoop.faultbed.sim.model: time model"},
        {"\"hadoop\": { \"faultbed.sim.shared-cores\": \"two\" }", "hadoop.faultbed.sim.shared-cores: expected a positive"},
        {"\"hadoop\": { \"faultbed.sim.node-cores\": \"0\" }", "hadoop.faultbed.sim.node-cores: expected a positive number of cores, e.g. \"2\", got \"0\""},
        {"\"hadoop\": { \"faultbed.sim.am-nodes\": \"1,4\" }",
            "hadoop.faultbed.sim.am-nodes: expected node indices below 4 or \"-\", e.g. \"2,0,-,3\", got \"4\" for run 1"},
        {"\"hadoop\": { \"faultbed.sim.am-nodes\": \"1/2\" }",
            "hadoop.faultbed.sim.am-nodes: expected one node index or \"-\" for each run"},
        {"\"hadoop\": { \"faultbed.sim.liveness-checks\": \"5000,-,soon\" }",
            "hadoop.faultbed.sim.liveness-checks: expected milliseconds since the job started or \"-\" for each run,"
                + " e.g. \"53200,-,49800\", got \"soon\" for run 2"},
        {"\"hadoop\": { \"faultbed.sim.setups\": \"-1\" }",
            "hadoop.faultbed.sim.setups: expected milliseconds since the job started or \"-\" for each run,"
                + " e.g. \"3280,-,11118\", got \"-1\" for run 0"},
        {"\"hadoop\": { \"faultbed.sim.fault-nodes\": \"2/x\" }",
            "hadoop.faultbed.sim.fault-nodes: expected node indices below 4 or \"-\", e.g. \"2/2,0/0,-\", got \"x\" for run 0"},
    };
    for (String[] c : cases) {
      String text = "{ \"name\": \"t\", \"cluster\": { \"backend\": \"sim\" }, "
          + "\"workload\": { \"type\": \"sort\", \"size\": \"64MB\" }, " + c[0] + " }";
      text = text.replace("\"workload\": { \"type\": \"sort\", \"size\": \"64MB\" }, \"workload\"", "\"workload\"");
      Path scenario = dir.resolve("t.json");
      Files.writeString(scenario, text);
      ScenarioValidationTest.Result r = cli("validate", scenario.toString());
      assertEquals(2, r.code(), c[0] + "\n" + r.out() + r.err());
      assertTrue(r.err().contains(c[1]), c[0] + "\n" + r.err());
      assertEquals(1, r.err().strip().lines().count(), r.err());
    }
    ScenarioValidationTest.Result up = cli("cluster", "up", "--backend", "sim");
    assertEquals(2, up.code(), up.out() + up.err());
    assertTrue(up.err().contains("the sim backend has none"), up.err());
  }
}
