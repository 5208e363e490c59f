package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** 'faultbed report' on an old result folder: no cluster, just files. */
class ReportCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int faultbed(String... args) {
    return FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  @Test
  void writesTheReportAndTheCsvNextToTheRecords(@TempDir Path dir) throws Exception {
    ReportTestRecords.quickstart(dir);
    assertEquals(0, faultbed("report", dir.toString()), err.toString());
    assertTrue(out.toString().contains("report.html (5 runs)"), out.toString());
    String html = Files.readString(dir.resolve("report.html"));
    assertTrue(html.contains("<svg"), "charts inline");
    assertTrue(html.contains("G6"), "groups shown");
    assertTrue(html.contains("node LOST at 29.0 s"), "evidence shown");
    assertEquals(6, Files.readAllLines(dir.resolve("runs.csv")).stream().filter(l -> l.matches("^[a-z]+-\\d{3},.*")).count()
        + 1, "header and five runs");
  }

  @Test
  void aSweepOfDetectionSettingsAlsoPrintsItsTradeoff(@TempDir Path dir) throws Exception {
    ReportTestRecords.thresholdSweep(dir);
    assertEquals(0, faultbed("report", dir.toString()), err.toString());
    String text = out.toString();
    assertTrue(text.contains("under crash") && text.contains("under freeze"), text);
    assertTrue(text.lines().anyMatch(l -> l.contains("expiry-6s-freeze") && l.contains("1 of 1")
        && l.contains("6.8 [6.8, 6.8]")), "the frozen node declared LOST after 6.8 s:\n" + text);
    assertTrue(text.contains("expiry-6s-crash: yarn.nm.liveness-monitor.expiry-interval-ms=6000"), text);
    assertTrue(Files.readString(dir.resolve("report.html")).contains("Failure detection: reaction against cost"));
  }

  @Test
  void aFolderWithoutRecordsIsBadInputInOneLine(@TempDir Path dir) {
    assertEquals(2, faultbed("report", dir.toString()));
    assertEquals(1, err.toString().lines().count(), err.toString());
    assertTrue(err.toString().startsWith("faultbed: DIR: expected run records"), err.toString());
  }

  @Test
  void aBrokenRecordIsBadInputNamingTheFile(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("crash-000.json"), "{ not json");
    assertEquals(2, faultbed("report", dir.toString()));
    assertEquals(1, err.toString().lines().count(), err.toString());
    assertTrue(err.toString().contains("crash-000.json"), err.toString());
  }
}
