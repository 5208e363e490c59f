package faultbed.harness.observe;

import faultbed.harness.Cluster;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Asks the cluster every two seconds, off the run's loop (a check may take its own seconds), whether
 * a part it runs beside the nodes stopped, such as the Toxiproxy server the shuffle goes through.
 * Twice in a row counts, so one slow answer on a loaded machine does not end a run.
 */
final class PartWatch implements AutoCloseable {
  private static final long EVERY_MS = 2_000;

  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "faultbed-part-watch");
    t.setDaemon(true);
    return t;
  });
  private final AtomicReference<String> stopped = new AtomicReference<>();
  private int inARow; // the timer's thread only

  PartWatch(Cluster cluster) {
    timer.scheduleWithFixedDelay(() -> {
      Optional<String> now = cluster.partStopped();
      if (now.isEmpty()) {
        inARow = 0;
      } else if (++inARow >= 2) {
        stopped.compareAndSet(null, now.get());
      }
    }, EVERY_MS, EVERY_MS, TimeUnit.MILLISECONDS);
  }

  /** The line saying which part stopped, once it has. */
  Optional<String> stopped() {
    return Optional.ofNullable(stopped.get());
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
