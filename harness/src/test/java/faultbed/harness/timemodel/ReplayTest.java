package faultbed.harness.timemodel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A recorded run replayed on the machines its nodes ran on: one they shared, or one each. */
class ReplayTest {
  /** Node 0 runs two maps and node 1 one, all over the same ten seconds. */
  private static RunRecord run(String backend) {
    List<AttemptRecord> attempts = List.of(map("m0", 0), map("m1", 0), map("m2", 1));
    return RunRecord.builder().runId("r").scenario("s").variant("v")
        .cluster(new RunRecord.ClusterInfo(backend, 2, 1024, 1))
        .workload(new RunRecord.WorkloadInfo("sort", Map.of(), 0, 0))
        .attempts(attempts)
        .job(new RunRecord.JobOutcome("job_1", "SUCCEEDED", true, 0, 12_000L, 3, 0, null))
        .build();
  }

  private static AttemptRecord map(String id, int node) {
    return new AttemptRecord("attempt_" + id, "task_" + id, "MAP", 0, node, null, null, 1_000L, 11_000L, 10_000L, null,
        null, "SUCCEEDED", false, null, 1, 11_000L);
  }

  @Test
  void nodesSharingOneCoreSplitItEvenlyThenAmongTheirThreads() {
    Map<String, Double> received = Replay.cpuReceived(run("mini"), Machines.shared(1));
    // half the core a node; node 0's half split between its two maps
    assertEquals(2_500, received.get("attempt_m0"), 1e-6);
    assertEquals(2_500, received.get("attempt_m1"), 1e-6);
    assertEquals(5_000, received.get("attempt_m2"), 1e-6);
  }

  @Test
  void nodesOnMachinesOfTheirOwnCompeteOnlyWithTheirOwnTasks() {
    Map<String, Double> received = Replay.cpuReceived(run("history"), Machines.perNode(1));
    assertEquals(5_000, received.get("attempt_m0"), 1e-6);
    assertEquals(5_000, received.get("attempt_m1"), 1e-6);
    assertEquals(10_000, received.get("attempt_m2"), 1e-6, "a core of its own for the whole ten seconds");
  }
}
