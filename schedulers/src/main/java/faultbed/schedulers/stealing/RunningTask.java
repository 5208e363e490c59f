package faultbed.schedulers.stealing;

/**
 * A task running on a node, as resource stealing sees it: what it holds, what more it could use,
 * and how far it has come.
 *
 * @param id        the task's name on the node (its container)
 * @param startMs   when it started, on the node's clock
 * @param progress  its progress, 0 to 1
 * @param slots     the slots (vcores) YARN gave it
 * @param canUse    the most slots it could keep busy now, its own included (a task with one unit of
 *                  work left cannot use a second thread)
 */
public record RunningTask(String id, long startMs, double progress, int slots, int canUse) {
  public RunningTask {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("id: expected a task's name, got " + id);
    }
    if (!(progress >= 0 && progress <= 1)) {
      throw new IllegalArgumentException("progress: expected 0 to 1, got " + progress);
    }
    if (slots < 1) {
      throw new IllegalArgumentException("slots: expected 1 or more, got " + slots);
    }
    if (canUse < 0) {
      throw new IllegalArgumentException("canUse: expected 0 or more, got " + canUse);
    }
  }

  /** The most slots it could take beyond its own. */
  int room() {
    return Math.max(0, canUse - slots);
  }

  /**
   * Its time left as LATE estimates it (Guo and Fox's equations 1 and 2): progress over elapsed time
   * is its rate, and what is left goes at that rate. Infinite before any progress.
   */
  public double timeLeftMs(long nowMs) {
    long elapsed = Math.max(1, nowMs - startMs);
    if (progress <= 0) {
      return Double.POSITIVE_INFINITY;
    }
    double rate = progress / elapsed;
    return (1 - progress) / rate;
  }
}
