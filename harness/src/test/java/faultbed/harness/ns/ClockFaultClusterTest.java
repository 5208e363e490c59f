package faultbed.harness.ns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.ClockJump;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each node with a wall clock of its own. Two consequences of a clock jump, both through a timer
 * that reads the time of day:
 * <ul>
 *   <li>the ApplicationMaster's clock jumps ahead by more than {@code mapreduce.task.timeout} until the
 *   job ends (so its history's times, the job's end among them, are 2 min ahead too): its
 *   TaskHeartbeatHandler finds every attempt that has not reported progress since the jump silent
 * for longer than the timeout and fails it ("task timeout set: 60s, taskTimedOut: true"). An attempt whose progress
 *   report (every 3 s) reaches the AM between the jump and the next check escapes, so the check here
 *   runs every 200 ms (30 s by default, when most attempts would escape);</li>
 *   <li>a NodeManager's clock jumps ahead by more than a container token's life (10 min): it refuses
 *   every container start ("This token is expired"), the AM counts each as a failed attempt and
 *   blacklists the node after three, and the node never leaves RUNNING.</li>
 * </ul>
 */
@Faultbed(backend = "namespace", nodes = 4, clocks = true, hadoop = {
    "mapreduce.task.timeout=60000",
    "mapreduce.task.timeout.check-interval-ms=200",
    "mapreduce.map.speculative=false",
    "mapreduce.reduce.speculative=false"})
class ClockFaultClusterTest {
  private static List<RunRecord.AttemptRecord> failedWith(RunRecord r, String error) {
    return r.attempts().stream().filter(a -> "FAILED".equals(a.state()) && a.error() != null && a.error().contains(error))
        .toList();
  }

  @Test
  void anApplicationMasterWhoseClockJumpsPastTheTaskTimeoutFailsItsRunningAttempts(NamespaceCluster cluster,
      Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(Workloads.synthetic(6, 1).withMapMillis(20_000), Timeline
        .when(JobEvent.mapsRunning(3)).inject(new ClockJump(Target.applicationMaster(), Duration.ofMinutes(2), null))));
    RunRecord.FaultEvent jump = r.faults().get(0);
    assertNotNull(jump.injectedMs(), "made: " + r.notes());
    assertEquals("120000", jump.detail().get("clockOffsetMs"));
    List<RunRecord.AttemptRecord> timedOut = failedWith(r, "taskTimedOut: true");
    assertFalse(timedOut.isEmpty(), "no attempt timed out: " + r.attempts());
    assertTrue(r.job().succeeded(), "the job re-ran them: " + r.job());
    // the job ended with the AM's clock still 2 min ahead: its history's end is not the job's
    assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("the AM's history puts the job's end")
        && n.contains("120.0 s ahead by a clock fault on its node: taken off the job's end")), r.notes().toString());
    assertTrue(r.job().finishedMs() <= r.harnessMs().get("observedEnd"), r.job() + " " + r.harnessMs());
    assertEquals("true", cluster.nodes().get(jump.node()).ownClock().orElseThrow().setting(), "the clock stepped back");
  }

  @Test
  void aNodeManagerWhoseClockIsAheadOfTheTokensLifeRefusesContainersUntilTheJobBlacklistsIt(NamespaceCluster cluster,
      Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(Workloads.synthetic(16, 1).withMapMillis(4_000), Timeline
        .when(JobEvent.mapsRunning(2)).inject(new ClockJump(Target.mostMaps().sparingApplicationMaster(),
            Duration.ofMinutes(15), null)))); // until the job ends: on a loaded machine the next wave may come late
    RunRecord.FaultEvent jump = r.faults().get(0);
    assertNotNull(jump.injectedMs(), "made: " + r.notes());
    List<RunRecord.AttemptRecord> refused = failedWith(r, "This token is expired");
    assertFalse(refused.isEmpty(), "no container start refused: " + r.attempts());
    assertTrue(refused.stream().allMatch(a -> a.node() != null && a.node() == jump.node()),
        "refused on the jumped node only: " + refused);
    assertEquals(List.of(), r.nodeTransitions().stream().filter(t -> t.node() == jump.node()).toList(),
        "the node never left RUNNING");
    assertTrue(r.job().succeeded(), r.job().toString());
  }
}
