package faultbed.harness.mini;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.junit.Faultbed;
import faultbed.harness.observe.HistoryImport;
import faultbed.harness.timemodel.Machines;
import faultbed.harness.timemodel.TimeModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.timeline.PacketLoss;
import faultbed.harness.timeline.Target;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import org.junit.jupiter.api.Test;

/** Every workload's output is checked on the real cluster, and the record says what was checked. */
@Faultbed(nodes = 3)
class OutputCheckClusterTest {
  /**
   * Also under RST suppression on a live node's ports from the start, which changes nothing while
   * every port answers: the kind is made and healed on the mini backend's loopback (what it does to
   * a crashed node's peers: ci/extended, and the containers backend's silent crash).
   */
  @Test
  void wordCountOutputMatchesTheCountsOfItsInput(MiniCluster cluster, Recorder recorder) throws Exception {
    RunRecord r = recorder.save(cluster.run(Workloads.wordcount(4L << 20).withMaps(2).withReduces(2),
        Timeline.at(java.time.Duration.ZERO).inject(faultbed.harness.timeline.RstSuppression.on(Target.randomNode()))));
    assertTrue(r.job().succeeded(), r.job().toString());
    RunRecord.FaultEvent rst = r.faults().get(0);
    assertTrue(rst.injectedMs() != null && rst.healedMs() != null, rst + " " + r.notes());
    assertEquals("kernel", rst.detail().get("network"), rst.detail().toString());
    assertTrue(rst.detail().get("ports").matches("\\[\\d+(, \\d+)+\\]"), "every port of the node: " + rst.detail());
    RunRecord.OutputCheck check = r.outputCheck();
    assertTrue(check.correct() && check.method().startsWith("wordcount"), check.toString());
    assertTrue(check.detail().matches("\\d+ distinct words, \\d+ in all, as counted from the input"), check.detail());
    assertTrue(r.harnessMs().containsKey("outputCheck"));
    historyFileReadsAsTheRecord(cluster, r);
  }

  /**
   * The job's history file, as a user would copy it out of a real cluster's done folder with its
   * configuration, imported: the same attempts on the same nodes as the record faultbed assembled,
   * each as long, started as far apart; and a time model fits from it with each node a machine.
   */
  private static void historyFileReadsAsTheRecord(MiniCluster cluster, RunRecord r) throws Exception {
    Configuration conf = cluster.configuration();
    FileSystem fs = FileSystem.get(conf);
    Path copy = Files.createTempDirectory("faultbed-history");
    try {
      for (String root : List.of(JobHistoryUtils.getConfiguredHistoryIntermediateDoneDirPrefix(conf),
          JobHistoryUtils.getConfiguredHistoryServerDoneDirPrefix(conf))) {
        org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(root);
        if (!fs.exists(dir)) {
          continue;
        }
        var files = fs.listFiles(dir, true);
        while (files.hasNext()) {
          org.apache.hadoop.fs.Path p = files.next().getPath();
          if (p.getName().startsWith(r.job().jobId())) {
            fs.copyToLocalFile(p, new org.apache.hadoop.fs.Path(copy.resolve(p.getName()).toUri()));
          }
        }
      }
      Path jhist;
      try (var listed = Files.list(copy)) {
        jhist = listed.filter(p -> p.toString().endsWith(".jhist")).findFirst().orElseThrow(
            () -> new AssertionError("no history file of " + r.job().jobId() + " in the done folders"));
      }
      RunRecord imported = HistoryImport.read(jhist, "imported", "history", 0, null);
      assertEquals("wordcount", imported.workload().type(), "read from the job's name");
      assertEquals(r.job().jobId(), imported.runId());
      assertTrue(imported.job().succeeded(), imported.job().toString());
      assertEquals(r.job().maps(), imported.job().maps());
      assertEquals(r.job().reduces(), imported.job().reduces());
      assertEquals(r.hadoop().get("mapreduce.map.speculative"), imported.hadoop().get("mapreduce.map.speculative"),
          "the settings come from the job's configuration file beside the history file");
      assertTrue(imported.workload().inputBytes() > 0, "the maps' input counted: " + imported.workload());
      Map<String, RunRecord.AttemptRecord> assembled = new HashMap<>();
      r.attempts().forEach(a -> assembled.put(a.attemptId(), a));
      assertEquals(assembled.keySet(), imported.attempts().stream().map(RunRecord.AttemptRecord::attemptId)
          .collect(java.util.stream.Collectors.toSet()));
      Map<Integer, Integer> nodeOf = new HashMap<>(); // imported node -> the record's
      Set<Long> shifts = new java.util.TreeSet<>();
      for (RunRecord.AttemptRecord a : imported.attempts()) {
        RunRecord.AttemptRecord b = assembled.get(a.attemptId());
        assertEquals(b.state(), a.state(), a.attemptId());
        assertEquals(b.finishMs() - b.startMs(), a.finishMs() - a.startMs(), a.attemptId() + " as long");
        shifts.add(b.startMs() - a.startMs());
        assertEquals(b.progressClockMs(), a.progressClockMs(), a.attemptId());
        assertEquals(b.shuffleBytes(), a.shuffleBytes(), a.attemptId());
        if ("SUCCEEDED".equals(b.state())) {
          assertTrue(b.shuffleBytes() != null && b.shuffleBytes() > 0, b + ": what the shuffle moved of it");
        }
        Integer earlier = nodeOf.putIfAbsent(a.node(), b.node());
        assertTrue(earlier == null || earlier.equals(b.node()), a.attemptId() + " on one node in both");
      }
      assertEquals(1, shifts.size(), "every attempt started as far from the client's submission as from the"
          + " history's: " + shifts);
      assertEquals(nodeOf.size(), new java.util.HashSet<>(nodeOf.values()).size(), "node for node: " + nodeOf);
      TimeModel model = TimeModel.fit("imported", List.of(imported), List.of(), List.of(), Machines.perNode(2));
      assertTrue(model.fittedFrom().machinePerNode());
      assertTrue(model.workload("wordcount").map().medianMs() > 0, model.toString());
    } finally {
      try (var walk = Files.walk(copy)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /**
   * Under packet loss on a node's ports from the job's start (5 %, each lost packet sent again by
   * TCP) every record still arrives, and the record names the fault with its probability.
   */
  @Test
  void syntheticJobDeliversEveryRecordItsMapsSentThroughALossyNode(MiniCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(Workloads.synthetic(3, 2).withMapMillis(2_000).withReduceMillis(1_000),
        Timeline.at(java.time.Duration.ZERO).inject(new PacketLoss(Target.randomNode(), 0.05, null))));
    assertTrue(r.job().succeeded(), r.job().toString());
    RunRecord.OutputCheck check = r.outputCheck();
    assertTrue(check.correct(), check.toString());
    assertEquals((3 * Workloads.DEFAULT_RECORDS_PER_MAP) + " records sent and received", check.detail());
    RunRecord.FaultEvent loss = r.faults().get(0);
    assertEquals("packet-loss", loss.kind());
    assertTrue(loss.injectedMs() != null && loss.healedMs() != null, loss.toString());
    assertEquals("0.05", loss.detail().get("probability"), loss.detail().toString());
    assertEquals("kernel", loss.detail().get("network"), loss.detail().toString());
    assertTrue(loss.effect().slowsNode() && !loss.effect().stopsNode(), loss.effect().toString());
  }
}
