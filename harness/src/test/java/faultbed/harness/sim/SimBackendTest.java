package faultbed.harness.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.Backends;
import faultbed.harness.Cluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.RunSpec;
import faultbed.harness.Speculation;
import faultbed.harness.timeline.CpuHog;
import faultbed.harness.timeline.DiskLoad;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.SlowDisk;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.timemodel.TimeModel;
import faultbed.harness.workload.Workloads;
import faultbed.results.RunRecord;
import faultbed.results.SpeculationOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sim backend as a scenario uses it: registered by name, started from a cluster spec, its runs
 * assembled into the records real clusters give; and its time model fitted back from its own records.
 */
class SimBackendTest {
  private static final ClusterSpec FOUR_ON_TWO_CORES = ClusterSpec.defaults().withBackend(Backends.named("sim", "backend"))
      .withHadoop(SimCluster.SHARED_CORES, "2").withTimeScale(0.1);
  private static final Timeline STRAGGLER = Timeline.at(Duration.ofSeconds(2))
      .inject(new CpuHog(Target.randomNode().sparingApplicationMaster(), 2, null))
      .then(faultbed.harness.timeline.Trigger.at(Duration.ofSeconds(2)))
      .inject(new DiskLoad(Target.same(), 2, 1L << 20, 64L << 20, true, null));

  @Test
  void aStragglerRunIsARecordOfHadoopsDecisions() {
    try (Cluster cluster = Backends.named("sim", "backend").start(FOUR_ON_TWO_CORES, line -> { })) {
      RunRecord r = cluster.run(new RunSpec("s", "late", 0, 11, 11, Workloads.wordcount(48L << 20).withMaps(12)
          .withReduces(1), STRAGGLER, Speculation.policy("late")));
      assertTrue(r.job().succeeded(), r.job().toString());
      assertEquals("sim", r.cluster().backend());
      assertEquals(2, r.faults().size());
      int slowed = r.faults().get(0).node();
      assertTrue(slowed != r.amAttempts().get(0).node(), "the AM's node was spared: " + r.faults());
      assertEquals(slowed, r.faults().get(1).node());
      assertEquals(2_000L, r.faults().get(0).injectedMs());
      assertEquals(12, r.attempts().stream().filter(a -> a.type().equals("MAP") && "SUCCEEDED".equals(a.state())).count());
      assertTrue(r.notes().stream().anyMatch(n -> n.contains("model")), r.notes().toString());
      // LATE, faultbed's policy, made its decisions inside Hadoop's AM: they are the record's events
      SpeculationOutcome o = SpeculationOutcome.of(r);
      assertTrue(o.asked() >= 1 && o.launched() >= 1, o.toString());
    }
  }

  /**
   * A node's machine may have fewer cores than YARN offers containers there (the seeds' one-core VMs
   * ran four slots): its tasks then share those cores, and take longer, in the same slots.
   */
  @Test
  void nodeCoresFewerThanContainersShareTheCoresAndSlowTheTasks() {
    RunSpec run = new RunSpec("s", "a", 0, 11, 11, Workloads.wordcount(48L << 20).withMaps(12).withReduces(1), Timeline.none(),
        Speculation.off());
    ClusterSpec ownMachines = ClusterSpec.defaults().withBackend(Backends.named("sim", "backend")).withTimeScale(0.1);
    List<RunRecord> records = new ArrayList<>();
    for (ClusterSpec spec : List.of(ownMachines, ownMachines.withHadoop(SimCluster.NODE_CORES, "0.5"))) {
      try (Cluster cluster = Backends.named("sim", "backend").start(spec, line -> { })) {
        RunRecord r = cluster.run(run);
        assertTrue(r.job().succeeded(), r.job().toString());
        records.add(r);
      }
    }
    int slots = ownMachines.slotsPerNode();
    assertTrue(slots >= 2, "containers a node: " + slots);
    for (RunRecord r : records) {
      int mostAtOnce = 0;
      for (RunRecord.AttemptRecord a : r.attempts()) {
        long running = r.attempts().stream().filter(b -> b.node() == a.node() && b.startMs() <= a.startMs()
            && b.finishMs() > a.startMs()).count();
        mostAtOnce = (int) Math.max(mostAtOnce, running);
      }
      assertEquals(slots, mostAtOnce, "a node runs as many containers at once, whatever its cores");
    }
    double full = medianMap(records.get(0));
    double half = medianMap(records.get(1));
    assertTrue(half > 2 * full, "maps sharing half a core took " + half + " ms against " + full + " ms on their own cores");
  }

