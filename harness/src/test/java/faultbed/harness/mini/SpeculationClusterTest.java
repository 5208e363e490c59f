package faultbed.harness.mini;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.RunSpec;
import faultbed.harness.Speculation;
import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.DiskLoad;
import faultbed.harness.timeline.SlowNode;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.timeline.Trigger;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.SpeculationEvent;
import faultbed.results.SpeculationOutcome;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each speculator runs inside a real MR ApplicationMaster and backs up a straggler: one node (not
 * the AM's, nor the one the reduce is pinned to) is cut to a tenth of a core and given a dd writer
 * two seconds into the job, so the maps it holds crawl. At time scale 0.05 the seeds' 60 s minimum
 * running time is 3 s. The reduce is pinned off the slowed node: it is not what is tested, and on
 * the slowed node it took 80 s of a 136 s job.
 */
// The task timeout is left at Hadoop's 600 s, not scaled to 30 s: at a tenth of a core under a dd
// writer a task on the slowed node can be silent that long, and its failures (and a reduce failing
// there twice) made a job take up to 240 s without testing anything the backups do.
@Faultbed(nodes = 4, timeScale = 0.05, hadoop = {"mapreduce.job.reduce.slowstart.completedmaps=1.0",
    "mapreduce.task.timeout=600000"})
class SpeculationClusterTest {
  private static final Workload WORDCOUNT = Workloads.wordcount(48L << 20).withMaps(12).withReduces(1);
  // Two faults due at the same moment, the second on "the same" node: both must fire on time.
  private static final Timeline STRAGGLER = Timeline.at(Duration.ofSeconds(2))
      .inject(new SlowNode(Target.randomNode().sparingApplicationMaster().sparingReducers(), 0.1, null, null, null))
      .then(Trigger.at(Duration.ofSeconds(2)))
      .inject(new DiskLoad(Target.same(), 1, 1L << 20, 64L << 20, true, null));

  /**
   * Hadoop's own speculator, at time scale 0.05: the record also says how the timers were scaled and
   * that the AM and the reducer installed the time-scale agent.
   */
  @Test
  void hadoopsSpeculatorRunsInTheAmAndBacksUpTheStraggler(MiniCluster cluster, Recorder recorder) {
    RunRecord r = backsUpTheStraggler("hadoop3", cluster, recorder);
    assertEquals(0.05, r.timeScale().factor());
    assertEquals("30000 ms (scaled from 600000)", r.timeScale().timers().get("yarn.nm.liveness-monitor.expiry-interval-ms"));
    Integer installed = r.timeScale().agent().get("installed, scale 0.05");
    assertTrue(installed != null && installed >= 2, "the AM and the reducer: " + r.timeScale().agent());
    assertTrue(r.timeScale().agent().keySet().stream().noneMatch(l -> l.contains("NOT FOUND")),
        r.timeScale().agent().toString());
  }

  /**
   * faultbed's policies run in the AM through one PolicySpeculator, whose decisions and backups on a
   * real cluster the test command shows with a user's policy (UserClasspathTest), and their rules
   * have unit tests of their own (schedulers module): ci/extended runs them on the cluster.
   */
  @Tag("extended")
  @ParameterizedTest
  @ValueSource(strings = {"late", "samr", "hadoop-0.21", "base"})
  void otherPoliciesRunInTheAmAndBackUpTheStraggler(String name, MiniCluster cluster, Recorder recorder) {
    backsUpTheStraggler(name, cluster, recorder);
  }

  private static RunRecord backsUpTheStraggler(String name, MiniCluster cluster, Recorder recorder) {
    // BASE sits on Hadoop's rule (a rate one standard deviation below the mean of the running tasks),
    // which on four nodes fires only once the last stragglers' rates happen to diverge; with the
    // deviation set to 0 every below-mean task is a candidate and BASE's own benefit test decides.
    Speculation s = switch (name) {
      case "hadoop3" -> Speculation.hadoop3("legacy");
      case "base" -> Speculation.policy(name, java.util.Map.of("slowTaskStdDevs", "0"));
      default -> Speculation.policy(name);
    };
    RunRecord r = recorder.save(cluster.run(RunSpec.of(WORDCOUNT, STRAGGLER).withSpeculation(s)
        .withPinned(java.util.Set.of(faultbed.harness.Pin.AM, faultbed.harness.Pin.REDUCES))));
    assertTrue(r.job().succeeded(), r.job().diagnostics());
    int slowed = r.faults().get(0).node();
    for (RunRecord.FaultEvent f : r.faults()) {
      assertTrue(f.injectedMs() != null && f.injectedMs() < 3_000, "late or missing injection: " + r.faults());
      assertEquals(slowed, f.node(), "disk load on the same node: " + r.faults());
    }

    String speculator = name.equals("hadoop3")
        ? "org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator"
        : "faultbed.schedulers.yarn.PolicySpeculator";
    assertEquals(speculator, r.hadoop().get("yarn.app.mapreduce.am.job.speculator.class"));
    assertEquals(s.describe(), r.speculation().policy());
    assertTrue(r.attempts().stream().noneMatch(a -> a.type().equals("REDUCE") && Integer.valueOf(slowed).equals(a.node())),
        "a reduce ran on the slowed node " + slowed + " though pinned elsewhere: " + r.placement());

    List<SpeculationEvent> asked = r.speculation().events().stream()
        .filter(e -> e.event().equals("backup")).toList();
    assertFalse(asked.isEmpty(), "no backup asked for; events " + r.speculation().events());
    SpeculationOutcome o = SpeculationOutcome.of(r);
    assertTrue(o.launched() >= 1, "no backup attempt started: " + o);
    // The straggler is what gets backed up: some backup races an attempt that ran on the slowed node.
    assertTrue(o.backups().stream().anyMatch(b -> r.attempts().stream().anyMatch(a ->
            a.taskId().equals(b.taskId()) && !a.speculative() && a.node() != null && a.node() == slowed)),
        "no backup of a task on slowed node " + slowed + ": " + o.backups());
    // Every decision names the original it backs up, its node and why: a policy's from its own log,
    // Hadoop's from the history (how long the original had run against the finished attempts' mean).
    assertTrue(asked.stream().allMatch(e -> e.reason() != null && !e.reason().isBlank() && e.attempt() != null
        && e.node() != null), asked.toString());
    if (name.equals("hadoop3")) {
      assertTrue(asked.stream().allMatch(e -> e.evidence().containsKey("originalRunMs")), asked.toString());
      // How far along the original was, from the progress clock its AM wrote to the history.
      assertTrue(asked.stream().allMatch(e -> e.evidence().containsKey("originalProgress")
          || e.evidence().containsKey("originalProgressAtLeast")), asked.toString());
    }
    // Every attempt that succeeded has its progress clock, most of its twelfths written.
    for (var a : r.attempts()) {
      if ("SUCCEEDED".equals(a.state())) {
        assertTrue(a.progressClockMs() != null && a.progressClockMs().size() >= 10, a.toString());
      }
    }
    cluster.reset();
    return r;
  }
}
