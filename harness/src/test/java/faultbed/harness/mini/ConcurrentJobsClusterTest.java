package faultbed.harness.mini;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import org.junit.jupiter.api.Test;

/** Two copies of a job at once (seed 003's Figure 5): the first is measured, the other recorded beside it. */
@Faultbed(nodes = 4)
class ConcurrentJobsClusterTest {
  @Test
  void theSecondJobRunsBesideTheMeasuredOneAndIsRecorded(MiniCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(
        Workloads.sort(8L << 20).withMaps(2).withReduces(1).withConcurrentJobs(2), Timeline.none()));
    assertTrue(r.job().succeeded(), r.job().toString());
    assertEquals("2", r.workload().parameters().get("concurrentJobs"));
    assertEquals("0.5", r.hadoop().get("yarn.scheduler.capacity.maximum-am-resource-percent"), "both AMs admitted");
    assertTrue(r.outputCheck().correct(), r.outputCheck().toString());
    assertEquals(1, r.companionJobs().size());
    RunRecord.JobOutcome companion = r.companionJobs().get(0);
    assertTrue(companion.succeeded(), companion.toString());
    assertNotEquals(r.job().jobId(), companion.jobId());
    String measured = r.job().jobId().substring("job_".length());
    assertTrue(r.attempts().stream().allMatch(a -> a.attemptId().contains(measured)),
        "attempts are the measured job's");
    // they overlapped: the companion was submitted right after and ran at the same time, not once the
    // measured job had ended (as when the queue let one ApplicationMaster run at a time)
    assertTrue(companion.finishedMs() > 0 && companion.finishedMs() < r.job().finishedMs() * 3 / 2,
        "measured " + r.job().finishedMs() + " ms, companion " + companion.finishedMs() + " ms");
  }
}
