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
    assertTrue(text.strip().endsWith("no fault: 1, G6: 4"), text);
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