  private static double medianMap(RunRecord r) {
    long[] ms = r.attempts().stream().filter(a -> a.type().equals("MAP")).mapToLong(a -> a.finishMs() - a.startMs())
        .sorted().toArray();
    return ms[ms.length / 2];
  }

  /**
   * Variants of a block share their draws (common random numbers); a stream label gives a variant
   * draws of its own, for the A/A pilots whose differences must be the noise of independent runs.
   */
  @Test
  void aStreamLabelGivesTheRunDrawsOfItsOwnAndNoLabelTheBlocks() {
    RunSpec run = new RunSpec("s", "a", 0, 11, 11, Workloads.wordcount(48L << 20).withMaps(12).withReduces(1), STRAGGLER,
        Speculation.off());
    List<List<Long>> times = new ArrayList<>();
    for (ClusterSpec spec : List.of(FOUR_ON_TWO_CORES, FOUR_ON_TWO_CORES, FOUR_ON_TWO_CORES.withHadoop(SimCluster.STREAM, "b"))) {
      try (Cluster cluster = Backends.named("sim", "backend").start(spec, line -> { })) {
        RunRecord r = cluster.run(run);
        assertTrue(r.job().succeeded(), r.job().toString());
        times.add(r.attempts().stream().map(RunRecord.AttemptRecord::finishMs).toList());
        if (spec.hadoop().containsKey(SimCluster.STREAM)) {
          assertTrue(r.notes().stream().anyMatch(n -> n.contains("stream \"b\"")), r.notes().toString());
        }
      }
    }
    assertEquals(times.get(0), times.get(1), "the same seed, the same draws");
    assertFalse(times.get(0).equals(times.get(2)), "a stream of its own draws other work");
  }

  @Test
  void aCrashedNodeIsLostAtTheFirstLivenessCheckPastExpiryAndItsMapsRunAgain() {
    try (Cluster cluster = Backends.named("sim", "backend").start(FOUR_ON_TWO_CORES
        .withHadoop("yarn.nm.liveness-monitor.expiry-interval-ms", "10000"), line -> { })) {
      RunRecord r = cluster.run(new RunSpec("s", "off", 0, 3, 3, Workloads.sort(48L << 20).withMaps(12).withReduces(2),
          Timeline.at(Duration.ofSeconds(12)).inject(NodeCrash.on(Target.node(2))), Speculation.off()));
      assertTrue(r.job().succeeded(), r.job().toString());
      long lost = r.node(2).lostAt().orElseThrow(() -> new AssertionError("not LOST: " + r.job()));
      // NMLivelinessMonitor checks every third of the expiry: LOST at the first check past it
      assertTrue(lost > 22_000L && lost <= 22_000L + 10_000 / 3, "lost at " + lost);
      assertTrue(r.attempts().stream().anyMatch(a -> a.type().equals("MAP") && a.attempt() > 0 && a.startMs() >= lost),
          "no map re-ran after the node was lost");
    }
  }

