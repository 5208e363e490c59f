package faultbed.harness.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import faultbed.results.RunRecord.AttemptRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dead AM's task attempts its history lacks, read from its log as TaskAttemptImpl writes it: the
 * launch line names the attempt, its container and its NodeManager; a change of state to SUCCEEDED,
 * KILLED or FAILED ends it. Attempts the history has, and the last AM's own log, are left alone.
 */
class AmLogsTest {
  private static final String APP = "application_1764400000000_0001";
  private static final String AM1 = "container_1764400000000_0001_01_000001";
  private static final String AM2 = "container_1764400000000_0001_02_000001";

  private static String line(String time, String text) {
    return "2026-11-29 16:00:" + time + " INFO [AsyncDispatcher event handler] "
        + "org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl: " + text;
  }

  @Test
  void attemptsTheHistoryLacksComeFromTheirAmsLogWithNodeContainerAndTimes(@TempDir Path logs) throws Exception {
    Path first = Files.createDirectories(logs.resolve(APP).resolve(AM1));
    Files.write(first.resolve("syslog"), List.of(
        line("05,100", "attempt_1764400000000_0001_m_000000_0 TaskAttempt Transitioned from NEW to UNASSIGNED"),
        line("06,200", "TaskAttempt: [attempt_1764400000000_0001_m_000000_0] using containerId: "
            + "[container_1764400000000_0001_01_000002 on NM: [localhost:45001]"),
        line("06,250", "TaskAttempt: [attempt_1764400000000_0001_m_000001_0] using containerId: "
            + "[container_1764400000000_0001_01_000003 on NM: [localhost:45002]"),
        line("06,300", "TaskAttempt: [attempt_1764400000000_0001_m_000002_0] using containerId: "
            + "[container_1764400000000_0001_01_000004 on NM: [localhost:45002]"),
        line("09,000", "attempt_1764400000000_0001_m_000001_0 TaskAttempt Transitioned from RUNNING to SUCCEEDED"),
        line("09,500", "attempt_1764400000000_0001_m_000002_0 transitioned from state RUNNING to FAILED, event type is"
            + " TA_FAILMSG and nodeId=localhost:45002")));
    // the last AM's log is its history's business
    Path second = Files.createDirectories(logs.resolve(APP).resolve(AM2));
    Files.write(second.resolve("syslog"), List.of(line("20,000", "TaskAttempt: [attempt_1764400000000_0001_m_000000_1]"
        + " using containerId: [container_1764400000000_0001_02_000002 on NM: [localhost:45003]")));
    long zero = LocalDateTime.of(2026, 11, 29, 16, 0, 0).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
    NodeLocator locator = NodeLocator.ofAddresses(Map.of("localhost:45001", 1, "localhost:45002", 2,
        "localhost:45003", 3));
    AttemptRecord inHistory = new AttemptRecord("attempt_1764400000000_0001_m_000000_0",
        "task_1764400000000_0001_m_000000", "MAP", 0, 1, "localhost:45001", null, 6_200L, null, null, null, null,
        null, false, null, 1, null, null, null);

    List<AttemptRecord> logged = AmLogs.attemptsHistoryLacks(List.of(inHistory), Map.of(1, List.of(logs.toString())),
        APP, 2, zero, Map.of(), locator);

    assertEquals(List.of("attempt_1764400000000_0001_m_000001_0", "attempt_1764400000000_0001_m_000002_0"),
        logged.stream().map(AttemptRecord::attemptId).toList());
    AttemptRecord done = logged.get(0);
    assertEquals("task_1764400000000_0001_m_000001", done.taskId());
    assertEquals("MAP", done.type());
    assertEquals(2, done.node());
    assertEquals("localhost:45002", done.host());
    assertEquals("container_1764400000000_0001_01_000003", done.container());
    assertEquals(6_250L, done.startMs());
    assertEquals(9_000L, done.finishMs());
    assertEquals("SUCCEEDED", done.state());
    assertEquals(9_000L, done.succeededMs());
    assertEquals(1, done.amAttempt());
    AttemptRecord failed = logged.get(1);
    assertEquals("FAILED", failed.state());
    assertEquals(9_500L, failed.finishMs());
    assertNull(failed.succeededMs());
  }
}
