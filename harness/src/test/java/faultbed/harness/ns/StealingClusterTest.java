package faultbed.harness.ns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.faults.CgroupLayout;
import faultbed.harness.RunSpec;
import faultbed.harness.junit.Faultbed;
import faultbed.harness.junit.Recorder;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.ElasticWorkload;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.CpuShare;
import faultbed.schedulers.stealing.StealingPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Resource stealing on the namespace backend, as the run's record reads it from the cgroups: two
 * nodes of four slots, each holding its containers to the host's cores (a quarter of them a slot),
 * two elastic maps. Held strictly, a map's group keeps one slot's quota and uses no more; with
 * "even", the slots nobody holds are lent to the maps: their quotas rise, and they use what they
 * were lent, through more threads.
 */
@Faultbed(backend = "namespace", nodes = 2, nodeMemoryMb = 2048, nodeVcores = 4, hadoop = {
    "yarn.nodemanager.resource.percentage-physical-cpu-limit=100",
    "mapreduce.job.reduce.slowstart.completedmaps=1.0"})
class StealingClusterTest {
  static final double SLOT_CORES = Runtime.getRuntime().availableProcessors() / 4.0;
  static final ElasticWorkload JOB = new ElasticWorkload(2, 1, 40, 400_000);

  @Test
  void strictHoldsEachMapToItsSlot(NamespaceCluster cluster, Recorder recorder) throws Exception {
    List<CpuShare> shares = run(cluster, recorder, StealingPolicy.STRICT);
    for (CpuShare s : shares) {
      assertEquals(SLOT_CORES, s.cores(), 1e-3, "held to one slot: " + s);
      if (s.toMs() - s.fromMs() >= 2_000) {
        assertTrue(s.usedCores() < SLOT_CORES * 1.1, "used no more: " + s);
      }
    }
  }

  @Test
  void evenLendsTheIdleSlotsAndTheMapsUseThem(NamespaceCluster cluster, Recorder recorder) throws Exception {
    List<CpuShare> shares = run(cluster, recorder, StealingPolicy.EVEN);
    assertTrue(shares.stream().anyMatch(s -> s.cores() >= 2 * SLOT_CORES - 1e-3), "a map was lent a slot: " + shares);
    assertTrue(shares.stream().anyMatch(s -> s.toMs() - s.fromMs() >= 2_000 && s.usedCores() > 1.5 * SLOT_CORES),
        "a map used more than its own slot for two seconds or more: " + shares);
  }

  private static List<CpuShare> run(NamespaceCluster cluster, Recorder recorder, StealingPolicy policy) {
    assumeTrue(CgroupLayout.current().cpu() == CgroupLayout.Mechanism.V1,
        "per-container CPU limits need cgroup v1's CPU controller here: " + CgroupLayout.current().describe());
    RunRecord r = recorder.save(cluster.run(RunSpec.of(JOB, Timeline.none()).withStealing(policy)));
    assertTrue(r.job().succeeded(), r.job() + " " + r.attempts());
    assertTrue(r.outputCheck().correct(), r.outputCheck().toString());
    List<String> maps = r.attempts().stream().filter(a -> a.type().equals("MAP")).map(RunRecord.AttemptRecord::container)
        .toList();
    assertFalse(r.cpuShares().isEmpty(), "no share was read");
    assertTrue(r.cpuShares().stream().allMatch(s -> maps.contains(s.container())),
        "only the maps are held: " + r.cpuShares() + " maps " + maps);
    System.out.println(policy + ": " + r.cpuShares() + " (a slot: " + SLOT_CORES + " cores), job "
        + r.job().finishedMs() + " ms");
    return r.cpuShares();
  }
}