  /**
   * A replay of a real suite puts each run's AM and faults where the real run had them; a fault that
   * spares the AM keeps sparing it, so the AM moves off the node it is told to strike.
   */
  @Test
  void aReplayPutsTheFaultWhereTheRealRunHadItAndTheAmOffIt() {
    Timeline crash = Timeline.at(Duration.ofSeconds(8)).inject(NodeCrash.on(Target.Role.RANDOM.sparingApplicationMaster()));
    for (int struck = 0; struck < 4; struck++) {
      ClusterSpec replay = FOUR_ON_TWO_CORES.withHadoop(SimCluster.FAULT_NODES, "-," + struck)
          .withHadoop(SimCluster.AM_NODES, "-," + struck);
      try (Cluster cluster = Backends.named("sim", "backend").start(replay, line -> { })) {
        RunRecord r = cluster.run(new RunSpec("s", "off", 1, 3, 3, Workloads.sort(48L << 20).withMaps(12).withReduces(2),
            crash, Speculation.off()));
        assertEquals(struck, r.faults().get(0).node(), r.faults().toString());
        assertFalse(r.amAttempts().get(0).node() == struck, "the AM on the node its fault spares");
      }
    }
  }

  /**
   * A replay gives each run the job set-up and liveness grid its real run had: the first container
   * launches when the real one did (within the AM's heartbeat), and a crashed node is declared LOST
   * at a check on the real run's grid.
   */
  @Test
  void aReplayGivesEachRunItsRealSetUpAndLivenessGrid() {
    Timeline crash = Timeline.at(Duration.ofSeconds(12)).inject(NodeCrash.on(Target.node(2)));
    for (long setup : new long[] {3_300, 11_100}) {
      ClusterSpec replay = FOUR_ON_TWO_CORES.withHadoop("yarn.nm.liveness-monitor.expiry-interval-ms", "9000")
          .withHadoop(SimCluster.SETUPS, "-," + setup).withHadoop(SimCluster.LIVENESS_CHECKS, "-,1000");
      try (Cluster cluster = Backends.named("sim", "backend").start(replay, line -> { })) {
        RunRecord r = cluster.run(new RunSpec("s", "off", 1, 3, 3, Workloads.sort(48L << 20).withMaps(12).withReduces(2),
            crash, Speculation.off()));
        long first = r.attempts().stream().mapToLong(RunRecord.AttemptRecord::startMs).min().orElseThrow();
        assertTrue(first >= setup - 1_000 && first <= setup + 1_000, "first container at " + first + " for " + setup);
        long lost = r.node(2).lostAt().orElseThrow(() -> new AssertionError("not LOST: " + r.job()));
        // checks every 3 s through 1 s: the first past 12 s + 9 s is at 22 s
        assertEquals(22_000L, lost, "LOST at " + lost);
      }
    }
  }

  @Test
  void aModelFittedFromSimulatedRunsGivesBackTheWorkTheyWereTimedWith(@TempDir Path dir) {
    List<RunRecord> records = new ArrayList<>();
    try (Cluster cluster = Backends.named("sim", "backend").start(FOUR_ON_TWO_CORES, line -> { })) {
      for (int i = 0; i < 10; i++) {
        records.add(cluster.run(new RunSpec("s", "off", i, 100 + i, 1, Workloads.wordcount(48L << 20).withMaps(12)
            .withReduces(1), STRAGGLER, Speculation.off())));
      }
    }
    TimeModel truth = TimeModel.standard();
    TimeModel fitted = TimeModel.fit("refit", records, 2);
    double truthMap = truth.workload("wordcount").map().medianMs();
    double fittedMap = fitted.workload("wordcount").map().medianMs();
    assertEquals(truthMap, fittedMap, truthMap * 0.1, "map work: the replay must share the cores as the simulation did");
    double truthDisk = truth.slowdown(java.util.Set.of("disk-load"));
    assertEquals(truthDisk, fitted.slowdown(java.util.Set.of("disk-load")), truthDisk * 0.15, fitted.slowdowns().toString());
    // the progress profile comes back through the AM's progress splits, as a real cluster's does
    TimeModel.MapProgress truthProgress = truth.workload("wordcount").mapProgress();
    TimeModel.MapProgress fittedProgress = fitted.workload("wordcount").mapProgress();
    assertEquals(truthProgress.startupShare(), fittedProgress.startupShare(), 0.05,
        "start-up: read from the progress clocks " + fittedProgress);
    assertEquals(truthProgress.sortShare(), fittedProgress.sortShare(), 0.05, "sort share " + fittedProgress);
    Path file = dir.resolve("model.json");
    fitted.write(file);
    assertEquals(fitted, TimeModel.read(file));
    assertFalse(fitted.fittedFrom().scenarios().isEmpty());
  }

