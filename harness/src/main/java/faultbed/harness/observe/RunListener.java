package faultbed.harness.observe;

/** What a run reports while it goes, for progress bars. Called from the observer thread. */
public interface RunListener {
  RunListener NONE = new RunListener() {};

  /** A phase of the run: "preparing data", "running", "fault: crash node 2", "collecting". */
  default void phase(String phase) {}

  /** Job progress, 0..1 each, a few times a second. */
  default void progress(float map, float reduce) {}
}
