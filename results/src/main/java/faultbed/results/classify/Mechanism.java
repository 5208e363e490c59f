package faultbed.results.classify;

/** Mechanisms a run showed besides its group's; several groups of the paper show each of them. */
public enum Mechanism {
  MAP_OUTPUTS_LOST("map outputs lost"),
  RUNNING_ATTEMPTS_LOST("running attempts lost"),
  FETCH_FAILURE_REPORTS("fetch-failure reports"),
  SPECULATIVE_MAP("speculative map"),
  SPECULATIVE_REDUCER("speculative reducer"),
  INDUCED_REDUCER_DEATH("induced reducer death"),
  AM_RESTARTED("AM restarted"),
  /** An attempt failed for sending no progress report for the task timeout (a stalled task JVM). */
  TASK_TIMED_OUT("task timed out"),
  /**
   * Attempts that failed on the fault's node by themselves (an I/O error, a container that could not
   * be launched there), each re-run as a task retry.
   */
  TASK_FAILED_ON_NODE("attempts failed on the node"),
  /** The AM stopped asking for the node after mapreduce.job.maxtaskfailures.per.tracker failures there. */
  NODE_BLACKLISTED("node blacklisted by the AM"),
  /**
   * A corrupt replica found by a reader's checksum check, reported to the NameNode, which had a good
   * copy made elsewhere and the bad one deleted: HDFS's own path, which the job does not see.
   */
  CORRUPT_REPLICA_REPLACED("corrupt replica reported and replaced"),
  /**
   * HDFS's slow-peer detection named a DataNode slow (its pipeline upstreams' latencies to it were
   * outliers): the NameNode then leaves it out of write pipelines and reads where so configured.
   */
  HDFS_SLOW_PEER("HDFS named a slow peer"),
  /** HDFS's slow-disk detection named a volume slower than its DataNode's others. */
  HDFS_SLOW_DISK("HDFS named a slow disk"),
  /**
   * The AM's own state machine refused an event and ended the job in ERROR: a map's last
   * fetch-failure report came while the AM was killing that attempt for its lost node (Hadoop 3.4's
   * TaskAttemptImpl has no transition for it in a kill's clean-up states).
   */
  AM_INVALID_EVENT("AM internal error (invalid event)"),
  /** A lost output declared lost by reducers' reports before expiry, re-run only after it. */
  DECLARED_LOST_BY_REPORTS("declared lost by reports, re-run after expiry");

  private final String label;

  Mechanism(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