  /**
   * The disk model's fit and the simulation agree: runs simulated with known bytes through a disk,
   * every node's disk held to its own rate (as the heterogeneous-disks suite holds them), give those
   * bytes back when fitted against the work of fault-free runs.
   */
  @Test
  void aModelFittedFromSimulatedSlowDisksGivesBackTheirBytes(@TempDir Path dir) {
    TimeModel standard = TimeModel.standard();
    TimeModel.DiskBytes truth = new TimeModel.DiskBytes(2.0, 0, 0.5, 0, 1.0, 0, 1.2, 0, List.of());
    java.util.Map<String, TimeModel.WorkloadTimes> workloads = new java.util.TreeMap<>(standard.workloads());
    workloads.computeIfPresent("sort", (t, w) -> new TimeModel.WorkloadTimes(w.bytesPerMap(), w.map(), w.reduce(),
        w.shuffleLag(), w.sort(), w.mapProgress(), w.shuffleTail(), w.lateShuffle(), w.shuffleBytesPerInputByte(), truth));
    Path model = dir.resolve("disks.json");
    new TimeModel("disks", standard.fittedFrom(), workloads, standard.jobSetupMs(), standard.jobCommitMs(),
        standard.slowdowns(), standard.baseline()).write(model);
    ClusterSpec spec = FOUR_ON_TWO_CORES.withDisks(new ClusterSpec.Disks(1, ClusterSpec.Disks.DEFAULT_BYTES))
        .withHadoop(SimCluster.MODEL, model.toString());
    long[] rates = {4L << 20, 2L << 20, 1L << 20, 1L << 20};
    Timeline slow = Timeline.none();
    for (int n = 0; n < rates.length; n++) {
      slow = slow.plus(Timeline.at(Duration.ZERO).inject(new SlowDisk(Target.node(n), List.of(), rates[n], null)));
    }
    List<RunRecord> free = new ArrayList<>();
    List<RunRecord> slowed = new ArrayList<>();
    try (Cluster cluster = Backends.named("sim", "backend").start(spec, line -> { })) {
      for (int i = 0; i < 8; i++) {
        var workload = Workloads.sort(32L << 20).withMaps(8).withReduces(2);
        free.add(cluster.run(new RunSpec("free", "off", i, 200 + i, 1, workload, Timeline.none(), Speculation.off())));
        slowed.add(cluster.run(new RunSpec("slow", "off", i, 300 + i, 1, workload, slow, Speculation.off())));
      }
    }
    TimeModel.DiskBytes fitted = TimeModel.fit("refit", free, List.of(), List.of(), slowed,
        faultbed.harness.timemodel.Machines.shared(2)).workload("sort").disk();
    assertEquals(truth.map(), fitted.map(), truth.map() * 0.2, "a map's bytes: " + fitted);
    assertEquals(truth.shuffle(), fitted.shuffle(), truth.shuffle() * 0.3, "a reduce's copies: " + fitted);
    assertEquals(truth.sort(), fitted.sort(), truth.sort() * 0.2, "a reduce's sort: " + fitted);
    assertEquals(truth.reduce(), fitted.reduce(), truth.reduce() * 0.2, "a reduce phase's: " + fitted);
  }
}
