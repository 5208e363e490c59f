package faultbed.harness.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.faults.DockerEngine;
import faultbed.harness.daemons.NodeFailureChecks;
import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.ClockJump;
import faultbed.harness.timeline.CorruptReplica;
import faultbed.harness.timeline.Freeze;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.PacketDuplication;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Nodes as Docker containers, each with its own address and network stack, faults through Docker
 * and inside the containers. Faults fire when every map is done and reducers must fetch from the
 * failed node.
 */
@Faultbed(backend = "containers", nodes = 4, clocks = true, hadoop = {
    "mapreduce.job.reduce.slowstart.completedmaps=1.0",
    "yarn.nm.liveness-monitor.expiry-interval-ms=30000",
    "yarn.client.nodemanager-connect.max-wait-ms=10000",
    "yarn.client.nodemanager-connect.retry-interval-ms=2000",
    "mapreduce.reduce.shuffle.connect.timeout=15000"})
class ContainerClusterTest {
  static final Workload SORT = Workloads.sort(24L << 20).withMaps(6).withReduces(2);
  static final JobEvent MAPS_DONE = JobEvent.mapsCompleted(6);

  // The namespace backend proves the same in the test command; here it runs with ci/extended.
  @Test
  @Tag("extended")
  void aKilledNodeRefusesConnectionsAndFetchesFromItAreReportedBeforeExpiry(ContainerCluster cluster,
      Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(SORT,
        Timeline.when(MAPS_DONE).inject(NodeCrash.on(Target.holdingMapOutputs().sparingApplicationMaster()))));
    NodeFailureChecks.killedNodeRefusedAndReported(r, cluster.nodes(), "containers");
  }

  @Test
  void aWholeNodeFailureAnswersNothingAndTheNodeComesBackAtItsAddress(ContainerCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(SORT, Timeline.when(MAPS_DONE)
        .inject(NodeCrash.on(Target.holdingMapOutputs().sparingApplicationMaster()).withoutRst())));
    NodeFailureChecks.silentNodeWaitedForThenBack(r, cluster, "container");
    for (ContainerNode n : cluster.nodes()) {
      assertTrue(n.address().startsWith("198.18.") || n.address().startsWith("198.19."), "own network: " + n.address());
    }
  }

  /**
   * A node's clock reaches into its container: its NodeManager, 15 min ahead of the ResourceManager,
   * refuses container starts (their tokens expired by its clock), as on the namespace backend.
   */
  @Test
  @Tag("extended") // the same clock agent and refusal in the test command: ClockFaultClusterTest (namespace)
  void aNodeManagerWhoseClockIsAheadRefusesContainers(ContainerCluster cluster, Recorder recorder) {
    // maps enough to outlast the jumped node's own: on a loaded machine its maps ran 40 s, and with 16 maps
    // the other nodes had taken the rest before it asked for another container
    RunRecord r = recorder.save(cluster.run(Workloads.synthetic(32, 1).withMapMillis(4_000), Timeline
        .when(JobEvent.mapsRunning(2)).inject(new ClockJump(Target.mostMaps().sparingApplicationMaster(),
            Duration.ofMinutes(15), null)))); // until the job ends: on a loaded machine the next wave may come late
    RunRecord.FaultEvent jump = r.faults().get(0);
    assertNotNull(jump.injectedMs(), "made: " + r.notes());
    assertTrue(r.attempts().stream().anyMatch(a -> "FAILED".equals(a.state()) && a.error() != null
        && a.error().contains("This token is expired") && a.node() != null && a.node() == jump.node()),
        "a container start refused on the jumped node: " + r.attempts());
    assertTrue(r.job().succeeded(), r.job().toString());
  }

  /**
   * The DataNodes' blocks are in the node folders the containers mount: corrupt replicas are made
   * from the host. The namespace backend proves the same in the test command; here it runs with
   * ci/extended.
   */
  @Test
  @Tag("extended")
  void aJobReadsAroundCorruptReplicasOfItsInput(ContainerCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(SORT, Timeline.at(Duration.ZERO)
        .inject(new CorruptReplica(Target.node(2), null, null))));
    RunRecord.FaultEvent f = r.faults().get(0);
    assertNotNull(f.injectedMs(), "made: " + r.notes());
    assertFalse(f.detail().get("corruptedBlocks").isEmpty(), "node 2 held input blocks: " + f.detail());
    assertTrue(r.job().succeeded(), r.job().toString());
  }

  /**
   * Copies of what a node sends, made by rules in its container's namespace, reach its peers during
   * a job: they answer with D-SACKs, which the node's own TCP stack counts; the job never knows.
   */
  @Test
  @Tag("extended") // the same rules in a node's namespace in the test command: PartitionClusterTest
  void aDuplicatingNodesCopiesReachItsPeersDuringAJob(ContainerCluster cluster, Recorder recorder) {
    ContainerNode n = cluster.nodes().get(1);
    long before = dsacksReceived(n);
    RunRecord r = recorder.save(cluster.run(SORT, Timeline.at(Duration.ZERO)
        .inject(new PacketDuplication(Target.node(1), 0.3, null))));
    assertNotNull(r.faults().get(0).injectedMs(), "made: " + r.notes());
    assertTrue(r.job().succeeded(), r.job().toString());
    long during = dsacksReceived(n) - before;
    assertTrue(during > 10, during + " D-SACKs received by the duplicating node during the job");
  }

  /** TcpExt's TCPDSACKRecv in the node's own stack: D-SACKs its peers sent it. */
  private static long dsacksReceived(ContainerNode n) {
    java.util.List<String> lines = n.container().commands().check(java.util.List.of("cat", "/proc/net/netstat"))
        .lines().filter(l -> l.startsWith("TcpExt:")).toList();
    java.util.List<String> names = java.util.List.of(lines.get(0).split("\\s+"));
    return Long.parseLong(lines.get(1).split("\\s+")[names.indexOf("TCPDSACKRecv")]);
  }

  /**
   * A CPU hog's spinners run inside the node's container, are found there by their tag (counted as
   * started, killed by the heal), and nothing of them is left. Before, awk replaced the tagged shell
   * and the count never saw them: every containers cpu-hog failed after seconds.
   */
  @Test
  void cpuSpinnersRunInsideTheNodeAndTheHealLeavesNone(ContainerCluster cluster) {
    ContainerNode n = cluster.nodes().get(0);
    try (faultbed.faults.Installed hog = n.cpuSpinners(2)) {
      assertEquals(2, spinners(n), n.commandLines().toString());
    }
    org.awaitility.Awaitility.await("the spinners gone").atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100)).until(() -> spinners(n) == 0);
  }

  /**
   * A paused NodeManager is the node process stopped from the host (its pid there), nothing else of
   * the container; the heal continues it. A partition from the master is rules in the container's
   * namespace: the harness's address (the gateway) gets no answer from the node until the heal.
   */
  @Test
  void aPauseStopsTheNodeProcessAloneAndAPartitionCutsTheMasterOffUntilHealed(ContainerCluster cluster) throws Exception {
    ContainerNode n = cluster.nodes().get(1);
    var context = cluster.faultContext("adhoc-gray");
    faultbed.harness.timeline.Injection paused = faultbed.harness.timeline.Pause.of(Target.node(1),
        faultbed.harness.timeline.Pause.Part.NODEMANAGER, Duration.ofSeconds(30)).inject(n, context);
    long daemon = n.processTable().stream().filter(faultbed.harness.Node.Proc::daemon).findFirst().orElseThrow().pid();
    try {
      assertEquals("1", paused.detail().get("processesStopped"), paused.detail().toString());
      assertTrue(faultbed.faults.StoppedProcesses.isStopped(faultbed.faults.Commands.local(), daemon), "node process stopped");
    } finally {
      paused.healer().heal();
    }
    assertFalse(faultbed.faults.StoppedProcesses.isStopped(faultbed.faults.Commands.local(), daemon), "continued");

    int port = n.shufflePort();
    assertEquals("open", reach(n.address(), port), "reachable before");
    faultbed.harness.timeline.Injection cut = faultbed.harness.timeline.Partition.fromMaster(Target.node(1),
        faultbed.harness.timeline.Partition.Direction.BOTH, null).inject(n, context);
    try {
      assertEquals("no answer", reach(n.address(), port), "the master gets no answer: " + cut.detail());
    } finally {
      cut.healer().heal();
    }
    assertEquals("open", reach(n.address(), port), "reachable again after the heal");
  }

  /**
   * Memory pressure on a node container: Docker's limit set to what it holds and 256 MB more, the hog
   * of 64 MB inside it as tagged pieces, and both gone with the heal.
   */
  @Test
  void memoryPressureLimitsTheContainerAndTheHealLiftsIt(ContainerCluster cluster) {
    ContainerNode n = cluster.nodes().get(2);
    faultbed.harness.timeline.Injection pressure = faultbed.harness.timeline.MemoryPressure.withHeadroom(Target.node(2),
        256L << 20, 64L << 20, Duration.ofSeconds(30)).inject(n, cluster.faultContext("adhoc-memory"));
    try {
      long limit = Long.parseLong(pressure.detail().get("limitBytes"));
      assertEquals(limit, DockerEngine.client().inspectContainerCmd(n.container().id()).exec().getHostConfig().getMemory(),
          pressure.detail().toString());
      assertEquals(2, n.commandLines().stream().filter(c -> c.startsWith("perl") && c.contains("faultbed=")).count(),
          "the hog's two 32 MB pieces: " + n.commandLines());
    } finally {
      pressure.healer().heal();
    }
    Long after = DockerEngine.client().inspectContainerCmd(n.container().id()).exec().getHostConfig().getMemory();
    long engine = DockerEngine.client().infoCmd().exec().getMemTotal();
    assertTrue(after == null || after <= 0 || after >= engine, "no limit below the engine's memory after the heal: " + after);
    org.awaitility.Awaitility.await("the hog gone").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
        .until(() -> n.commandLines().stream().noneMatch(c -> c.startsWith("perl")));
  }

  private static String reach(String address, int port) {
    try (java.net.Socket s = new java.net.Socket()) {
      s.connect(new java.net.InetSocketAddress(address, port), 1500);
      return "open";
    } catch (java.net.SocketTimeoutException e) {
      return "no answer";
    } catch (java.io.IOException e) {
      return e.getMessage();
    }
  }

  private static long spinners(ContainerNode n) {
    return n.commandLines().stream().filter(c -> c.startsWith("awk") && c.contains("faultbed=faultbed-load-hog")).count();
  }

  /** Frozen, and the shuffle from another node through its lossy link (rules from the host in its namespace). */
  // The test command freezes nodes over SSH (YarnHostsTest) and loses packets on mini
  // (OutputCheckClusterTest); Docker's pause and the loss inside a node container run with ci/extended.
  @Test
  @Tag("extended")
  void aFrozenNodeIsPausedByDockerAndCarriesOn(ContainerCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(SORT, Timeline.when(MAPS_DONE)
        .inject(new Freeze(Target.holdingMapOutputs().sparingApplicationMaster(), Duration.ofSeconds(5)))
        .then(faultbed.harness.timeline.Trigger.on(MAPS_DONE))
        .inject(new faultbed.harness.timeline.PacketLoss(Target.node(0), 0.05, Duration.ofSeconds(10)))));
    RunRecord.FaultEvent freeze = r.faults().get(0);
    assertTrue(Integer.parseInt(freeze.detail().get("processesFrozen")) >= 1, freeze.detail().toString());
    assertTrue(r.job().succeeded(), r.job().toString());
    RunRecord.FaultEvent loss = r.faults().get(1);
    assertTrue(loss.injectedMs() != null && loss.healedMs() != null, loss + " " + r.notes());
    assertEquals("container", loss.detail().get("network"), loss.detail().toString());
    var state = DockerEngine.client().inspectContainerCmd(cluster.nodes().get(freeze.node()).container().id())
        .exec().getState();
    assertFalse(state.getPaused(), "unpaused when the freeze ends");
  }
}
