package faultbed.harness;

import java.util.Arrays;
import java.util.Optional;

/**
 * A part of a job faultbed places on nodes of its choosing rather than where the ResourceManager's
 * heartbeat order happens to put it: chosen from each run's seed, so every variant of a block runs
 * it on the same nodes and where it landed is not noise in their difference. Done with YARN node
 * labels: a non-exclusive label per part, set on its nodes, and the job asking for it.
 */
public enum Pin {
  /** The ApplicationMaster, on one node. */
  AM("am", "faultbed-am", "mapreduce.job.am.node-label-expression"),
  /** Every reduce, on as few nodes as hold them at once, none of them the AM's. */
  REDUCES("reduces", "faultbed-reduces", "mapreduce.reduce.node-label-expression");

  private final String scenarioName;
  private final String label;
  private final String jobSetting;

  Pin(String scenarioName, String label, String jobSetting) {
    this.scenarioName = scenarioName;
    this.label = label;
    this.jobSetting = jobSetting;
  }

  /** The name scenario files use in {@code cluster.pin}. */
  public String scenarioName() {
    return scenarioName;
  }

  /** The YARN node label its nodes carry. */
  public String label() {
    return label;
  }

  /** The job setting that asks for the label. */
  public String jobSetting() {
    return jobSetting;
  }

  /** {@code parts} as an unmodifiable set in declaration order; null is none. */
  public static java.util.Set<Pin> setOf(java.util.Collection<Pin> parts) {
    return parts == null || parts.isEmpty() ? java.util.Set.of()
        : java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(parts));
  }

  public static Optional<Pin> named(String name) {
    return Arrays.stream(values()).filter(p -> p.scenarioName.equals(name)).findFirst();
  }
}
