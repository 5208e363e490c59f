package faultbed.harness.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import faultbed.harness.Speculation;
import faultbed.results.RunRecord.SpeculationEvent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The two kinds of AM log line the record's speculation section is read from. */
class SpeculationLogReaderTest {
  private static final String PLACED = "2026-11-21 09:45:03,120 INFO [faultbed speculation] "
      + "faultbed.schedulers.yarn.PolicySpeculator: FAULTBED-SPECULATION {\"event\":\"placed\",\"atEpochMs\":1000500,"
      + "\"task\":\"task_1_0002_m_000003\",\"attempt\":\"attempt_1_0002_m_000003_1\",\"node\":\"localhost:4001\","
      + "\"accepted\":false,\"killed\":true,\"reason\":\"node total progress 0.4 below SlowNodeThreshold 1.2\"}";
  private static final String BACKUP = "2026-11-21 09:45:02,000 INFO [faultbed speculation] "
      + "faultbed.schedulers.yarn.PolicySpeculator: FAULTBED-SPECULATION {\"event\":\"backup\",\"atEpochMs\":1000000,"
      + "\"task\":\"task_1_0002_m_000003\",\"original\":\"attempt_1_0002_m_000003_0\",\"originalNode\":\"localhost:4000\","
      + "\"reason\":\"slow\",\"evidence\":{\"progressRate\":0.01,\"timeLeftSeconds\":41.5}}";
  private static final String TASK_IMPL = "2026-11-21 09:45:02,010 INFO [AsyncDispatcher event handler] "
      + "org.apache.hadoop.mapreduce.v2.app.job.impl.TaskImpl: Scheduling a redundant attempt for task task_1_0002_m_000003";

  @Test
  void policyDecisionLinesBecomeEventsWithNodesAndEvidence() throws IOException {
    List<SpeculationEvent> out = new ArrayList<>();
    SpeculationLogReader.parse(List.of(BACKUP, TASK_IMPL, PLACED), true, Speculation.policy("late"),
        Map.of("localhost:4000", 0, "localhost:4001", 1), 990_000, out);
    assertEquals(2, out.size(), "TaskImpl's line is not counted twice for a policy: " + out);
    SpeculationEvent backup = out.get(0);
    assertEquals(10_000, backup.atMs());
    assertEquals("attempt_1_0002_m_000003_0", backup.attempt());
    assertEquals(0, backup.node());
    assertEquals(41.5, backup.evidence().get("timeLeftSeconds"));
    SpeculationEvent placed = out.get(1);
    assertEquals(1, placed.node());
    assertEquals(false, placed.accepted());
    assertEquals(true, placed.killed());
  }

  @Test
  void anyOtherSpeculatorIsSeenThroughTaskImpl() throws IOException {
    List<SpeculationEvent> out = new ArrayList<>();
    long zero = java.time.LocalDateTime.of(2026, 11, 21, 9, 45, 0).atZone(java.time.ZoneId.systemDefault())
        .toInstant().toEpochMilli();
    SpeculationLogReader.parse(List.of(TASK_IMPL), false, Speculation.hadoop3("legacy"), Map.of(), zero, out);
    assertEquals(1, out.size());
    assertEquals(2_010, out.get(0).atMs());
    assertEquals("task_1_0002_m_000003", out.get(0).task());
    assertEquals("hadoop3/legacy asked for a backup", out.get(0).reason());
  }
}
