package faultbed.harness.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.timeline.Blackhole;
import faultbed.harness.timeline.Fault;
import faultbed.harness.timeline.Freeze;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.RstSuppression;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.junit.jupiter.api.Test;

/**
 * What a dead or frozen node's map outputs do to the reducers that must fetch them, as Hadoop 3.4's
 * reducer fetches (connect and read timeouts 10 s here, the back-off 10 s x 1.3^failures): a refused
 * connect is reported once the connect gives up, an unanswered one only once the host has failed more
 * than five times; a reducer that fails to fetch as often as it succeeds, and has stalled, gives up on
 * itself; a frozen node thawed before its expiry costs a pause, one thawed after it comes back empty;
 * a blackhole silences the node's server and heartbeats while its tasks run on; a crash where RSTs are
 * suppressed is a silent one. Reduces start once every map is done and the fault strikes then, so they
 * must fetch from its node.
 */
class SimulationShuffleFaultsTest {
  private static final int NODE = 1;
  private static final int MAPS = 40;

  private static Latencies expiry(long ms) {
    return new Latencies(1_000, 3_000, 500, 200, 1_000, 1_000, 1_000, 500, 2_000, 2_000, ms);
  }

  private static SimulationSpec spec(int nodes, Latencies latencies) {
    Map<String, String> job = new HashMap<>(Specs.NO_SPECULATION);
    job.put("mapreduce.reduce.shuffle.connect.timeout", "10000");
    job.put("mapreduce.reduce.shuffle.read.timeout", "10000");
    job.put("mapreduce.job.reduce.slowstart.completedmaps", "1.0");
    return SimulationSpec.of(Specs.cluster(nodes), MAPS, 4, job, new NoisyTaskTimes(10_000, 20_000, 0.1, 7), latencies, 7);
  }

  private static SimulationResult run(int nodes, Fault fault, Latencies latencies) {
    SimulationSpec spec = spec(nodes, latencies);
    return Simulation.run(fault == null ? spec
        : spec.withFaults(Timeline.when(JobEvent.mapsCompleted(MAPS)).inject(fault), null));
  }

  /** When the first map that had succeeded on the node before the fault ran again, since the fault. */
  private static long reRunAfter(SimulationResult r, int nodes) {
    long at = r.faults().get(0).injectedMs();
    String node = Specs.cluster(nodes).node(NODE).address();
    Set<String> doneThere = r.attempts().stream().filter(a -> a.type() == TaskType.MAP && node.equals(a.node())
        && a.finish() >= 0 && a.finish() < at).map(SimulatedAttempt::taskId).collect(Collectors.toSet());
    assertTrue(!doneThere.isEmpty(), "no map had finished on the node");
    return r.attempts().stream().filter(a -> doneThere.contains(a.taskId()) && a.start() > at)
        .mapToLong(SimulatedAttempt::start).min().orElseThrow() - at;
  }

  private static List<SimulatedAttempt> in(SimulationResult r, TaskType type, TaskAttemptState state) {
    return r.attempts().stream().filter(a -> a.type() == type && a.state() == state).toList();
  }

  @Test
  void aRefusedFetchIsReportedWhenItsConnectGivesUpAndTheAmRunsTheMapAgain() {
    SimulationResult r = run(8, NodeCrash.on(Target.node(NODE)), expiry(600_000));
    assertEquals("SUCCEEDED", r.jobState());
    assertTrue(r.nodeTransitions().isEmpty(), "lost before its 600 s expiry: " + r.nodeTransitions());
    assertTrue(in(r, TaskType.REDUCE, TaskAttemptState.FAILED).isEmpty(), "a reduce gave up");
    // reduces launch about 1.5 s after the crash; each reports once its connect gives up (10 s), with its next status
    long after = reRunAfter(r, 8);
    assertTrue(after > 11_500 && after < 20_000, "re-run " + after + " ms after the crash");
    // what each reducer reported is recorded, as a real reducer's log has it: about maps of the dead
    // node only, from reducers elsewhere, once its connect gave up (10 s after the crash at the earliest)
    long crash = r.faults().get(0).injectedMs();
    assertTrue(!r.fetchFailures().isEmpty(), "no report recorded");
    for (faultbed.results.RunRecord.FetchFailureReport report : r.fetchFailures()) {
      assertEquals(NODE, report.mapNode(), report.toString());
      assertTrue(report.reduceNode() != NODE && report.reduceAttempt().contains("_r_")
          && report.mapAttempt().contains("_m_"), report.toString());
      assertTrue(report.atMs() >= crash + 10_000 && report.atMs() < crash + after, report + " crash at " + crash);
    }
  }

