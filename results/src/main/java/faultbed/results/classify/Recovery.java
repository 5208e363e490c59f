package faultbed.results.classify;

/** What made the job redo the work the failed node held, or that nothing had to be redone. */
public enum Recovery {
  NONE_NEEDED("none needed"),
  NODE_EXPIRY("node expiry"),
  NODE_REPORTED("node reported unusable"),
  FETCH_FAILURE_REPORTS("fetch-failure reports"),
  SPECULATION("speculation"),
  TASK_RETRY("task retry"),
  /** A new ApplicationMaster attempt ran the job on, after the ResourceManager expired the first. */
  AM_RESTART("AM restart"),
  UNKNOWN("unknown");

  private final String label;

  Recovery(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
