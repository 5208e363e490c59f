package faultbed.harness.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.timeline.BandwidthCap;
import faultbed.harness.timeline.Latency;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.junit.jupiter.api.Test;

/**
 * Faults on links: flows through a capped direction share its rate max-min fairly, a delayed link
 * costs each new connection its round trips, a healed cap lets what was waiting through at once; in
 * a job, a capped node's outputs reach the reduces at its rate and a map reading its split across a
 * capped link ends its map phase no sooner than the read.
 */
class SimulationLinkFaultsTest {
  private static final long MB = 1_000_000;

  private static List<LiveNode> nodes(int n) {
    SimulatedCluster cluster = Specs.cluster(n);
    List<LiveNode> nodes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      nodes.add(new LiveNode(cluster.node(i), i));
    }
    return nodes;
  }

  @Test
  void flowsThroughACappedDirectionShareItMaxMinFairly() {
    EventLoop loop = new EventLoop(new VirtualClock(0));
    Links links = new Links(loop);
    List<LiveNode> n = nodes(4);
    n.get(0).capBytesPerSecond = MB; // node 0 sends at 1 MB/s
    n.get(2).capBytesPerSecond = MB / 4; // node 2 receives at 250 kB/s
    Map<String, Long> done = new HashMap<>();
    // b and c share node 2's receiving side (125 kB/s each); a takes what b leaves of node 0's sending side
    links.open(n.get(0), n.get(1)).send(MB, () -> done.put("a", loop.now()));
    links.open(n.get(0), n.get(2)).send(MB, () -> done.put("b", loop.now()));
    links.open(n.get(3), n.get(2)).send(MB, () -> done.put("c", loop.now()));
    loop.runUntil(() -> done.size() == 3, 60_000);
    assertEquals(1_143, done.get("a"), 1, "a at 875 kB/s");
    assertEquals(8_000, done.get("b"), 1, "b at 125 kB/s");
    assertEquals(8_000, done.get("c"), 1, "c at 125 kB/s");
  }

  @Test
  void bytesSentAfterOthersOnAFlowArriveAfterThemAndAHealedCapLetsTheRestThroughAtOnce() {
    EventLoop loop = new EventLoop(new VirtualClock(0));
    Links links = new Links(loop);
    List<LiveNode> n = nodes(2);
    n.get(1).capBytesPerSecond = MB;
    Map<String, Long> done = new HashMap<>();
    Links.Flow flow = links.open(n.get(0), n.get(1));
    flow.send(MB, () -> done.put("first", loop.now()));
    flow.send(4 * MB, () -> done.put("second", loop.now()));
    loop.at(2_500, () -> {
      assertEquals(2.5 / 5, flow.deliveredShare(), 1e-9);
      n.get(1).capBytesPerSecond = Double.POSITIVE_INFINITY;
      links.changed();
    });
    loop.runUntil(() -> done.size() == 2, 60_000);
    assertEquals(1_000, done.get("first"));
    assertEquals(2_500, done.get("second"));
  }

  @Test
  void aDelayedLinkCostsANewConnectionItsHandshakeRequestAndSlowStart() {
    EventLoop loop = new EventLoop(new VirtualClock(0));
    Links links = new Links(loop);
    List<LiveNode> n = nodes(2);
    n.get(0).delayMs = 50;
    long[] done = {-1};
    links.open(n.get(0), n.get(1)).send(MB, () -> done[0] = loop.now());
    loop.runUntil(() -> done[0] >= 0, 60_000);
    // a 100 ms round trip: connect, request, then 1 MB from a 14.6 kB window doubling each round (7 rounds)
    assertEquals(7, Links.slowStartRounds(MB));
    assertEquals(900, done[0]);
  }

  private static SimulationSpec job(int nodes, int maps, Map<String, String> extra) {
    Map<String, String> job = new HashMap<>(Specs.NO_SPECULATION);
    job.put("mapreduce.job.reduce.slowstart.completedmaps", "1.0");
    job.putAll(extra);
    return SimulationSpec.of(Specs.cluster(nodes), maps, 2, job, new NoisyTaskTimes(3_000, 2_000, 0.1, 3),
        Latencies.defaults(), 3);
  }

  @Test
  void aCappedNodesOutputsReachTheReducesAtItsRate() {
    int capped = 1;
    // 8 MB of output a map, 4 MB for each of the two reduces
    SimulationSpec spec = job(4, 16, Map.of()).withBytes(8 * MB, 8 * MB);
    SimulationResult free = Simulation.run(spec);
    SimulationResult slow = Simulation.run(spec.withFaults(
        Timeline.at(Duration.ZERO).inject(BandwidthCap.on(Target.node(capped), MB)), null));
    assertEquals("SUCCEEDED", slow.jobState());
    String cappedAddress = Specs.cluster(4).node(capped).address();
    List<SimulatedAttempt> reduces = slow.attempts().stream()
        .filter(a -> a.type() == TaskType.REDUCE && a.state() == TaskAttemptState.SUCCEEDED).toList();
    long mapsThere = slow.attempts().stream().filter(a -> a.type() == TaskType.MAP
        && a.state() == TaskAttemptState.SUCCEEDED && cappedAddress.equals(a.node())).count();
    long reducesElsewhere = reduces.stream().filter(a -> !cappedAddress.equals(a.node())).count();
    long reducesThere = reduces.size() - reducesElsewhere;
    assertTrue(mapsThere > 0, "no map ran on the capped node");
    // every output ready before any reduce starts (slow start at 1.0): the capped side sends its part to
    // each reduce elsewhere and receives each reduce's part from the other nodes' outputs
    double out = mapsThere * 4.0 * reducesElsewhere;
    double in = (16 - mapsThere) * 4.0 * reducesThere;
    long firstLaunch = reduces.stream().mapToLong(SimulatedAttempt::start).min().orElseThrow();
    long lastShuffle = reduces.stream().mapToLong(SimulatedAttempt::shuffleFinish).max().orElseThrow();
    double seconds = Math.max(out, in);
    assertTrue(lastShuffle - firstLaunch >= seconds * 1000 && lastShuffle - firstLaunch < seconds * 1000 + 5_000,
        "shuffle over after " + (lastShuffle - firstLaunch) + " ms for " + seconds + " MB through 1 MB/s");
    assertTrue(slow.completionTime() > free.completionTime() + seconds * 1000 - 5_000,
        slow.completionTime() + " ms capped, " + free.completionTime() + " ms not");
  }

  @Test
  void aMapReadingItsSplitAcrossACappedLinkEndsItsMapPhaseNoSoonerThanTheRead() {
    // one replica a split, both nodes capped: a map off its split's node reads 8 MB at 1 MB/s
    SimulationSpec spec = job(2, 40, Map.of("dfs.replication", "1")).withBytes(8 * MB, 8 * MB);
    SimulationResult r = Simulation.run(spec.withFaults(Timeline.at(Duration.ZERO).inject(BandwidthCap.on(Target.node(0), MB))
        .plus(Timeline.at(Duration.ZERO).inject(BandwidthCap.on(Target.node(1), MB))), null));
    assertEquals("SUCCEEDED", r.jobState());
    int local = 0;
    int remote = 0;
    for (SimulatedAttempt a : r.attempts()) {
      if (a.type() == TaskType.MAP && a.state() == TaskAttemptState.SUCCEEDED) {
        long mapPhase = a.mapFinish() - a.start();
        if (mapPhase >= 8_000) {
          remote++;
        } else {
          assertTrue(mapPhase < 4_000, a.toString());
          local++;
        }
      }
    }
    assertTrue(local > 0 && remote > 0, local + " maps read locally, " + remote + " across the link");
  }

  @Test
  void latencyOnTheNodeHoldingOutputsDelaysTheShuffleByItsConnectionsRoundTrips() {
    SimulationSpec spec = job(4, 16, Map.of()).withBytes(8 * MB, 8 * MB);
    SimulationResult free = Simulation.run(spec);
    SimulationResult delayed = Simulation.run(spec.withFaults(Timeline.at(Duration.ZERO).inject(
        new Latency(Target.node(1), Duration.ofSeconds(1), Duration.ZERO, null)), null));
    assertEquals("SUCCEEDED", delayed.jobState());
    // a 2 s round trip: connect, request and the 4 MB part's nine slow-start rounds, 22 s a connection
    assertEquals(9, Links.slowStartRounds(4 * MB));
    assertTrue(delayed.completionTime() >= free.completionTime() + 15_000,
        delayed.completionTime() + " ms delayed, " + free.completionTime() + " ms not");
    assertEquals("1000", delayed.faults().get(0).detail().get("delayMs"));
  }
}
