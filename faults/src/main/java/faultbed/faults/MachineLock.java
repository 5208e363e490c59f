package faultbed.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A lock every faultbed process of this machine takes for the same thing (a file lock beside the
 * ledgers), for what two harnesses must not do at the same moment: choose one subnet, or add a
 * class under one shared qdisc. A JVM holds a file lock once, so its threads wait on a monitor first.
 */
public final class MachineLock {
  private static final Map<String, Object> MONITORS = new ConcurrentHashMap<>();

  private MachineLock() {}

  /** Runs {@code work} holding the machine's lock named {@code name}. */
  public static <T> T holding(String name, Supplier<T> work) {
    Path lock = Ledger.dir().resolveSibling(name + ".lock");
    synchronized (MONITORS.computeIfAbsent(name, n -> new Object())) {
      try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock held = ch.lock()) {
        return work.get();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot lock " + lock, e);
      }
    }
  }
}
