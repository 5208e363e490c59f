package faultbed.schedulers;

import java.util.List;

/**
 * A speculative-execution policy: given what the ApplicationMaster knows about a job right now,
 * which tasks deserve a backup attempt, and whether a backup may stay on the node YARN gave it.
 *
 * <p>Policies see plain snapshots, never Hadoop objects, so they can be unit-tested on hand-built
 * jobs and run unchanged inside a real AM through {@code faultbed.schedulers.yarn.PolicySpeculator}.
 * An implementation needs a public no-argument constructor; the adapter calls {@link #configure}
 * once before anything else.
 */
public interface SpeculationPolicy {

  /** Short name used in records and decision logs, e.g. "late". */
  String name();

  /** Reads the policy's parameters; time constants must go through {@link PolicySettings#millis}. */
  default void configure(PolicySettings settings) {}

  /**
   * Tasks that should get a backup now, best first. The adapter launches them in order while the
   * policy's own cap allows, never gives a task a second backup while one runs, and only asks when no
   * task of the job is waiting for a first container.
   */
  List<Backup> choose(JobSnapshot job);

  /**
   * Called when a backup attempt has been placed by YARN on {@code node}. The AM cannot choose the
   * node, so a policy that wants backups only on fast nodes refuses here; the adapter then kills the
   * backup and Hadoop asks the ResourceManager for another container for it.
   */
  default NodeVerdict judgeBackupNode(String node, TaskSnapshot task, JobSnapshot job) {
    return NodeVerdict.accept("policy does not restrict backup nodes");
  }

  /** The job is over (every task finished); a policy that learns across jobs persists here. */
  default void jobFinished(JobSnapshot job) {}
}
