package faultbed.harness.mini;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Time compression at 0.05: configured timers are a twentieth of Hadoop's defaults, and the shuffle
 * back-off Hadoop hard-codes (10 s x 1.3^F) is a twentieth too, as the reducers of a job that lost a
 * node's map outputs show in their own logs.
 */
@Faultbed(nodes = 4, timeScale = 0.05, hadoop = "mapreduce.job.reduce.slowstart.completedmaps=1.0")
// The test command runs at time scale 0.05 in SpeculationClusterTest, whose record shows the scaled
// timers and the agent installed; the crash that makes reducers back off runs with ci/extended.
@Tag("extended")
class TimeCompressionClusterTest {
  private static final double SCALE = 0.05; // the job and its node's expiry take half as long as at 0.1
  private static final Pattern PENALTY = Pattern.compile("FAULTBED-TIMESCALE penalize \\S+ (\\d+) ms");

  @Test
  void timersAreScaledAndReducersBackOffATenthOfHadoopsPenalty(MiniCluster cluster, Recorder recorder) {
    RunRecord r = recorder.save(cluster.run(Workloads.sort(16L << 20).withMaps(4).withReduces(2),
        Timeline.when(JobEvent.mapsCompleted(4))
            .inject(NodeCrash.on(Target.holdingMapOutputs().sparingApplicationMaster()))));
    assertTrue(r.job().succeeded(), r.job().diagnostics());

    assertEquals(SCALE, r.timeScale().factor());
    assertEquals("30000 ms (scaled from 600000)", r.timeScale().timers().get("yarn.nm.liveness-monitor.expiry-interval-ms"));
    assertEquals("9000", r.hadoop().get("mapreduce.reduce.shuffle.connect.timeout"));
    // a key that counts seconds is scaled in seconds
    assertEquals("15 s (scaled from 300)",
        r.timeScale().timers().get("mapreduce.job.reducer.unconditional-preempt.delay.sec"));
    assertEquals("15", r.hadoop().get("mapreduce.job.reducer.unconditional-preempt.delay.sec"));
    assertEquals("false", r.hadoop().get("yarn.app.mapreduce.am.job.node-blacklisting.enable"));
    assertTrue(r.timeScale().timers().get("ShuffleSchedulerImpl.copyFailed").startsWith("500 ms (agent"),
        r.timeScale().timers().toString());
    assertFalse(r.timeScale().unscaled().isEmpty());
    // the record says what the agent said: the AM and both reducers installed it, none missed a constant
    Integer installed = r.timeScale().agent().get("installed, scale " + SCALE);
    assertTrue(installed != null && installed >= 3, r.timeScale().agent().toString());
    assertTrue(r.timeScale().agent().keySet().stream().noneMatch(l -> l.contains("NOT FOUND")),
        r.timeScale().agent().toString());

    List<String> stderr = reducerStderr(r);
    assertTrue(stderr.stream().anyMatch(l -> l.contains("rescaled shuffle back-off")), "agent rewrote the penalty");
    List<Long> penalties = new ArrayList<>();
    for (String line : stderr) {
      Matcher m = PENALTY.matcher(line);
      if (m.find()) {
        penalties.add(Long.parseLong(m.group(1)));
      }
    }
    assertFalse(penalties.isEmpty(), "reducers backed off from the dead node");
    // Hadoop: delay = (long) (10000 * 1.3f^F), capped by retry-delay.max (60 s); here both x SCALE.
    List<Long> allowed = new ArrayList<>();
    for (int f = 1; f <= 20; f++) {
      allowed.add(Math.min((long) (10000 * SCALE * Math.pow(1.3f, f)), (long) (60000 * SCALE)));
    }
    for (long p : penalties) {
      assertTrue(allowed.contains(p), "penalty " + p + " ms is not 1 s x 1.3^F: " + penalties);
    }
    assertTrue(penalties.contains(allowed.get(0)), "first failure backs off 1.3 s x SCALE: " + penalties);
  }

  /** Every line the run's reduce attempts wrote to stderr. */
  private static List<String> reducerStderr(RunRecord r) {
    List<String> lines = new ArrayList<>();
    String app = r.job().jobId().replace("job_", "application_");
    for (RunRecord.AttemptRecord a : r.attempts()) {
      if (!a.type().equals("REDUCE") || a.container() == null || a.node() == null) {
        continue;
      }
      for (String dir : r.node(a.node()).logDirs()) {
        Path f = Path.of(dir, app, a.container(), "stderr");
        if (Files.isRegularFile(f)) {
          try (Stream<String> s = Files.lines(f)) {
            s.forEach(lines::add);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    }
    return lines;
  }
}
