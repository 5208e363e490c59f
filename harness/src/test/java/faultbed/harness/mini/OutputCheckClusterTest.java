package faultbed.harness.mini;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import org.junit.jupiter.api.Test;

/** Every workload's output is checked on the real cluster, and the record says what was checked. */
@Faultbed(nodes = 3)
class OutputCheckClusterTest {
  @Test
  void wordCountOutputMatchesTheCountsOfItsInput(MiniCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(Workloads.wordcount(4L << 20).withMaps(2).withReduces(2), Timeline.none()));
    assertTrue(r.job().succeeded(), r.job().toString());
    RunRecord.OutputCheck check = r.outputCheck();
    assertTrue(check.correct() && check.method().startsWith("wordcount"), check.toString());
    assertTrue(check.detail().matches("\\d+ distinct words, \\d+ in all, as counted from the input"), check.detail());
    assertTrue(r.harnessMs().containsKey("outputCheck"));
  }

  @Test
  void syntheticJobDeliversEveryRecordItsMapsSent(MiniCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(Workloads.synthetic(3, 2).withMapMillis(2_000).withReduceMillis(1_000),
        Timeline.none()));
    assertTrue(r.job().succeeded(), r.job().toString());
    RunRecord.OutputCheck check = r.outputCheck();
    assertTrue(check.correct(), check.toString());
    assertEquals((3 * Workloads.DEFAULT_RECORDS_PER_MAP) + " records sent and received", check.detail());
  }
}
