package faultbed.harness.ns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.Pause;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Each part of a node paused (SIGSTOP) on nodes that are processes of their own, and the Hadoop path
 * that notices it: the ResourceManager's node expiry for a NodeManager, the task timeout for a task,
 * the AM liveness expiry for an ApplicationMaster. Timers are shortened so each fires within the
 * pause; nothing speculates, so what recovers the work is the path under test.
 */
@Faultbed(backend = "namespace", nodes = 3, hadoop = {
    "yarn.nm.liveness-monitor.expiry-interval-ms=15000",
    "mapreduce.task.timeout=10000",
    "yarn.am.liveness-monitor.expiry-interval-ms=15000",
    "mapreduce.map.speculative=false",
    "mapreduce.reduce.speculative=false"})
class PauseClusterTest {
  static final Workload MAPS_OF_20S = Workloads.synthetic(6, 1).withMapMillis(20_000);
  static final Duration PAUSE = Duration.ofSeconds(30);

  /** Heartbeats stop with the JVM that sends them; the containers it launched run on. */
  @Test
  void aPausedNodeManagerIsLostToTheResourceManagerWhileItsContainersRunOn(NamespaceCluster cluster,
      Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(MAPS_OF_20S, Timeline.when(JobEvent.mapsRunning(3))
        .inject(Pause.of(Target.mostMaps().sparingApplicationMaster(), Pause.Part.NODEMANAGER, PAUSE))));
    RunRecord.FaultEvent pause = r.faults().get(0);
    assertNotNull(pause.injectedMs(), "made: " + r.notes());
    assertEquals("1", pause.detail().get("processesStopped"), "the node process alone: " + pause.detail());
    long lost = r.node(pause.node()).lostAt().orElseThrow(() -> new AssertionError("node never LOST: " + r.nodeTransitions()));
    assertTrue(lost >= pause.injectedMs() + 10_000 && lost < pause.healedMs(), "LOST by expiry within the pause: "
        + r.nodeTransitions());
    assertTrue(r.job().succeeded(), r.job().toString());
  }

  /** A stalled task's pings stop: the AM times it out and runs it again elsewhere or later. */
  @Test
  void aPausedMapTimesOutAndRunsAgain(NamespaceCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(MAPS_OF_20S, Timeline.when(JobEvent.mapsRunning(3))
        .inject(Pause.of(Target.mostMaps().sparingApplicationMaster(), Pause.Part.MAP, PAUSE))));
    RunRecord.FaultEvent pause = r.faults().get(0);
    String attempt = pause.detail().get("attempt");
    assertNotNull(attempt, "the paused attempt is named: " + pause.detail() + " " + r.notes());
    RunRecord.AttemptRecord stalled = r.attempts().stream().filter(a -> a.attemptId().equals(attempt)).findFirst()
        .orElseThrow(() -> new AssertionError(attempt + " not in the record"));
    assertEquals("FAILED", stalled.state(), stalled.toString());
    assertTrue(String.valueOf(stalled.error()).contains("task timeout set: 10s, taskTimedOut: true"), stalled.toString());
    assertTrue(r.attempts().stream().anyMatch(a -> a.taskId().equals(stalled.taskId()) && a.attempt() > stalled.attempt()
        && "SUCCEEDED".equals(a.state())), "another attempt of the task succeeded");
    assertTrue(r.nodeTransitions().stream().noneMatch(t -> t.node() == pause.node() && "LOST".equals(t.to())),
        "the node heartbeats on: " + r.nodeTransitions());
    assertTrue(r.job().succeeded(), r.job().toString());
  }

  /** The AM's heartbeats to the ResourceManager stop: the RM expires its attempt and starts another. */
  @Test
  @Tag("extended")
  void aPausedApplicationMasterIsExpiredAndReplaced(NamespaceCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(MAPS_OF_20S, Timeline.when(JobEvent.mapsRunning(3))
        .inject(Pause.of(Target.applicationMaster(), Pause.Part.APPLICATION_MASTER, PAUSE))));
    RunRecord.FaultEvent pause = r.faults().get(0);
    assertNotNull(pause.injectedMs(), "made: " + r.notes());
    List<RunRecord.AmAttempt> ams = r.amAttempts();
    assertTrue(ams.size() >= 2 && ams.get(1).startMs() != null && ams.get(1).startMs() > pause.injectedMs() + 10_000,
        "a second AM attempt after the liveness expiry: " + ams);
    assertTrue(r.job().succeeded(), r.job().toString());
  }

  /** The NodeManager heartbeats on, so the node stays RUNNING; its stalled tasks time out instead. */
  @Test
  @Tag("extended")
  void pausedContainersTimeOutOnANodeThatStaysRunning(NamespaceCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(MAPS_OF_20S, Timeline.when(JobEvent.mapsRunning(3))
        .inject(Pause.of(Target.mostMaps().sparingApplicationMaster(), Pause.Part.CONTAINERS, PAUSE))));
    RunRecord.FaultEvent pause = r.faults().get(0);
    assertNotNull(pause.injectedMs(), "made: " + r.notes());
    assertTrue(r.nodeTransitions().stream().noneMatch(t -> t.node() == pause.node() && "LOST".equals(t.to())),
        "the node heartbeats on: " + r.nodeTransitions());
    assertTrue(r.attempts().stream().anyMatch(a -> pause.node() == (a.node() == null ? -1 : a.node())
        && "FAILED".equals(a.state()) && String.valueOf(a.error()).contains("taskTimedOut: true")),
        "the node's attempts timed out: " + r.attempts());
    assertTrue(r.job().succeeded(), r.job().toString());
  }
}