  @Test
  void unansweredFetchesAreNotReportedAtOnceAndTheReducersGiveUpBeforeTheHostCountsAsFailed() {
    SimulationResult r = run(8, NodeCrash.on(Target.node(NODE)).withoutRst(), expiry(300_000));
    assertEquals("SUCCEEDED", r.jobState());
    long crash = r.faults().get(0).injectedMs();
    // six connects of 10 s with back-offs of 13, 16.9, 22, 28.6 and 37.1 s between them (177.6 s): at the
    // sixth failure the host has failed more than five times, but by then as many fetches have failed as
    // succeeded and the reducer has stalled, so it gives up at the shuffle's next check, before its report
    List<SimulatedAttempt> gaveUp = in(r, TaskType.REDUCE, TaskAttemptState.FAILED);
    assertTrue(!gaveUp.isEmpty(), "no reduce gave up");
    for (SimulatedAttempt a : gaveUp) {
      assertTrue(a.diagnostics().contains("Exceeded MAX_FAILED_UNIQUE_FETCHES"), a.diagnostics());
      assertTrue(a.finish() - a.start() > 177_600 && a.finish() - a.start() <= 177_600 + 2_000, a.toString());
    }
    // so the AM hears nothing about the maps, and runs them again only once the node is lost
    long lost = r.nodeTransitions().get(0).atMs();
    assertTrue(lost > crash + 300_000, "lost at " + lost);
    assertTrue(reRunAfter(r, 8) >= lost - crash, "re-run before the node was lost");
  }

  @Test
  void aReducerThatFailsToFetchAsOftenAsItSucceedsAndHasStalledGivesUpOnItself() {
    // two nodes: the dead one held about half the outputs, so the first connect that gives up fails as many
    // fetches as succeeded
    SimulationResult r = run(2, NodeCrash.on(Target.node(NODE)).withoutRst(), expiry(600_000));
    List<SimulatedAttempt> gaveUp = in(r, TaskType.REDUCE, TaskAttemptState.FAILED);
    assertTrue(!gaveUp.isEmpty(), "no reduce gave up");
    for (SimulatedAttempt a : gaveUp) {
      assertTrue(a.diagnostics().contains("Exceeded MAX_FAILED_UNIQUE_FETCHES"), a.diagnostics());
      // the first connect gives up after 10 s, the shuffle throws at its next check
      assertTrue(a.finish() - a.start() > 10_000 && a.finish() - a.start() <= 12_000, a.toString());
    }
  }

  @Test
  void aFreezeThawedBeforeExpiryCostsAPauseAndNothingElse() {
    SimulationResult quiet = run(8, null, expiry(600_000));
    SimulationResult frozen = run(8, new Freeze(Target.node(NODE), Duration.ofSeconds(8)), expiry(600_000));
    assertEquals("SUCCEEDED", frozen.jobState());
    assertTrue(frozen.nodeTransitions().isEmpty(), frozen.nodeTransitions().toString());
    assertTrue(frozen.attempts().stream().allMatch(a -> a.state() == TaskAttemptState.SUCCEEDED),
        "an attempt did not succeed");
    long cost = frozen.completionTime() - quiet.completionTime();
    assertTrue(cost > 0 && cost <= 8_000 + 2_000, "the freeze cost " + cost + " ms");
    assertEquals(8_000L, frozen.faults().get(0).healedMs() - frozen.faults().get(0).injectedMs());
  }

  @Test
  void aNodeFrozenPastItsExpiryIsLostItsOutputsRunAgainAndItComesBackEmpty() {
    SimulationResult r = run(8, new Freeze(Target.node(NODE), Duration.ofSeconds(40)), expiry(15_000));
    assertEquals("SUCCEEDED", r.jobState());
    assertEquals(List.of("LOST", "RUNNING"), r.nodeTransitions().stream().map(t -> t.to()).toList());
    long lost = r.nodeTransitions().get(0).atMs() - r.faults().get(0).injectedMs();
    assertTrue(lost > 15_000 && lost <= 20_000, "lost " + lost + " ms after the freeze");
    assertTrue(reRunAfter(r, 8) >= 0, "the frozen node's maps were not run again");
  }

