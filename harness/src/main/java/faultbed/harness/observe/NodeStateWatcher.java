package faultbed.harness.observe;

import faultbed.results.RunRecord.NodeTransition;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Polls the ResourceManager's node states every 50 ms and tells each change with its time to the
 * run's history as it sees it, so a node's LOST is placed within the poll interval of when the RM
 * decided it.
 */
final class NodeStateWatcher implements AutoCloseable {
  static final long POLL_MS = 50;

  private final Supplier<Map<String, String>> states;
  private final Map<String, Integer> indexOf;
  private final LongSupplier nowMs;
  private final Consumer<NodeTransition> seen;
  private final Thread thread;
  private volatile boolean running = true;

  private final java.util.concurrent.atomic.AtomicInteger failedPolls = new java.util.concurrent.atomic.AtomicInteger();
  private volatile String lastFailure;

  NodeStateWatcher(Supplier<Map<String, String>> states, Map<String, Integer> indexOf, LongSupplier nowMs,
      Consumer<NodeTransition> seen) {
    this.states = states;
    this.seen = seen;
    this.indexOf = indexOf;
    this.nowMs = nowMs;
    this.thread = new Thread(this::loop, "faultbed-node-states");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  private void loop() {
    Map<String, String> last = null;
    while (running) {
      Map<String, String> now;
      try {
        now = states.get();
      } catch (RuntimeException e) {
        // a remote RM that did not answer this time: its changes show at the next poll that works
        if (running) {
          failedPolls.incrementAndGet();
          lastFailure = e.getMessage();
        }
        if (!pause()) {
          return;
        }
        continue;
      }
      long t = nowMs.getAsLong();
      if (last == null) {
        last = new HashMap<>(now);
      }
      for (var e : now.entrySet()) {
        String before = last.get(e.getKey());
        if (!e.getValue().equals(before)) {
          seen.accept(new NodeTransition(indexOf.getOrDefault(e.getKey(), -1), e.getKey(), before, e.getValue(), t));
        }
      }
      last = new HashMap<>(now);
      if (!pause()) {
        return;
      }
    }
  }

  private boolean pause() {
    try {
      Thread.sleep(POLL_MS);
      return true;
    } catch (InterruptedException e) {
      return false;
    }
  }

  /** For the record's notes: polls the RM did not answer, or null when it answered every one. */
  String failures() {
    int n = failedPolls.get();
    return n == 0 ? null : "the ResourceManager's node states could not be read " + n + " time(s), a transition"
        + " then shows at the next poll that worked (last: " + lastFailure + ")";
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
