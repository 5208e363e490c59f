package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.compare.BlockedSuite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A variant's expectation, as its scenario states it, checked against the facts of each record. */
class ExpectationTest {

  /** A succeeded job of 2 maps and 1 reduce; {@code extra} attempts are added to one attempt each. */
  private static RunRecord run(String variant, RunRecord.AttemptRecord... extra) {
    RunRecord r = BlockedSuite.record(variant, 0, 1, 30);
    List<RunRecord.AttemptRecord> attempts = new ArrayList<>(List.of(attempt("m", 0, 0, "SUCCEEDED", false),
        attempt("m", 1, 0, "SUCCEEDED", false), attempt("r", 0, 0, "SUCCEEDED", false)));
    attempts.addAll(List.of(extra));
    return new RunRecord(r.schemaVersion(), r.runId(), r.scenario(), r.variant(), r.runIndex(), r.seed(), r.startedAt(),
        r.cluster(), r.hadoop(), r.workload(), r.nodes(), r.faults(), r.nodeTransitions(), attempts, r.fetchFailures(),
        new RunRecord.JobOutcome("job_1", "SUCCEEDED", true, 0L, 30_000L, 2, 1, null), r.harnessMs(), r.notes(),
        r.speculation(), r.timeScale(), r.companionJobs(), r.block(), r.provenance(), r.amAttempts(), null, null, null, null, null, null, null, null);
  }

  private static RunRecord.AttemptRecord attempt(String type, int task, int attempt, String state, boolean speculative) {
    String t = String.format("task_1_0001_%s_%06d", type, task);
    return new RunRecord.AttemptRecord(t.replace("task", "attempt") + "_" + attempt, t, type.equals("m") ? "MAP" : "REDUCE",
        attempt, 1, "localhost:1", "c", 0L, 1L, null, null, null, state, speculative, null, 1, null);
  }

  private static final String SCENARIO = """
      { "workload": { "type": "synthetic" }, "expect": { "state": "SUCCEEDED", "failedMaps": 0 },
        "variants": { "slow": { "expect": { "speculated": true } }, "even": { "expect": { "speculated": false } },
                      "free": {}, "lenient": { "expect": { "failedMaps": 1 } } } }
      """;

  @Test
  void aVariantsFieldsGoOverTheScenariosAndEveryVariantInheritsThem() throws IOException {
    Map<String, Expectation> e = Expectation.ofScenario(RecordStore.json().readTree(SCENARIO));
    assertEquals(new Expectation("SUCCEEDED", true, 0), e.get("slow"));
    assertEquals(new Expectation("SUCCEEDED", false, 0), e.get("even"));
    assertEquals(new Expectation("SUCCEEDED", null, 0), e.get("free"));
    assertEquals(new Expectation("SUCCEEDED", null, 1), e.get("lenient"));
  }

  @Test
  void aBackupMeetsSpeculatedAndItsAbsenceDoesNot() throws IOException {
    Map<String, Expectation> e = Expectation.ofScenario(RecordStore.json().readTree(SCENARIO));
    RunRecord backedUp = run("slow", attempt("m", 0, 1, "KILLED", true));
    assertTrue(e.get("slow").check(backedUp).met());
    var v = e.get("even").check(backedUp);
    assertEquals(List.of("speculated: expected false, was true"), v.unmet());
    assertTrue(v.observed().contains("backups: attempt_1_0001_m_000000_1 on node 1 (KILLED)"), v.observed());
    assertTrue(v.observed().contains("3 map attempts for 2 maps"), v.observed());

    var none = e.get("slow").check(run("slow"));
    assertEquals(List.of("speculated: expected true, was false"), none.unmet());
  }

  @Test
  void aRetriedMapIsAFailedMapNotABackup() throws IOException {
    Map<String, Expectation> e = Expectation.ofScenario(RecordStore.json().readTree(SCENARIO));
    RunRecord retried = run("even", attempt("m", 1, 1, "FAILED", false), attempt("m", 1, 2, "SUCCEEDED", false));
    assertEquals(List.of("failedMaps: expected 0, was 1"), e.get("even").check(retried).unmet());
    assertTrue(e.get("lenient").check(retried).met());
  }

  @Test
  void aNamedTaskMustOrMustNotHaveBeenBackedUp() throws IOException {
    Map<String, Expectation> e = Expectation.ofScenario(RecordStore.json().readTree("""
        { "expect": { "backedUp": { "map 0": true } },
          "variants": { "first": {}, "not-first": { "expect": { "backedUp": { "map 0": false, "reduce 0": false } } } } }
        """));
    assertEquals(Map.of("map 0", false, "reduce 0", false), e.get("not-first").backedUp());
    RunRecord map1BackedUp = run("first", attempt("m", 1, 1, "KILLED", true));
    assertEquals(List.of("backedUp.map 0: expected true, was false"), e.get("first").check(map1BackedUp).unmet());
    assertTrue(e.get("not-first").check(map1BackedUp).met());
    RunRecord map0BackedUp = run("first", attempt("m", 0, 1, "SUCCEEDED", true));
    assertTrue(e.get("first").check(map0BackedUp).met());
    assertEquals(List.of("backedUp.map 0: expected false, was true"), e.get("not-first").check(map0BackedUp).unmet());

    var bad = assertThrows(Expectation.Invalid.class, () -> Expectation.ofScenario(
        RecordStore.json().readTree("{ \"expect\": { \"backedUp\": { \"task 0\": true } } }")));
    assertEquals("expect.backedUp: expected tasks named \"map N\" or \"reduce N\", got \"task 0\"", bad.getMessage());
  }

  @Test
  void theJobsStateIsChecked() throws IOException {
    RunRecord r = BlockedSuite.record("free", 0, 1, Double.NaN);
    var v = Expectation.ofScenario(RecordStore.json().readTree(SCENARIO)).get("free").check(r);
    assertEquals(List.of("state: expected SUCCEEDED, was FAILED"), v.unmet());
  }

  @Test
  void aSuiteFolderGivesItsScenarioCopysExpectationsAndNothingWithoutOne(@TempDir Path dir) throws IOException {
    assertTrue(Expectation.ofSuite(dir).isEmpty());
    Files.writeString(dir.resolve(RecordStore.SCENARIO_COPY), SCENARIO);
    assertEquals(4, Expectation.ofSuite(dir).orElseThrow().size());
  }

  @Test
  void whatCannotBeCheckedIsNamedByItsField() throws IOException {
    var bad = RecordStore.json().readTree("{ \"variants\": { \"a\": { \"expect\": { \"failedMaps\": 1.5 } } } }");
    var e = assertThrows(Expectation.Invalid.class, () -> Expectation.ofScenario(bad));
    assertEquals("variants.a.expect.failedMaps", e.field());
    assertEquals("expected a count of 0 or more, got 1.5", e.expected());
  }
}
