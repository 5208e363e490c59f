package faultbed.harness.observe;

import faultbed.harness.CgroupNode;
import faultbed.results.RunRecord.CpuShare;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Reads the CPU groups of the containers a node holds to a share (see
 * {@link faultbed.harness.daemons.StrictCpuExecutor}) every {@value #POLL_MS} ms, and tells the run's
 * history of each span a container spent at one quota and the CPU it used in it: a share that
 * moves shows as a container's spans at different quotas. Nothing where no container is held.
 */
public final class ShareWatcher implements AutoCloseable {
  static final long POLL_MS = 250;

  /** A span still open: where it began, the CPU time then, and the last reading. */
  private record Open(CgroupNode.ContainerCpu first, long fromMs, CgroupNode.ContainerCpu last, long lastMs) {}

  private final Supplier<List<CgroupNode.ContainerCpu>> read;
  private final LongSupplier nowMs;
  private final Consumer<CpuShare> seen;
  private final Map<String, Open> open = new LinkedHashMap<>();
  private final Thread thread;
  private volatile boolean running = true;

  ShareWatcher(Supplier<List<CgroupNode.ContainerCpu>> read, LongSupplier nowMs, Consumer<CpuShare> seen) {
    this.read = read;
    this.nowMs = nowMs;
    this.seen = seen;
    this.thread = new Thread(this::loop, "faultbed-cpu-shares");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  private void loop() {
    while (running) {
      poll();
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized void poll() {
    List<CgroupNode.ContainerCpu> now;
    try {
      now = read.get();
    } catch (RuntimeException e) {
      return; // a node being replaced: the next reading tells
    }
    long t = nowMs.getAsLong();
    Map<String, CgroupNode.ContainerCpu> current = new LinkedHashMap<>();
    now.forEach(c -> current.put(c.container(), c));
    for (var it = open.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      CgroupNode.ContainerCpu c = current.get(e.getKey());
      if (c == null) {
        close(e.getValue());
        it.remove();
      } else if (c.cores() != e.getValue().first().cores()) {
        // the span ends at this reading, where the next begins
        close(new Open(e.getValue().first(), e.getValue().fromMs(), c, t));
        e.setValue(new Open(c, t, c, t));
      } else {
        e.setValue(new Open(e.getValue().first(), e.getValue().fromMs(), c, t));
      }
    }
    current.forEach((id, c) -> open.putIfAbsent(id, new Open(c, t, c, t)));
  }

  private void close(Open o) {
    long span = o.lastMs() - o.fromMs();
    double used = span <= 0 ? 0 : (o.last().usageMicros() - o.first().usageMicros()) / 1000.0 / span;
    seen.accept(new CpuShare(o.first().node(), o.first().container(), o.fromMs(), o.lastMs(), o.first().cores(),
        Math.max(0, used)));
  }

  /** A last reading, and every span still open ends at it. */
  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      poll();
      open.values().forEach(this::close);
      open.clear();
    }
  }
}
