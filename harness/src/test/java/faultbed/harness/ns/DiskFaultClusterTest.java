package faultbed.harness.ns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.CorruptReplica;
import faultbed.harness.timeline.DiskFailure;
import faultbed.harness.timeline.DiskFull;
import faultbed.harness.timeline.Injection;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.JobInput;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Each node with one disk of its own, holding its local dir, log dir and DataNode volume; the
 * NodeManager checks its dirs every 2 s (2 minutes by default). A full disk is noticed by that
 * check: the node reports itself UNHEALTHY, the ResourceManager stops using it, and it is RUNNING
 * again once the fill is gone. A failed disk is not: the default "basic" disk validator checks only
 * that each dir exists and may be read and written ({@code DiskChecker.checkDir}, no I/O), which a
 * failed disk's cached metadata still answers, so the node stays RUNNING and every container sent
 * to it fails at launch, until the MR AM blacklists the node after
 * {@code mapreduce.job.maxtaskfailures.per.tracker} (3) failures (on four nodes one is below the
 * 33 % above which blacklisting is ignored). The "read-write" validator, which would notice, makes
 * every container launch fail in Hadoop 3.4 (LocalDirAllocator asks it about a folder not yet made).
 */
@Faultbed(backend = "namespace", nodes = 4, disks = 1, hadoop = {
    "yarn.nodemanager.disk-health-checker.interval-ms=2000",
    "mapreduce.map.speculative=false",
    "mapreduce.reduce.speculative=false"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DiskFaultClusterTest {
  static final Workload MAPS_OF_20S = Workloads.synthetic(6, 1).withMapMillis(20_000);
  /** The AM's heartbeat to the RM (1 s) and a container's launch: an allocation made before a blacklist. */
  static final long ALLOCATION_IN_FLIGHT_MS = 3_000;

  /** When the struck node went from RUNNING to {@code to}, after the fault's injection; null if never. */
  private static Long went(RunRecord r, int node, String to) {
    long injected = r.faults().get(0).injectedMs();
    return r.nodeTransitions().stream().filter(t -> t.node() == node && t.to().equals(to) && t.atMs() >= injected)
        .map(RunRecord.NodeTransition::atMs).findFirst().orElse(null);
  }

  @Test
  @Order(1)
  void aFullDiskMakesTheNodeUnhealthyUntilItIsHealed(NamespaceCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(MAPS_OF_20S, Timeline.when(JobEvent.mapsRunning(3)).inject(
        DiskFull.of(Target.mostMaps().sparingApplicationMaster(), 0, Duration.ofSeconds(25)))));
    RunRecord.FaultEvent full = r.faults().get(0);
    assertNotNull(full.injectedMs(), "made: " + r.notes());
    assertTrue(Long.parseLong(full.detail().get("disk0FilledBytes")) > 1L << 30, full.detail().toString());
    Long unhealthy = went(r, full.node(), "UNHEALTHY");
    assertNotNull(unhealthy, "the node never reported itself unhealthy: " + r.nodeTransitions());
    Long back = r.nodeTransitions().stream().filter(t -> t.node() == full.node() && t.from().equals("UNHEALTHY")
        && t.to().equals("RUNNING")).map(RunRecord.NodeTransition::atMs).findFirst().orElse(null);
    assertNotNull(back, "the node never came back after the heal: " + r.nodeTransitions());
    assertTrue(back >= full.healedMs(), "back at " + back + " ms, healed at " + full.healedMs() + " ms");
    assertTrue(r.job().succeeded(), r.job().toString());
    assertTrue(cluster.nodes().get(full.node()).disks().get(0).free() > 1L << 30, "the fill is gone");
  }

  @Test
  @Order(2)
  void aFailedDiskGoesUnnoticedByTheNodeAndItsContainersFailUntilTheJobBlacklistsIt(NamespaceCluster cluster,
      Recorder recorder) throws Exception {
    RunRecord r = recorder.save(cluster.run(MAPS_OF_20S, Timeline.when(JobEvent.mapsRunning(3)).inject(
        DiskFailure.of(Target.mostMaps().sparingApplicationMaster(), List.of(), Duration.ofSeconds(25)))));
    RunRecord.FaultEvent failure = r.faults().get(0);
    assertNotNull(failure.injectedMs(), "made: " + r.notes());
    assertEquals(List.of(), r.nodeTransitions().stream().filter(t -> t.node() == failure.node()).toList(),
        "the node's state never changed");
    // a running task's I/O fails (EIO), a new container cannot be launched there ("Could not find any
    // valid local directory", or its launch script unreadable)
    List<RunRecord.AttemptRecord> failed = r.attempts().stream().filter(a -> a.node() != null
        && a.node() == failure.node() && "FAILED".equals(a.state()) && a.finishMs() != null)
        .sorted(java.util.Comparator.comparing(RunRecord.AttemptRecord::finishMs)).toList();
    assertTrue(failed.size() >= 3, "three attempts failed on the node: " + r.attempts());
    // the AM stops asking for the node once it has handled the third failure; a container it was
    // given for the node in the same allocation may still start there (seen 60 ms after it, under load)
    long blacklisted = failed.get(2).finishMs() + ALLOCATION_IN_FLIGHT_MS;
    assertEquals(List.of(), r.attempts().stream().filter(a -> a.node() != null && a.node() == failure.node()
        && a.startMs() != null && a.startMs() > blacklisted).map(RunRecord.AttemptRecord::attemptId).toList(),
        "no attempt started on the node once three had failed there (blacklisted)");
    assertTrue(r.job().succeeded(), r.job().toString());
    NamespaceNode struck = cluster.nodes().get(failure.node());
    assertFalse(struck.disks().get(0).failed(), "the disk was mounted again");
    // and the node process, in the mount namespace ip netns exec gave it, sees it mounted again
    Process write = new ProcessBuilder("nsenter", "-t", Long.toString(struck.pid()), "-m", "sh", "-c",
        "echo ok > " + struck.disks().get(0).mount().resolve("probe") + " && cat "
            + struck.disks().get(0).mount().resolve("probe")).redirectErrorStream(true).start();
    String said = new String(write.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, write.waitFor(), "a write in the node's mount namespace after the heal: " + said);
    cluster.reset();
    assertEquals(4, cluster.nodes().stream().filter(n -> n.isUp()).count(), "every node up after the reset");
  }

  /**
   * A DataNode whose only volume failed is not noticed either: its volume check
   * ({@code BlockPoolSlice.checkDirs}, {@code DiskChecker.checkDir} on its block folders) does no
   * I/O, so after the EIO that made it check, it keeps the volume and the NameNode keeps it live.
   * What works around it is the client: a write pipeline through it fails there, and the block is
   * completed on the other nodes.
   */
  @Test
  @Order(3)
  void aDataNodeWhoseOnlyVolumeFailedStaysLiveAndWritesGoAroundIt(NamespaceCluster cluster) throws Exception {
    NamespaceNode struck = cluster.nodes().get(1);
    faultbed.faults.Installed failed = DiskFailure.of(Target.node(1), List.of(), null).inject(struck,
        cluster.faultContext("datanode-volume")).healer();
    org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.get(cluster.configuration());
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/faultbed-probe/volume-failure");
    try {
      // a replica on every node: the pipeline goes through the struck node's failed volume
      try (var out = fs.create(file, true, 4096, (short) 4, 1L << 20)) {
        out.write(new byte[64 << 10]);
      }
      List<String> hosts = List.of(fs.getFileBlockLocations(file, 0, 1)[0].getHosts());
      assertFalse(hosts.isEmpty(), "the block was completed on other nodes");
      assertFalse(hosts.contains(struck.address()), hosts + " holds none on " + struck.address());
      assertEquals(4, cluster.liveDataNodes(), "the NameNode still counts the struck DataNode live");
    } finally {
      fs.delete(file.getParent(), true);
      failed.heal();
    }
  }

  /**
   * A job whose input has corrupt replicas on one node: the DataNode serves them as they are, a
   * map reading one fails its checksum check and reads another replica, and the job never knows.
   */
  @Test
  @Order(4)
  void aJobReadsAroundCorruptReplicasOfItsInput(NamespaceCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(Workloads.sort(32L << 20).withMaps(4).withReduces(1),
        Timeline.at(Duration.ZERO).inject(new CorruptReplica(Target.node(1), null, null))));
    RunRecord.FaultEvent f = r.faults().get(0);
    assertNotNull(f.injectedMs(), "made: " + r.notes());
    assertFalse(f.detail().get("corruptedBlocks").isEmpty(), "node 1 held input blocks: " + f.detail());
    assertTrue(r.job().succeeded(), r.job().toString());
    assertEquals(List.of(), r.attempts().stream().filter(a -> "FAILED".equals(a.state()))
        .map(RunRecord.AttemptRecord::attemptId).toList(), "no attempt failed");
    // what HDFS did with them, counted by the heal at the job's end: read and replaced, or left as they were
    int made = f.detail().get("corruptedBlocks").split(",").length;
    assertEquals(made, Integer.parseInt(f.detail().get("replicasDeleted"))
        + Integer.parseInt(f.detail().get("replicasLeftCorrupt")), f.detail().toString());
  }

  /**
   * HDFS's own path for a corrupt replica, read until it is found: the reader reports it, the
   * NameNode stops offering it, copies the block to another node and has the DataNode delete the
   * bad replica; the heal then finds nothing to write back.
   */
  @Test
  @Order(5)
  void aCorruptReplicaIsReportedByItsReaderReplacedAndDeleted(NamespaceCluster cluster) throws Exception {
    NamespaceNode struck = cluster.nodes().get(1);
    org.apache.hadoop.hdfs.DistributedFileSystem fs = (org.apache.hadoop.hdfs.DistributedFileSystem)
        org.apache.hadoop.fs.FileSystem.get(cluster.configuration());
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/faultbed-probe/corrupt-replica");
    byte[] data = new byte[1 << 20];
    new java.util.Random(7).nextBytes(data);
    // three replicas, one of them on the struck node (a favoured node), so one can be made elsewhere
    try (var out = fs.create(file, org.apache.hadoop.fs.permission.FsPermission.getFileDefault(), true, 4096, (short) 3,
        1L << 20, null, new java.net.InetSocketAddress[] {new java.net.InetSocketAddress(struck.address(),
        java.util.Arrays.stream(fs.getDataNodeStats()).filter(d -> d.getIpAddr().equals(struck.address())).findFirst()
            .orElseThrow().getXferPort())})) {
      out.write(data);
    }
    java.util.function.Supplier<org.apache.hadoop.hdfs.protocol.LocatedBlock> block = () -> {
      try {
        return fs.getClient().getLocatedBlocks(file.toUri().getPath(), 0, data.length).get(0);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    };
    java.util.function.Supplier<List<String>> hosts = () -> java.util.Arrays.stream(block.get().getLocations())
        .map(org.apache.hadoop.hdfs.protocol.DatanodeInfo::getIpAddr).toList();
    org.junit.jupiter.api.Assumptions.assumeTrue(hosts.get().contains(struck.address()),
        "the NameNode placed no replica on the favoured node: " + hosts.get());
    String name = block.get().getBlock().getBlockName();
    JobInput input = address -> address.equals(struck.address()) ? List.of(name) : List.of();
    Injection made = new CorruptReplica(Target.node(1), null, null).inject(struck,
        cluster.faultContext("corrupt-replica").withInput(input));
    assertEquals(name, made.detail().get("corruptedBlocks"));
    java.nio.file.Path replica = CorruptReplica.replicaFile(struck.dataDirs(), name).orElseThrow();
    try {
      // each read takes a replica at random until the corrupt one is read and reported
      org.awaitility.Awaitility.await("the NameNode stops offering the corrupt replica").atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(200)).until(() -> {
            byte[] back = new byte[data.length];
            try (var in = fs.open(file)) {
              in.readFully(0, back);
            }
            assertTrue(java.util.Arrays.equals(data, back), "every read returns the right bytes");
            return !hosts.get().contains(struck.address());
          });
      org.awaitility.Awaitility.await("three good replicas again, the bad one deleted").atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> hosts.get().size() == 3 && !java.nio.file.Files.exists(replica));
    } finally {
      made.healer().heal(); // nothing left to write back where the replica was deleted
      fs.delete(file.getParent(), true);
    }
  }
}
