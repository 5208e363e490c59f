package faultbed.harness.mini;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A job whose ApplicationMaster never starts (its JVM refuses an option, both attempts): no AM wrote a
 * history, and the run is recorded as a failed job with the ResourceManager's reason and a note saying
 * so, within seconds, rather than breaking the harness after a minute's wait for a history file.
 */
@Tag("extended")
@Faultbed(nodes = 2, hadoop = "yarn.app.mapreduce.am.command-opts=-XX:+FaultbedNoSuchOption")
class AmNeverStartsClusterTest {
  @Test
  void aJobWhoseAmNeverRanIsRecordedAsFailedWithTheReason(MiniCluster cluster, Recorder recorder) {
    long began = System.nanoTime();
    RunRecord r = recorder.save(cluster.run(Workloads.synthetic(2, 0).withMapMillis(1000), Timeline.none()));
    long tookMs = (System.nanoTime() - began) / 1_000_000;
    assertFalse(r.job().succeeded(), r.job().toString());
    assertTrue(r.attempts().isEmpty(), "no task ever ran: " + r.attempts());
    assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("no history file: no ApplicationMaster of the job wrote one")),
        r.notes().toString());
    assertTrue(r.job().diagnostics() != null && !r.job().diagnostics().isBlank(), "the RM's reason: " + r.job());
    assertTrue(tookMs < 60_000, "recorded in " + tookMs + " ms, not after a minute's wait for a history file");
  }
}
