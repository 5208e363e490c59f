package faultbed.harness.ns;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.PacketDuplication;
import faultbed.harness.timeline.Partition;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Partitions by predicate on nodes with addresses of their own: a node cut from the master alone is
 * lost to the ResourceManager while it works on, and the AM, on a peer, still reaches it to kill its
 * attempts; a node its peers cannot reach stays RUNNING to the ResourceManager while reducers fail
 * to fetch from it (every map is done before that fault, so reducers must fetch from it). One HDFS
 * replica: with three, every block's write pipeline runs between the workers too and stalls across
 * the partition (a job's history file among them), and these tests are about YARN's and the
 * shuffle's paths. A reducer reports a host it cannot connect to after more than
 * {@code max-host-failures} failures, each a connect timeout and a growing penalty: two here. And
 * a node whose link duplicates what it sends, which TCP absorbs.
 */
@Faultbed(backend = "namespace", nodes = 3, hadoop = {
    "dfs.replication=1",
    "mapreduce.job.reduce.slowstart.completedmaps=1.0",
    "yarn.nm.liveness-monitor.expiry-interval-ms=15000",
    "mapreduce.reduce.shuffle.connect.timeout=5000",
    "mapreduce.reduce.shuffle.max-host-failures=2",
    "mapreduce.map.speculative=false",
    "mapreduce.reduce.speculative=false"})
class PartitionClusterTest {
  static final Workload MAPS_OF_20S = Workloads.synthetic(6, 1).withMapMillis(20_000);
  static final Workload SORT = Workloads.sort(24L << 20).withMaps(6).withReduces(2);

  @Test
  void aNodeCutFromTheMasterIsLostWhileItWorksOnAndItsPeersStillReachIt(NamespaceCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(MAPS_OF_20S, Timeline.when(JobEvent.mapsRunning(3)).inject(
        Partition.fromMaster(Target.mostMaps().sparingApplicationMaster(), Partition.Direction.BOTH,
            Duration.ofSeconds(30)))));
    RunRecord.FaultEvent cut = r.faults().get(0);
    assertNotNull(cut.injectedMs(), "made: " + r.notes());
    assertNotNull(cut.detail().get("master"), cut.detail().toString());
    assertTrue(cluster.nodes().stream().noneMatch(n -> n.address().equals(cut.detail().get("master"))),
        "the master is the host's end of the node network, no node's: " + cut.detail());
    long lost = r.node(cut.node()).lostAt().orElseThrow(() -> new AssertionError("never LOST: " + r.nodeTransitions()));
    assertTrue(lost > cut.injectedMs() && lost < cut.healedMs(), "LOST by expiry within the partition");
    assertTrue(r.attempts().stream().anyMatch(a -> a.node() != null && a.node() == cut.node() && "KILLED".equals(a.state())
        && a.finishMs() != null && a.finishMs() < cut.healedMs()),
        "the AM, on a peer, killed the node's attempts before the partition healed: " + r.attempts());
    assertTrue(r.job().succeeded(), r.job().toString());
  }

  @Test
  void aNodeItsPeersCannotReachStaysRunningWhileFetchesFromItFail(NamespaceCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(SORT, Timeline.when(JobEvent.mapsCompleted(6)).inject(Partition.fromWorkers(
        Target.holdingMapOutputs().sparingApplicationMaster().sparingReducers(), List.of(), Partition.Direction.INBOUND,
        Duration.ofSeconds(75)))));
    RunRecord.FaultEvent cut = r.faults().get(0);
    assertNotNull(cut.injectedMs(), "made: " + r.notes());
    assertFalse(cut.detail().containsKey("master"), cut.detail().toString());
    assertTrue(r.nodeTransitions().stream().noneMatch(t -> t.node() == cut.node() && "LOST".equals(t.to())),
        "the ResourceManager still hears it: " + r.nodeTransitions());
    assertTrue(r.fetchFailures().stream().anyMatch(f -> f.mapNode() != null && f.mapNode() == cut.node()),
        "reducers report they cannot fetch from it: " + r.fetchFailures() + " " + r.notes());
    assertTrue(r.job().succeeded(), r.job().toString());
  }

  /**
   * A node whose link duplicates what it sends, while reducers fetch its map outputs: TCP drops
   * the copies (its peers answer with D-SACKs, which the node's own stack counts) and the job never
   * knows.
   */
  @Test
  void aDuplicatingNodesCopiesAreDroppedByTcpAndTheJobNeverKnows(NamespaceCluster cluster, Recorder recorder)
      throws java.io.IOException {
    RunRecord r = recorder.save(cluster.run(SORT, Timeline.when(JobEvent.mapsCompleted(6)).inject(
        new PacketDuplication(Target.holdingMapOutputs().sparingApplicationMaster(), 0.3, null))));
    RunRecord.FaultEvent dup = r.faults().get(0);
    assertNotNull(dup.injectedMs(), "made: " + r.notes());
    assertTrue(r.job().succeeded(), r.job().toString());
    assertEquals(List.of(), r.attempts().stream().filter(a -> "FAILED".equals(a.state()))
        .map(RunRecord.AttemptRecord::attemptId).toList(), "no attempt failed");
    NamespaceNode n = cluster.nodes().get(dup.node());
    Process cat = new ProcessBuilder(faultbed.faults.NodeNetwork.inside(n.namespace(), List.of("cat", "/proc/net/netstat")))
        .start();
    List<String> netstat = new String(cat.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
        .lines().filter(l -> l.startsWith("TcpExt:")).toList();
    List<String> names = List.of(netstat.get(0).split("\\s+"));
    long dsacks = Long.parseLong(netstat.get(1).split("\\s+")[names.indexOf("TCPDSACKRecv")]);
    assertTrue(dsacks > 10, dsacks + " D-SACKs received by the duplicating node");
  }
}
