package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassifyCommandTest {
  @Test
  void printsEachRunsGroupWithItsEvidenceAndATally(@TempDir Path dir) throws Exception {
    ReportTestRecords.quickstart(dir);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "classify", dir.toString());
    assertEquals(0, code, err.toString());
    String text = out.toString();
    assertTrue(text.contains("baseline-000  no fault  recovery: none needed"), text);
    assertTrue(text.contains("crash-001  G6  recovery: node expiry  seen: running attempts lost"), text);
    assertTrue(text.contains("  - node LOST at 29.0 s: detection 19.6 s, within the expiry 20.0 s"), text);
    assertTrue(text.contains("\nno fault: 1, G6: 4\n"), text);
    assertTrue(text.contains("  - delay +29.7 s against 20.2 s (median of 1 fault-free run(s)): detection (node expiry)"
        + " +22.2, the dead attempt's clean-up +10.6,"), text);
    assertTrue(text.strip().endsWith("delays: 4 run(s) accounted against a reference run of their workload,"
        + " 0 unexplained (0.0 %)"), text);
  }

  @Test
  void jsonHoldsEveryRunsGroupAndTheTally(@TempDir Path dir) throws Exception {
    ReportTestRecords.quickstart(dir);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "classify", dir.toString(), "--json");
    assertEquals(0, code, err.toString());
    var doc = faultbed.results.RecordStore.json().readTree(out.toString());
    assertEquals(5, doc.get("runs").size(), out.toString());
    var crash1 = java.util.stream.StreamSupport.stream(doc.get("runs").spliterator(), false)
        .filter(r -> r.get("runId").asText().equals("crash-001")).findFirst().orElseThrow();
    assertEquals("G6", crash1.get("group").asText(), out.toString());
    assertEquals("NODE_EXPIRY", crash1.get("recovery").asText(), out.toString());
    assertEquals(4, doc.get("groups").get("G6").asInt(), out.toString());
    assertTrue(doc.get("gate").isNull(), out.toString());
  }

  /** --group and --run choose what is printed (the runs of each group and each run named), not what is counted. */
  @Test
  void groupAndRunFiltersShowOnlyThoseRuns(@TempDir Path dir) throws Exception {
    ReportTestRecords.quickstart(dir);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(0, FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "classify",
        dir.toString(), "--group", "no fault", "--run", "crash-001"), err.toString());
    String text = out.toString();
    assertTrue(text.contains("baseline-000  no fault") && text.contains("crash-001  G6") && !text.contains("crash-002"),
        "the group's runs and the run named: " + text);

    out = new StringWriter();
    assertEquals(0, FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "classify",
        dir.toString(), "--group", "g6"), err.toString());
    text = out.toString();
    assertTrue(text.contains("crash-001  G6") && !text.contains("baseline-000"), text);
    assertTrue(text.contains("\nno fault: 1, G6: 4\n"), "the tally still counts every run: " + text);

    out = new StringWriter();
    assertEquals(0, FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "classify",
        dir.toString(), "--run", "crash-002", "--json"), err.toString());
    var doc = faultbed.results.RecordStore.json().readTree(out.toString());
    assertEquals(1, doc.get("runs").size(), out.toString());
    assertEquals(4, doc.get("groups").get("G6").asInt(), out.toString());

    StringWriter bad = new StringWriter();
    assertEquals(2, FaultbedCli.execute(new PrintWriter(new StringWriter(), true), new PrintWriter(bad, true),
        "classify", dir.toString(), "--group", "G9"));
    assertTrue(bad.toString().startsWith("faultbed: --group: \"G9\" is not a group; expected one of no fault,"),
        bad.toString());
    bad = new StringWriter();
    assertEquals(2, FaultbedCli.execute(new PrintWriter(new StringWriter(), true), new PrintWriter(bad, true),
        "classify", dir.toString(), "--run", "crash-999"));
    assertTrue(bad.toString().startsWith("faultbed: --run: \"crash-999\" is not a run in "), bad.toString());
  }

  /** A scenario file beside the records is not a record; a folder of scenarios holds none. */
  @Test
  void otherJsonBesideTheRecordsIsSkipped(@TempDir Path dir) throws Exception {
    ReportTestRecords.quickstart(dir);
    Path scenario = Path.of("..", "experiments", "scenarios", "quickstart.json");
    java.nio.file.Files.copy(scenario, dir.resolve("quickstart.json"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(0, FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "classify",
        dir.toString()), err.toString());
    assertTrue(out.toString().contains("\nno fault: 1, G6: 4\n"), out.toString());

    Path scenarios = java.nio.file.Files.createDirectories(dir.resolve("scenarios"));
    java.nio.file.Files.copy(Path.of("..", "experiments", "scenarios", "dinu-ng-concurrent.json"),
        scenarios.resolve("dinu-ng-concurrent.json"));
    err = new StringWriter();
    assertEquals(2, FaultbedCli.execute(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true),
        "classify", scenarios.toString()));
    assertEquals("faultbed: DIR: expected run records (*.json) in " + scenarios, err.toString().strip());
  }

  @Test
  void aMissingFolderIsBadInput(@TempDir Path dir) {
    StringWriter err = new StringWriter();
    int code = FaultbedCli.execute(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true),
        "classify", dir.resolve("absent").toString());
    assertEquals(2, code);
    assertTrue(err.toString().startsWith("faultbed: DIR: expected a folder of run records"), err.toString());
  }
}
