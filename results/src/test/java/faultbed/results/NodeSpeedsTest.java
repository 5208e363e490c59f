package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.FaultEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeSpeedsTest {
  private static final FaultEvent QUARTER = new FaultEvent("slow-node", 1, "node 1", "at 0 ms", 0L, 100L, 60_000L,
      Map.of("cpuCores", "0.25", "writeBytesPerSecond", "10485760", "readBytesPerSecond", "10485760",
          "injectionMs", "80"));

  private static AttemptRecord map(int task, int node, long startMs, long finishMs, String state) {
    return new AttemptRecord("attempt_1_0001_m_" + task + "_0", "task_1_0001_m_" + task, "MAP", 0, node,
        "localhost:" + node, "container_" + task, startMs, finishMs, finishMs, null, null, state, false, null, 1, null);
  }

  private static RunRecord run(boolean speculative, List<FaultEvent> faults, List<AttemptRecord> attempts) {
    return new RunRecord(RunRecord.SCHEMA_VERSION, "r-000", "s", speculative ? "late" : "off", 0, 1, "t",
        new RunRecord.ClusterInfo("mini", 4, 1024, 2), Map.of("mapreduce.map.speculative", Boolean.toString(speculative)),
        null, List.of(), faults, List.of(), attempts, List.of(),
        new RunRecord.JobOutcome("job_1_0001", "SUCCEEDED", true, 0, 60_000L, 4, 1, null), Map.of(), List.of(), null,
        null, List.of(), null, null, List.of(), null, null, null, null, null, null, null, null);
  }

  /** Maps on the quarter node take 4x as long: the setting's row says 4x, with the fault's parameters. */
  @Test
  void aSlowedNodesMapsAreComparedWithTheUnslowedOnes() {
    List<AttemptRecord> attempts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      attempts.add(map(i, 0, 1_000, 3_000 + 100 * i, "SUCCEEDED")); // 2.0 .. 2.5 s
      attempts.add(map(10 + i, 1, 1_000, 9_000 + 400 * i, "SUCCEEDED")); // 8.0 .. 10.0 s
    }
    NodeSpeeds speeds = NodeSpeeds.of(List.of(run(false, List.of(QUARTER), attempts)));
    assertEquals(2, speeds.settings().size(), speeds.toString());
    NodeSpeeds.Setting none = speeds.settings().get(0);
    NodeSpeeds.Setting quarter = speeds.settings().get(1);
    assertEquals(NodeSpeeds.NONE, none.label());
    assertEquals("slow-node cpu 0.25 cores, read 10 MB/s, write 10 MB/s", quarter.label());
    assertEquals(List.of(1), quarter.nodes());
    assertEquals(6, quarter.mapSeconds().length);
    assertEquals(9.0 / 2.25, quarter.slowdown(), 1e-9);
    assertTrue(quarter.slowdownInterval().low() > 3 && quarter.slowdownInterval().high() < 5,
        quarter.slowdownInterval().toString());
    assertEquals(1.0, none.slowdown(), 1e-9);
    assertTrue(Double.isNaN(none.slowdownInterval().low()), "the reference has no interval against itself");
  }

  /**
   * An attempt that started before its node was slowed counts for no setting; a speculated run's
   * maps count only when no run had speculation off, because a backup kills the slow ones.
   */
  @Test
  void attemptsUnderAChangingSettingAndSpeculatedRunsAreLeftOut() {
    FaultEvent late = new FaultEvent("cpu-hog", 1, "node 1", "at 5000 ms", 5_000L, 5_000L, null,
        Map.of("spinners", "2"));
    RunRecord off = run(false, List.of(late), List.of(map(0, 0, 0, 2_000, "SUCCEEDED"),
        map(1, 1, 1_000, 8_000, "SUCCEEDED"), map(2, 1, 6_000, 14_000, "SUCCEEDED")));
    RunRecord speculated = run(true, List.of(), List.of(map(3, 0, 0, 50_000, "SUCCEEDED")));
    NodeSpeeds speeds = NodeSpeeds.of(List.of(off, speculated));
    assertEquals("1 run(s) with map speculation off", speeds.source());
    assertEquals(List.of(NodeSpeeds.NONE, "cpu-hog 2 spinners"),
        speeds.settings().stream().map(NodeSpeeds.Setting::label).toList());
    assertEquals(1, speeds.settings().get(0).mapSeconds().length); // map 1 straddled the hog's start; map 3 was speculated
    assertEquals(4.0, speeds.settings().get(1).slowdown(), 1e-9);

    NodeSpeeds onlySpeculated = NodeSpeeds.of(List.of(speculated));
    assertTrue(onlySpeculated.source().startsWith("every run's"), onlySpeculated.source());
    assertTrue(onlySpeculated.isEmpty(), "no slowed node, nothing to show");
  }

  /**
   * Where every node is slowed (each given a machine's share), the setting most maps ran under is the
   * reference: a straggler's extra load is measured against its peers, not against nothing.
   */
  @Test
  void withNoUnslowedNodeTheCommonSettingIsTheReference() {
    List<FaultEvent> faults = new ArrayList<>();
    List<AttemptRecord> attempts = new ArrayList<>();
    for (int n = 0; n < 4; n++) {
      faults.add(new FaultEvent("slow-node", n, "node " + n, "at 0 ms", 0L, 10L, 60_000L, Map.of("cpuCores", "0.5")));
    }
    faults.add(new FaultEvent("disk-load", 3, "same", "at 2000 ms", 2_000L, 2_000L, 60_000L, Map.of("writers", "2")));
    for (int i = 0; i < 9; i++) {
      attempts.add(map(i, i % 3, 100, 4_100, "SUCCEEDED")); // 4 s on the three peers
    }
    attempts.add(map(9, 3, 3_000, 15_000, "SUCCEEDED")); // 12 s on the straggler
    NodeSpeeds speeds = NodeSpeeds.of(List.of(run(false, faults, attempts)));
    assertEquals("slow-node cpu 0.5 cores", speeds.reference());
    assertEquals(List.of("slow-node cpu 0.5 cores", "disk-load 2 writers + slow-node cpu 0.5 cores"),
        speeds.settings().stream().map(NodeSpeeds.Setting::label).toList());
    assertEquals(1.0, speeds.settings().get(0).slowdown(), 1e-9);
    assertEquals(3.0, speeds.settings().get(1).slowdown(), 1e-9);
  }
}
