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
 */
public record RunSpec(String scenario, String variant, int runIndex, long seed, long dataSeed,
    Workload workload, Timeline timeline, Speculation speculation, java.time.Duration jobLimit,
    java.util.Set<Pin> pinned) {
  /** How long a job may run when its spec sets no limit. */
  public static final java.time.Duration DEFAULT_JOB_LIMIT = java.time.Duration.ofHours(1);

  private static final java.util.concurrent.atomic.AtomicInteger ADHOC = new java.util.concurrent.atomic.AtomicInteger();

  public RunSpec {
    speculation = speculation == null ? Speculation.off() : speculation;
    jobLimit = jobLimit == null ? DEFAULT_JOB_LIMIT : jobLimit;
    pinned = Pin.setOf(pinned);
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
    return new RunSpec(scenario, variant, runIndex, s, dataSeed, workload, timeline, speculation, jobLimit, pinned);
  }

  public RunSpec withSpeculation(Speculation s) {
    return new RunSpec(scenario, variant, runIndex, seed, dataSeed, workload, timeline, s, jobLimit, pinned);
  }

  /** The same run with {@code parts} of its job pinned (see {@link Pin}). */
  public RunSpec withPinned(java.util.Set<Pin> parts) {
    return new RunSpec(scenario, variant, runIndex, seed, dataSeed, workload, timeline, speculation, jobLimit, parts);
  }

  public String runId() {
    return String.format("%s-%03d", variant, runIndex);
  }
}
