package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.results.RecordStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input to the commands that bring a real cluster's jobs in: one line naming what was wrong, exit
 * 2, nothing written. (A real history file read as its run's record: OutputCheckClusterTest.)
 */
class ImportHistoryCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int faultbed(String... args) {
    return FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  private void oneLine(String... expected) {
    String text = err.toString().strip();
    assertEquals(1, text.lines().count(), text);
    for (String e : expected) {
      assertTrue(text.contains(e), text);
    }
  }

  @Test
  void aFileThatIsNoHistoryIsNamed(@TempDir Path tmp) throws IOException {
    Path bogus = Files.writeString(tmp.resolve("job_1_1.jhist"), "not avro\n");
    Path records = tmp.resolve("records");
    assertEquals(2, faultbed("import-history", bogus.toString(), "--out", records.toString()));
    oneLine("FILE_OR_DIR", "job_1_1.jhist", "expected a job history file");
    assertFalse(Files.exists(records));
  }

  @Test
  void aFolderWithoutHistoryFilesIsNamed(@TempDir Path tmp) {
    assertEquals(2, faultbed("import-history", tmp.toString(), "--out", tmp.resolve("records").toString()));
    oneLine("FILE_OR_DIR", "expected job history files (.jhist), got none");
  }

  @Test
  void anUnknownWorkloadIsNamed(@TempDir Path tmp) {
    assertEquals(2, faultbed("import-history", tmp.toString(), "--workload", "grep", "--out",
        tmp.resolve("records").toString()));
    oneLine("--workload", "\"grep\"", "wordcount, sort, synthetic");
  }

  @Test
  void aModelOfMachinesOfTheirOwnRefusesRunsOfOneSharedMachine(@TempDir Path tmp) {
    // a published suite of the mini backend: every node on one machine
    Path suite = Path.of("published", "stragglers");
    assertTrue(Files.isDirectory(suite), suite.toAbsolutePath().toString());
    assertEquals(2, faultbed("sim-model", suite.toString(), "--node-cores", "8", "--out", tmp.resolve("m.json").toString()));
    oneLine("--node-cores", "give --machine-cores");
    assertFalse(Files.exists(tmp.resolve("m.json")));
  }

  @Test
  void coresAreGivenOneWay(@TempDir Path tmp) {
    Path suite = Path.of("published", "stragglers");
    assertEquals(2, faultbed("sim-model", suite.toString(), "--node-cores", "8", "--machine-cores", "2", "--out",
        tmp.resolve("m.json").toString()));
    assertTrue(err.toString().contains("mutually exclusive"), err.toString());
    err.getBuffer().setLength(0);
    assertEquals(2, faultbed("sim-model", suite.toString(), "--node-cores", "0", "--out", tmp.resolve("m.json").toString()));
    oneLine("--node-cores", "expected a positive number of cores, got 0.0");
    assertEquals(0, new RecordStore(tmp).readAll().size());
  }
}
