package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.faults.Cgroup;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A long suite continued in several sittings: recorded runs are kept, and only the same scenario may resume. */
class ResumeTest {
  private static final String SCENARIO = """
      { "name": "r", "workload": { "type": "sort", "size": "1MB" }, "runs": 3, "seed": 1 }
      """;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int faultbed(String... args) {
    return FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  private static Path suite(Path dir, Path scenario, int recorded) throws IOException {
    Files.createDirectories(dir);
    Files.copy(scenario, dir.resolve("scenario.json.txt"));
    RecordStore store = new RecordStore(dir);
    for (int i = 0; i < recorded; i++) {
      store.write(new RunRecord(RunRecord.SCHEMA_VERSION, String.format("default-%03d", i), "r", "default", i, i, "t",
          new RunRecord.ClusterInfo("mini", 4, 1024, 2), Map.of(), null, List.of(), List.of(), List.of(), List.of(),
          List.of(), new RunRecord.JobOutcome("job_" + i, "SUCCEEDED", true, 0L, 20_000L + i, 8, 2, null), Map.of(),
          List.of(), null, null, List.of(), null, null, List.of(), null, null, null, null, null, null, null, null));
    }
    return dir;
  }

  @Test
  void aCompleteSuiteResumesWithoutStartingAClusterAndKeepsItsRecords(@TempDir Path tmp) throws IOException {
    Path scenario = Files.writeString(tmp.resolve("r.json"), SCENARIO);
    Path dir = suite(tmp.resolve("out"), scenario, 3);
    List<String> groups = Cgroup.instances();
    assertEquals(0, faultbed("run", scenario.toString(), "--out", dir.toString(), "--resume"), err.toString());
    assertEquals(groups, Cgroup.instances(), "no cluster started");
    assertEquals(3, new RecordStore(dir).readAll().size());
    assertTrue(Files.exists(dir.resolve("summary.json")));
  }

  @Test
  void anotherScenarioFileCannotResumeTheFolder(@TempDir Path tmp) throws IOException {
    Path scenario = Files.writeString(tmp.resolve("r.json"), SCENARIO);
    Path dir = suite(tmp.resolve("out"), scenario, 1);
    Path other = Files.writeString(tmp.resolve("other.json"), SCENARIO.replace("\"runs\": 3", "\"runs\": 4"));
    assertEquals(2, faultbed("run", other.toString(), "--out", dir.toString(), "--resume"));
    assertTrue(err.toString().contains("--resume: expected " + dir + " to have been started with " + other), err.toString());
    assertEquals(2, faultbed("run", scenario.toString(), "--out", dir.toString()));
    assertTrue(err.toString().contains("already holds run records (--resume continues it)"), err.toString());
  }
}
