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
 * Twice in a row counts, so one slow answer on a loaded machine does not end a run. Once it counts,
 * {@code onStopped} runs on the watch's thread: the run's own thread may be waiting in a job client
 * call on an AM that went with the part, which only the application's end lets return.
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

  PartWatch(Cluster cluster, Runnable onStopped) {
    timer.scheduleWithFixedDelay(() -> {
      Optional<String> now = cluster.partStopped();
      if (now.isEmpty()) {
        inARow = 0;
      } else if (++inARow >= 2 && stopped.compareAndSet(null, now.get())) {
        onStopped.run();
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

  /**
   * Kills the submitted application through the ResourceManager alone, once, and says how that
   * went. {@code Job.killJob} asks the AM first, and a job client waits on an AM it cannot reach for
   * as long as the RM has its application running.
   */
  static final class Kill {
    private final org.apache.hadoop.conf.Configuration conf;
    private final AtomicReference<String> application;
    private String outcome;

    Kill(org.apache.hadoop.conf.Configuration conf, AtomicReference<String> application) {
      this.conf = conf;
      this.application = application;
    }

    synchronized String run() {
      if (outcome != null) {
        return outcome;
      }
      String id = application.get();
      if (id == null) {
        return "before its job was submitted";
      }
      org.apache.hadoop.conf.Configuration c = new org.apache.hadoop.conf.Configuration(conf);
      // killApplication waits until the RM has it killed: bounded
      c.setLong(org.apache.hadoop.yarn.conf.YarnConfiguration.YARN_CLIENT_APPLICATION_CLIENT_PROTOCOL_POLL_TIMEOUT_MS,
          30_000);
      try (org.apache.hadoop.yarn.client.api.YarnClient yarn = org.apache.hadoop.yarn.client.api.YarnClient.createYarnClient()) {
        yarn.init(c);
        yarn.start();
        yarn.killApplication(org.apache.hadoop.yarn.api.records.ApplicationId.fromString(id));
        outcome = "its job killed";
      } catch (java.io.IOException | org.apache.hadoop.yarn.exceptions.YarnException | RuntimeException e) {
        outcome = "its job could not be killed (" + e.getMessage() + ")";
      }
      return outcome;
    }
  }
}
