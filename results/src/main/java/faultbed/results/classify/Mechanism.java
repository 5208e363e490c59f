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
