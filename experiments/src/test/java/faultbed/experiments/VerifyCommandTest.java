package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.results.RecordStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code faultbed verify}: each run against its variant's "expect", from the suite's records and scenario copy. */
class VerifyCommandTest {
  private static ScenarioValidationTest.Result verify(Path dir, String... more) {
    String[] args = new String[2 + more.length];
    args[0] = "verify";
    args[1] = dir.toString();
    System.arraycopy(more, 0, args, 2, more.length);
    return ScenarioValidationTest.cli(args);
  }

  @Test
  void everyRunMeetingItsVariantsExpectationPasses(@TempDir Path dir) throws Exception {
    ReportTestRecords.quickstart(dir);
    Files.writeString(dir.resolve(RecordStore.SCENARIO_COPY), """
        { "workload": { "type": "sort", "size": "1MB" }, "expect": { "state": "SUCCEEDED", "failedMaps": 0 },
          "variants": { "baseline": { "expect": { "speculated": false } }, "crash": {} } }
        """);
    var r = verify(dir);
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("met    crash-002\n  job SUCCEEDED; "), r.out());
    assertTrue(r.out().strip().endsWith("verify: 5 of 5 run(s) met their expectations"), r.out());
  }

  @Test
  void aRunThatDoesNotMeetItsExpectationFailsWithWhatItShowed(@TempDir Path dir) throws Exception {
    ReportTestRecords.quickstart(dir);
    Files.writeString(dir.resolve(RecordStore.SCENARIO_COPY), """
        { "workload": { "type": "sort", "size": "1MB" },
          "variants": { "baseline": {}, "crash": { "expect": { "speculated": true } } } }
        """);
    var r = verify(dir);
    assertEquals(1, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("UNMET  crash-000\n  - speculated: expected true, was false\n  job SUCCEEDED; "), r.out());
    assertTrue(r.out().strip().endsWith("verify: 0 of 4 run(s) met their expectations; 1 run(s) of variants with"
        + " none: baseline-000"), r.out());

    var json = verify(dir, "--json");
    assertEquals(1, json.code());
    var doc = RecordStore.json().readTree(json.out());
    assertEquals(4, doc.get("runs").size());
    assertEquals(false, doc.get("passed").asBoolean());
  }

  @Test
  void aSuiteWhoseScenarioExpectsNothingIsBadInput(@TempDir Path dir) throws Exception {
    ReportTestRecords.quickstart(dir);
    var none = verify(dir);
    assertEquals(2, none.code());
    assertEquals("faultbed: DIR: expected a suite whose scenario states \"expect\" for its variants, got no "
        + RecordStore.SCENARIO_COPY + " in " + dir, none.err().strip());

    Files.writeString(dir.resolve(RecordStore.SCENARIO_COPY), "{ \"workload\": {} }");
    var empty = verify(dir);
    assertEquals(2, empty.code());
    assertTrue(empty.err().strip().endsWith("got none in " + dir), empty.err());
  }
}