  @Test
  void aBlackholeHealedBeforeExpiryCostsTheFetchesItTimedOutAndNothingElse() {
    SimulationResult quiet = run(8, null, expiry(600_000));
    SimulationResult cut = run(8, new Blackhole(Target.node(NODE), Duration.ofSeconds(8)), expiry(600_000));
    assertEquals("SUCCEEDED", cut.jobState());
    assertTrue(cut.nodeTransitions().isEmpty(), cut.nodeTransitions().toString());
    assertTrue(cut.attempts().stream().allMatch(a -> a.state() == TaskAttemptState.SUCCEEDED),
        "an attempt did not succeed");
    // a connect into the silence gets through at its SYN's first retransmission after the heal (1, 3, 7 s
    // after it began), before its 10 s timeout: no fetch fails
    long cost = cut.completionTime() - quiet.completionTime();
    assertTrue(cost > 0 && cost <= 8_000 + 2_000, "the blackhole cost " + cost + " ms");
    assertTrue(cut.fetchFailures().isEmpty(), "an unanswered connect is reported only after five host failures: "
        + cut.fetchFailures());
    assertEquals(8_000L, cut.faults().get(0).healedMs() - cut.faults().get(0).injectedMs());
  }

  @Test
  void aNodeCutOffPastItsExpiryWorksOnIsLostAndComesBackEmpty() {
    Map<String, String> job = new HashMap<>(Specs.NO_SPECULATION);
    SimulationSpec spec = SimulationSpec.of(Specs.cluster(8), MAPS, 4, job, new NoisyTaskTimes(10_000, 20_000, 0.1, 7),
        expiry(15_000), 7);
    // while maps run: unlike a frozen node's, its maps go on and finish, unseen by the RM
    SimulationResult r = Simulation.run(spec.withFaults(Timeline.when(JobEvent.mapsCompleted(8))
        .inject(new Blackhole(Target.node(NODE), Duration.ofSeconds(40))), null));
    assertEquals("SUCCEEDED", r.jobState());
    assertEquals(List.of("LOST", "RUNNING"), r.nodeTransitions().stream().map(t -> t.to()).toList());
    long cut = r.faults().get(0).injectedMs();
    long lost = r.nodeTransitions().get(0).atMs();
    assertTrue(lost - cut > 15_000 && lost - cut <= 20_000, "lost " + (lost - cut) + " ms after the blackhole");
    String node = Specs.cluster(8).node(NODE).address();
    assertTrue(r.attempts().stream().anyMatch(a -> a.type() == TaskType.MAP && node.equals(a.node())
        && a.mapFinish() > cut && a.mapFinish() < lost), "no map on the cut-off node worked on: cut at " + cut
        + ", lost at " + lost + ", " + r.attempts().stream().filter(a -> node.equals(a.node())).toList());
    assertEquals(40_000L, r.faults().get(0).healedMs() - cut);
    assertTrue(r.attempts().stream().noneMatch(a -> node.equals(a.node()) && a.start() > cut && a.start() < cut + 40_000),
        "a container was launched on the node while it was cut off");
  }

  @Test
  void aCrashWhereRstsAreSuppressedIsASilentCrash() {
    SimulationResult silent = run(8, NodeCrash.on(Target.node(NODE)).withoutRst(), expiry(300_000));
    SimulationResult suppressed = Simulation.run(spec(8, expiry(300_000)).withFaults(Timeline.at(Duration.ZERO)
        .inject(RstSuppression.on(Target.node(NODE)))
        .plus(Timeline.when(JobEvent.mapsCompleted(MAPS)).inject(NodeCrash.on(Target.node(NODE)))), null));
    assertEquals(silent.completionTime(), suppressed.completionTime());
    assertEquals(silent.nodeTransitions(), suppressed.nodeTransitions());
    assertEquals(silent.attempts().stream().map(SimulatedAttempt::state).toList(),
        suppressed.attempts().stream().map(SimulatedAttempt::state).toList());
    SimulationResult refused = run(8, NodeCrash.on(Target.node(NODE)), expiry(300_000));
    assertTrue(refused.completionTime() < suppressed.completionTime(), "refused connects are reported at once");
  }
}
