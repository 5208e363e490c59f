package faultbed.harness;

import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;

/**
 * One run: which workload, under which fault timeline and speculator, with which seed, and where it
 * belongs.
 *
 * @param jobLimit how long the job may run before the harness kills it (null: an hour)
 * @param pinned the parts of the job placed on nodes chosen from {@code seed} (see {@link Pin}); none: the
 *     ResourceManager places them
 * @param stealing how the job's containers share their nodes' CPU (null: as Hadoop's default executor
 *     lets them, with no limit of their own; see {@link faultbed.harness.daemons.StrictCpuExecutor})
 * @param placement which map a container gets (null: Hadoop's own choice; see
 *     {@link faultbed.schedulers.yarn.PlacementAgent})
 */
public record RunSpec(String scenario, String variant, int runIndex, long seed, long dataSeed,
    Workload workload, Timeline timeline, Speculation speculation, java.time.Duration jobLimit,
    java.util.Set<Pin> pinned, faultbed.schedulers.stealing.StealingPolicy stealing,
    faultbed.schedulers.placement.PlacementPolicy placement) {
  /** How long a job may run when its spec sets no limit. */
  public static final java.time.Duration DEFAULT_JOB_LIMIT = java.time.Duration.ofHours(1);

  private static final java.util.concurrent.atomic.AtomicInteger ADHOC = new java.util.concurrent.atomic.AtomicInteger();

  public RunSpec {
    speculation = speculation == null ? Speculation.off() : speculation;
    jobLimit = jobLimit == null ? DEFAULT_JOB_LIMIT : jobLimit;
    pinned = Pin.setOf(pinned);
    placement = placement == faultbed.schedulers.placement.PlacementPolicy.STOCK ? null : placement;
  }

  public RunSpec(String scenario, String variant, int runIndex, long seed, long dataSeed, Workload workload,
      Timeline timeline, Speculation speculation, java.time.Duration jobLimit, java.util.Set<Pin> pinned) {
    this(scenario, variant, runIndex, seed, dataSeed, workload, timeline, speculation, jobLimit, pinned, null, null);
  }

  public RunSpec(String scenario, String variant, int runIndex, long seed, long dataSeed, Workload workload,
      Timeline timeline, Speculation speculation, java.time.Duration jobLimit) {
    this(scenario, variant, runIndex, seed, dataSeed, workload, timeline, speculation, jobLimit, null);
  }

  public RunSpec(String scenario, String variant, int runIndex, long seed, long dataSeed, Workload workload,
      Timeline timeline, Speculation speculation) {
    this(scenario, variant, runIndex, seed, dataSeed, workload, timeline, speculation, null);
  }

  public RunSpec(String scenario, String variant, int runIndex, long seed, long dataSeed, Workload workload,
      Timeline timeline) {
    this(scenario, variant, runIndex, seed, dataSeed, workload, timeline, Speculation.off());
  }

  /** A run outside any scenario: numbered in this JVM so records of several such runs never collide. */
  public static RunSpec of(Workload workload, Timeline timeline) {
    return new RunSpec("adhoc", "adhoc", ADHOC.getAndIncrement(), 1L, 1L, workload, timeline);
  }

  public RunSpec withSeed(long s) {
    return new RunSpec(scenario, variant, runIndex, s, dataSeed, workload, timeline, speculation, jobLimit, pinned, stealing, placement);
  }

  public RunSpec withSpeculation(Speculation s) {
    return new RunSpec(scenario, variant, runIndex, seed, dataSeed, workload, timeline, s, jobLimit, pinned, stealing, placement);
  }

  /** The same run with {@code parts} of its job pinned (see {@link Pin}). */
  public RunSpec withPinned(java.util.Set<Pin> parts) {
    return new RunSpec(scenario, variant, runIndex, seed, dataSeed, workload, timeline, speculation, jobLimit, parts, stealing, placement);
  }

  /** The same run with its containers held to their CPU share, idle slots lent by {@code policy}. */
  public RunSpec withStealing(faultbed.schedulers.stealing.StealingPolicy policy) {
    return new RunSpec(scenario, variant, runIndex, seed, dataSeed, workload, timeline, speculation, jobLimit, pinned,
        policy, placement);
  }

  /**
   * What the job sets so that its maps are held to their share by the node's executor: the policy's
   * name in their environment. The AM and reduces run as Hadoop's default executor runs them: they
   * hold their slots (no task is lent them) but no limit slows their start-up.
   */
  public java.util.Map<String, String> stealingSettings(org.apache.hadoop.conf.Configuration job) {
    if (stealing == null) {
      return java.util.Map.of();
    }
    java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
    String env = faultbed.harness.daemons.StrictCpuExecutor.ENV + "=" + stealing.scenarioName();
    for (String key : java.util.List.of("mapreduce.map.env")) {
      String before = job.get(key, "");
      out.put(key, before.isBlank() ? env : before + "," + env);
    }
    return out;
  }

  /** The same run with its maps given containers by {@code policy} (stock: Hadoop's choice). */
  public RunSpec withPlacement(faultbed.schedulers.placement.PlacementPolicy policy) {
    return new RunSpec(scenario, variant, runIndex, seed, dataSeed, workload, timeline, speculation, jobLimit, pinned,
        stealing, policy);
  }

  /**
   * What the job sets so that its ApplicationMaster places maps by {@link #placement()}: the agent on
   * the AM's command line (its jar written in {@code stateDir}, which the AM's node sees), the
   * nodes' slots and the port of their bandwidth probes.
   */
  public java.util.Map<String, String> placementSettings(org.apache.hadoop.conf.Configuration job, ClusterSpec cluster,
      java.nio.file.Path stateDir) {
    if (placement == null) {
      return java.util.Map.of();
    }
    java.nio.file.Path jar = faultbed.harness.timescale.TimeCompression.writeManifestJar(stateDir,
        "faultbed-placement-agent.jar", faultbed.schedulers.yarn.PlacementAgent.class);
    String agent = "-javaagent:" + jar.toAbsolutePath() + "=" + placement.scenarioName() + ","
        + faultbed.harness.daemons.BandwidthProbe.DEFAULT_PORT;
    String key = "yarn.app.mapreduce.am.command-opts";
    String before = job.get(key, "");
    java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
    out.put(key, before.isBlank() ? agent : before + " " + agent);
    out.put(faultbed.schedulers.yarn.AllocatorPlacement.NODE_SLOTS, Integer.toString(cluster.slotsPerNode()));
    return out;
  }

  public String runId() {
    return String.format("%s-%03d", variant, runIndex);
  }
}
