package faultbed.experiments.scenario;

import faultbed.harness.ClusterSpec;
import faultbed.harness.Speculation;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;

/**
 * One arm of a scenario, fully resolved: what runs, on what cluster, under which faults and
 * speculator, how often, how long its job may run (null: {@link faultbed.harness.RunSpec#DEFAULT_JOB_LIMIT}),
 * which parts of its job are pinned to nodes chosen per block (see {@link faultbed.harness.Pin}), and how
 * its maps share their nodes' CPU (null: as Hadoop's default executor lets them; see
 * {@link faultbed.schedulers.stealing.StealingPolicy}), and which map a container gets (null: Hadoop's
 * choice; see {@link faultbed.schedulers.placement.PlacementPolicy}).
 */
public record Variant(String name, ClusterSpec cluster, Workload workload, Timeline timeline, int runs,
    Speculation speculation, java.time.Duration jobLimit, java.util.Set<faultbed.harness.Pin> pinned,
    faultbed.schedulers.stealing.StealingPolicy stealing, faultbed.schedulers.placement.PlacementPolicy placement) {
  public Variant(String name, ClusterSpec cluster, Workload workload, Timeline timeline, int runs,
      Speculation speculation, java.time.Duration jobLimit, java.util.Set<faultbed.harness.Pin> pinned) {
    this(name, cluster, workload, timeline, runs, speculation, jobLimit, pinned, null, null);
  }

  public Variant(String name, ClusterSpec cluster, Workload workload, Timeline timeline, int runs,
      Speculation speculation) {
    this(name, cluster, workload, timeline, runs, speculation, null);
  }

  public Variant(String name, ClusterSpec cluster, Workload workload, Timeline timeline, int runs,
      Speculation speculation, java.time.Duration jobLimit) {
    this(name, cluster, workload, timeline, runs, speculation, jobLimit, null);
  }

  public Variant {
    speculation = speculation == null ? Speculation.off() : speculation;
    pinned = faultbed.harness.Pin.setOf(pinned);
    placement = placement == faultbed.schedulers.placement.PlacementPolicy.STOCK ? null : placement;
    if (runs < 0) {
      throw new ScenarioException("variants." + name + ".runs", "expected 0 or more, got " + runs);
    }
  }

  /** The same variant with its nodes on another backend. */
  public Variant withBackend(faultbed.harness.Backend b) {
    return new Variant(name, cluster.withBackend(b), workload, timeline, runs, speculation, jobLimit, pinned, stealing, placement);
  }

  /** The same variant on the cluster {@code inventory} names. */
  public Variant withInventory(faultbed.harness.Inventory inventory) {
    return new Variant(name, cluster.withInventory(inventory), workload, timeline, runs, speculation, jobLimit, pinned, stealing, placement);
  }

  public Variant withHadoop(java.util.Map<String, String> settings) {
    return new Variant(name, cluster.withHadoop(settings), workload, timeline, runs, speculation, jobLimit, pinned, stealing, placement);
  }

  public Variant withRuns(int n) {
    return new Variant(name, cluster, workload, timeline, n, speculation, jobLimit, pinned, stealing, placement);
  }
}
