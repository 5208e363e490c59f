package faultbed.harness.mini;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.Node;
import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.Fault;
import faultbed.harness.timeline.FaultContext;
import faultbed.harness.timeline.Injection;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.NodeStop;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A real crash on a real mini cluster: what the rest of the cluster sees, and what the record holds. */
@Faultbed(nodes = 4, hadoop = {
    "yarn.nm.liveness-monitor.expiry-interval-ms=" + NodeCrashClusterTest.EXPIRY_MS,
    "yarn.client.nodemanager-connect.max-wait-ms=10000",
    "yarn.client.nodemanager-connect.retry-interval-ms=2000",
    "mapreduce.reduce.shuffle.connect.timeout=15000"})
class NodeCrashClusterTest {
  static final long EXPIRY_MS = 15_000;

  /** A crash that also looks at the node from outside, right after it. */
  static final class ProbedCrash implements Fault {
    private final NodeCrash crash = NodeCrash.on(Target.runningReducer().sparingApplicationMaster());
    volatile Set<Long> processesBefore;
    volatile Set<Long> processesAfter;
    volatile long refusedAfterMs = -1;
    volatile int port;

    @Override
    public String kind() {
      return crash.kind();
    }

    @Override
    public Target target() {
      return crash.target();
    }

    @Override
    public Injection inject(Node node, FaultContext context) {
      // a reducer container may still be localizing: crash once its JVM runs, so there is something to kill
      org.awaitility.Awaitility.await("a container process on " + node).atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(20)).until(() -> !node.processes().isEmpty());
      port = node.shufflePort();
      processesBefore = node.processes();
      long t0 = System.nanoTime();
      Injection injection = crash.inject(node, context);
      while (refusedAfterMs < 0 && System.nanoTime() - t0 < Duration.ofSeconds(5).toNanos()) {
        try (Socket s = new Socket()) {
          s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        } catch (ConnectException refused) {
          refusedAfterMs = (System.nanoTime() - t0) / 1_000_000;
        } catch (IOException other) {
          // a timeout is not a refusal: keep probing
        }
      }
      processesAfter = node.processes();
      return injection;
    }
  }

  @Test
  void crashedNodeDiesAtOnceGoesLostAndTheJobRecovers(MiniCluster cluster, Recorder recorder) {
    ProbedCrash crash = new ProbedCrash();
    RunRecord run = recorder.save(cluster.run(Workloads.sort(24L << 20).withMaps(6).withReduces(2),
        Timeline.when(JobEvent.mapsCompleted(2)).inject(crash)));

    RunRecord.FaultEvent fault = run.faults().get(0);
    assertNotNull(fault.injectedMs(), "the crash was injected: " + run.notes());
    int victim = fault.node();

    assertTrue(crash.refusedAfterMs >= 0 && crash.refusedAfterMs < 1000,
        "shuffle port " + crash.port + " refused connections after " + crash.refusedAfterMs + " ms");
    assertFalse(crash.processesBefore.isEmpty(), "the node ran containers when it crashed");
    assertTrue(crash.processesAfter.isEmpty(), "container processes left: " + crash.processesAfter);
    for (long pid : crash.processesBefore) {
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " survived");
    }

    long lost = run.node(victim).lostAt().orElseThrow(() -> new AssertionError("node never went LOST"));
    long detection = lost - fault.injectedMs();
    long checkInterval = EXPIRY_MS / 3;
    // the latest the RM can see it: expiry plus one check interval, plus the expiry event's turn on the
    // RM's dispatcher and the watcher's 50 ms poll, a few hundred ms on a loaded 2-core host (228 once)
    assertTrue(detection <= EXPIRY_MS + checkInterval + 1_000,
        "LOST " + detection + " ms after the crash; expiry " + EXPIRY_MS + " + check " + checkInterval);
    assertTrue(detection >= EXPIRY_MS - 2_000, "LOST too early (" + detection + " ms): the RM was told");

    assertTrue(run.job().succeeded(), "job: " + run.job());
    // every node here is "localhost", and the AM blacklists hosts: mini turns node blacklisting off
    // (ci/extended's FetchFailureClusterTest shows a crash that costs three map outputs recover)
    assertEquals("false", run.hadoop().get("yarn.app.mapreduce.am.job.node-blacklisting.enable"));
    Set<String> tasksOnVictim = run.attempts().stream().filter(a -> Integer.valueOf(victim).equals(a.node()))
        .map(AttemptRecord::taskId).collect(Collectors.toSet());
    assertTrue(run.attempts().stream().anyMatch(a -> a.attempt() > 0 && tasksOnVictim.contains(a.taskId())
        && !Integer.valueOf(victim).equals(a.node()) && "SUCCEEDED".equals(a.state())),
        "a task of the crashed node was re-run elsewhere: " + run.attempts());
    // the success time is read from the history's attempt-finished events, which a later kill
    // does not overwrite: equal to the end for every attempt that ended SUCCEEDED
    for (AttemptRecord a : run.attempts()) {
      if ("SUCCEEDED".equals(a.state())) {
        assertEquals(a.finishMs(), a.succeededMs(), "success time of " + a);
      } else if (a.succeededMs() != null) {
        assertTrue(a.succeededMs() <= a.finishMs(), "succeeded before it ended: " + a);
      }
      // where a map ran relative to its split, as its AM logged it (the parser itself drops it)
      if (a.type().equals("MAP") && a.startMs() != null) {
        assertTrue(Set.of("NODE_LOCAL", "RACK_LOCAL", "OFF_SWITCH").contains(a.locality()), "locality of " + a);
      } else if (a.type().equals("REDUCE")) {
        assertNull(a.locality(), "a reduce has no split: " + a);
      }
    }
  }

  @Test
  void resetBringsTheCrashedSlotBackWithAFreshNodeManager(MiniCluster cluster) {
    // the previous test (or this one, run alone) leaves a node down; reset ran before this test
    for (MiniNode n : cluster.nodes()) {
      assertTrue(n.isUp(), n + " is up after reset");
      assertEquals("RUNNING", cluster.nodeStates().get(n.nodeId()));
    }
    MiniNode n = cluster.nodes().get(3);
    String before = n.nodeId();
    int port = n.shufflePort();
    n.crash();
    assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close());
    cluster.reset();
    assertTrue(n.isUp());
    assertFalse(before.equals(n.nodeId()), "a fresh NodeManager has a new NodeId");
    assertEquals("RUNNING", cluster.nodeStates().get(n.nodeId()));
  }

  /** Harms nothing: notes what the node it was given was doing at that moment. */
  record RoleProbe(Target target, java.util.List<Boolean> played) implements Fault {
    @Override
    public String kind() {
      return "probe";
    }

    @Override
    public Injection inject(Node node, FaultContext context) {
      played.add(target instanceof Target.SparingAm ? !node.runsApplicationMaster() : switch ((Target.Role) target) {
        case APPLICATION_MASTER -> node.runsApplicationMaster();
        case IDLE -> !node.runsApplicationMaster() && node.runningAttempts().isEmpty();
        default -> true; // judged from the record, once every map is done
      });
      return Injection.permanent(Map.of());
    }
  }

  /**
   * Role targets hit a node that plays the role when the fault fires, so variants compared on the
   * same seed lose the same kind of node: the AM's, one with no work, or the one with the most maps.
   */
  @Test
  void roleTargetsHitANodeThatPlaysTheRole(MiniCluster cluster, Recorder recorder) {
    java.util.List<Boolean> played = new java.util.concurrent.CopyOnWriteArrayList<>();
    int maps = 6;
    RunRecord run = recorder.save(cluster.run(Workloads.sort(16L << 20).withMaps(maps).withReduces(1),
        Timeline.at(Duration.ZERO).inject(new RoleProbe(Target.idle(), played))
            .plus(Timeline.when(JobEvent.mapsCompleted(1)).inject(new RoleProbe(Target.applicationMaster(), played)))
            .plus(Timeline.when(JobEvent.mapsCompleted(maps)).inject(new RoleProbe(Target.mostMaps(), played)))
            .plus(Timeline.when(JobEvent.mapsCompleted(maps))
                .inject(new RoleProbe(Target.mostMaps().sparingApplicationMaster(), played)))));
    assertTrue(run.job().succeeded(), "job: " + run.job());
    assertEquals(4, run.faults().size());
    run.faults().forEach(f -> assertNotNull(f.injectedMs(), "every probe fired: " + run.notes()));
    assertEquals(java.util.List.of(true, true, true, true), played, "idle, AM, sparing the AM: the node played its role when hit");
    assertEquals("the node with the most map work", run.faults().get(2).target());
    Map<Integer, Long> mapsByNode = run.attempts().stream()
        .filter(a -> a.type().equals("MAP") && "SUCCEEDED".equals(a.state()) && a.node() != null)
        .collect(Collectors.groupingBy(AttemptRecord::node, Collectors.counting()));
    long most = mapsByNode.values().stream().mapToLong(Long::longValue).max().orElseThrow();
    assertEquals(most, mapsByNode.getOrDefault(run.faults().get(2).node(), 0L),
        "most-maps hit node " + run.faults().get(2).node() + " of " + mapsByNode);
    // sparing the AM picks the busiest of the other nodes, even when the AM's node is the busiest
    int am = run.amAttempts().get(0).node();
    long mostWithoutAm = mapsByNode.entrySet().stream().filter(e -> e.getKey() != am)
        .mapToLong(Map.Entry::getValue).max().orElseThrow();
    assertNotEquals(am, run.faults().get(3).node());
    assertEquals(mostWithoutAm, mapsByNode.getOrDefault(run.faults().get(3).node(), 0L),
        "most-maps sparing the AM (node " + am + ") hit node " + run.faults().get(3).node() + " of " + mapsByNode);
  }

  @Test
  void gracefulStopIsSeenByTheRmAtOnce(MiniCluster cluster, Recorder recorder) {
    RunRecord run = recorder.save(cluster.run(Workloads.sort(16L << 20).withMaps(4).withReduces(1),
        Timeline.when(JobEvent.mapsCompleted(1)).inject(NodeStop.on(Target.runningReducer()))));
    RunRecord.FaultEvent fault = run.faults().get(0);
    assertNotNull(fault.injectedMs(), "the stop was injected: " + run.notes());
    String id = run.node(fault.node()).nodeId();
    long shutdown = run.nodeTransitions().stream().filter(t -> t.nodeId().equals(id) && "SHUTDOWN".equals(t.to()))
        .mapToLong(RunRecord.NodeTransition::atMs).findFirst().orElseThrow(() -> new AssertionError(run.nodeTransitions()));
    assertTrue(shutdown - fault.injectedMs() < 5_000, "RM saw the shutdown " + (shutdown - fault.injectedMs()) + " ms later");
    assertTrue(run.job().succeeded(), "job: " + run.job());
  }
}
