package faultbed.harness.ns;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.faults.NodeDisk;
import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.SlowDisk;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A disk that limps, one of a DataNode's three: HDFS's slow-disk detection, on with thresholds for
 * three disks and a detection pass every 3 s (30 minutes and 5 disks by default), compares the
 * latencies of the DataNode's own volumes, names the slow one to the NameNode in a heartbeat, and
 * leaves it out when it places new replicas. Nothing in YARN notices; the job goes on.
 *
 * <p>Only writes count: a DataNode's reads for clients are transfers, which the detection does not
 * compare. So every node holds every block and blocks are small: the job's output comes to node 1
 * as a dozen replicas, which its volume choice (round robin) spreads over all three disks, rather
 * than one replica per reduce that may miss the slow disk. Those writes are the job's last seconds,
 * and a verdict takes up to a detection pass, a report in a heartbeat and the NameNode's next report
 * (3 s each) to show: it may come after the job, so the NameNode is asked until then too.
 */
@Faultbed(backend = "namespace", nodes = 4, disks = 3, hadoop = {
    "dfs.replication=4",
    "dfs.blocksize=4m",
    "dfs.datanode.fileio.profiling.sampling.percentage=100",
    "dfs.datanode.min.outlier.detection.disks=3",
    "dfs.datanode.max.slowdisks.to.exclude=1",
    "dfs.datanode.outliers.report.interval=3s"})
class SlowDiskClusterTest {
  @Test
  void oneSlowDiskOfThreeIsNamedByHdfsAndTheJobGoesOn(NamespaceCluster cluster, Recorder recorder) throws Exception {
    assumeTrue(NodeDisk.slowProblems().isEmpty(), () -> String.join("; ", NodeDisk.slowProblems()));
    RunRecord r = recorder.save(cluster.run(Workloads.sort(48L << 20).withMaps(6).withReduces(2),
        Timeline.at(Duration.ZERO).inject(new SlowDisk(Target.node(1), List.of(0), 1L << 20, null))));
    RunRecord.FaultEvent slow = r.faults().get(0);
    assertNotNull(slow.injectedMs(), "made: " + r.notes());
    String device = slow.detail().get("disk0Device");
    assertNotNull(device, slow.detail().toString());
    assertTrue(r.job().succeeded(), r.job().toString());
    boolean namedInRun = r.slowReports().stream().anyMatch(s -> s.what().equals(RunRecord.SlowReport.DISK)
        && s.node() == 1 && s.dataNode().contains("/node-1/disk-0/"));
    if (!namedInRun) {
      Awaitility.await("HDFS names node 1's disk 0 slow (not in the run: " + r.slowReports() + ")")
          .atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofSeconds(1))
          .until(() -> cluster.slowReports().slowDisks(), d -> d != null && d.contains("/node-1/disk-0/"));
    }
    assertTrue(r.nodeTransitions().stream().noneMatch(t -> t.node() == 1), "the node stayed RUNNING: "
        + r.nodeTransitions());
    Path rules = faultbed.faults.CgroupLayout.current().v1Root("blkio").orElseThrow()
        .resolve("blkio.throttle.write_bps_device");
    assertFalse(Files.readString(rules).contains(device + " "), "the throttle is lifted: " + Files.readString(rules));
  }
}
