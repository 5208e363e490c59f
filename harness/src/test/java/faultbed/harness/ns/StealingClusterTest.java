package faultbed.harness.ns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.faults.CgroupLayout;
import faultbed.harness.CgroupNode;
import faultbed.harness.RunSpec;
import faultbed.harness.junit.Faultbed;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.ElasticWorkload;
import faultbed.results.RunRecord;
import faultbed.schedulers.stealing.StealingPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Resource stealing on the namespace backend, watched from the cgroups: two nodes of four slots,
 * each holding its containers to the host's cores (a quarter of them a slot), two elastic maps. Held strictly, a map's group keeps a quarter-core quota and uses no more; with
 * "even", the slots nobody holds are lent to the maps: their quotas rise and they use what they were
 * lent, through more threads.
 */
@Faultbed(backend = "namespace", nodes = 2, nodeMemoryMb = 2048, nodeVcores = 4, hadoop = {
    "yarn.nodemanager.resource.percentage-physical-cpu-limit=100",
    "mapreduce.job.reduce.slowstart.completedmaps=1.0"})
class StealingClusterTest {
  static final double SLOT_CORES = Runtime.getRuntime().availableProcessors() / 4.0;
  static final ElasticWorkload JOB = new ElasticWorkload(2, 1, 40, 400_000);

  /** What a map's cgroup showed over the run: its highest quota, and its highest use over a second. */
  record Seen(double maxQuotaCores, double maxCoresUsed) {}

  @Test
  void strictHoldsEachMapToItsSlot(NamespaceCluster cluster) throws Exception {
    Map<String, Seen> seen = run(cluster, StealingPolicy.STRICT);
    assertTrue(!seen.isEmpty(), "no map's group was seen");
    seen.forEach((container, s) -> {
      assertEquals(SLOT_CORES, s.maxQuotaCores(), 1e-3, container + " held to one slot");
      assertTrue(s.maxCoresUsed() < SLOT_CORES * 1.2, container + " used no more: " + s);
    });
  }

  @Test
  void evenLendsTheIdleSlotsAndTheMapsUseThem(NamespaceCluster cluster) throws Exception {
    Map<String, Seen> seen = run(cluster, StealingPolicy.EVEN);
    assertTrue(seen.values().stream().anyMatch(s -> s.maxQuotaCores() >= 2 * SLOT_CORES - 1e-3),
        "a map was lent a slot: " + seen);
    assertTrue(seen.values().stream().anyMatch(s -> s.maxCoresUsed() > 1.5 * SLOT_CORES),
        "a map used more than its own slot: " + seen);
  }

  private static Map<String, Seen> run(NamespaceCluster cluster, StealingPolicy policy) throws Exception {
    assumeTrue(CgroupLayout.current().cpu() == CgroupLayout.Mechanism.V1,
        "per-container CPU limits need cgroup v1's CPU controller here: " + CgroupLayout.current().describe());
    List<Path> nodeGroups = Stream.of(0, 1).map(i -> CgroupLayout.current().v1Root("cpu").orElseThrow()
        .resolve(((CgroupNode) cluster.node(i)).group().path())).toList();
    Map<String, double[]> quota = new ConcurrentHashMap<>();
    Map<String, TreeMap<Long, Long>> usage = new ConcurrentHashMap<>();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    sampler.scheduleAtFixedRate(() -> sample(nodeGroups, quota, usage), 0, 200, TimeUnit.MILLISECONDS);
    RunRecord r;
    try {
      r = cluster.run(RunSpec.of(JOB, Timeline.none()).withStealing(policy));
    } finally {
      sampler.shutdownNow();
      sampler.awaitTermination(5, TimeUnit.SECONDS);
    }
    assertTrue(r.job().succeeded(), r.job() + " " + r.attempts());
    assertTrue(r.outputCheck().correct(), r.outputCheck().toString());
    Map<String, Seen> seen = new TreeMap<>();
    quota.forEach((c, q) -> seen.put(c, new Seen(q[0], maxRate(usage.get(c)))));
    System.out.println(policy + ": " + seen + " (a slot: " + SLOT_CORES + " cores), job " + r.job().finishedMs() + " ms");
    return seen;
  }

  private static void sample(List<Path> nodeGroups, Map<String, double[]> quota, Map<String, TreeMap<Long, Long>> usage) {
    long now = System.nanoTime();
    for (Path node : nodeGroups) {
      try (Stream<Path> groups = Files.list(node)) {
        for (Path g : groups.filter(p -> p.getFileName().toString().startsWith("c-container_")).toList()) {
          try {
            String c = g.getFileName().toString().substring(2);
            double cores = Long.parseLong(Files.readString(g.resolve("cpu.cfs_quota_us")).trim())
                / Double.parseDouble(Files.readString(g.resolve("cpu.cfs_period_us")).trim());
            quota.computeIfAbsent(c, k -> new double[] {0})[0] = Math.max(quota.get(c)[0], cores);
            Path acct = Path.of(g.toString().replace("/cpu/", "/cpuacct/")).resolve("cpuacct.usage");
            long ns = Long.parseLong(Files.readString(acct).trim());
            usage.computeIfAbsent(c, k -> new TreeMap<>()).put(now, ns);
          } catch (IOException | NumberFormatException gone) {
            // the container ended between the listing and the read
          }
        }
      } catch (IOException gone) {
        // the node's group is being replaced
      }
    }
  }

  /** The most CPU the group used over any second it was watched, in cores. */
  private static double maxRate(TreeMap<Long, Long> samples) {
    double best = 0;
    if (samples == null) {
      return best;
    }
    for (var from : samples.entrySet()) {
      var to = samples.ceilingEntry(from.getKey() + 1_000_000_000L);
      if (to != null) {
        best = Math.max(best, (to.getValue() - from.getValue()) / (double) (to.getKey() - from.getKey()));
      }
    }
    return best;
  }
}
