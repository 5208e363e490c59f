package faultbed.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The time of day a node's JVMs read when the node has a clock of its own: the machine's, moved as
 * the node's clock file says. {@link NodeClockAgent} makes every {@code System.currentTimeMillis()}
 * of the JVM's classes a call of {@link #currentTimeMillis()}. Loaded by the bootstrap class loader
 * (from the agent's jar) so that rewritten JDK classes reach it too: it uses java.base only.
 *
 * <p>The file holds one line: {@code true} (the machine's time), {@code offset MS} (stepped by MS),
 * or {@code drift SPEED SINCE} (running SPEED times as fast since the true time SINCE, in ms, so
 * every process of the node, whenever it started, reads the same time). A thread re-reads it every
 * {@link #POLL_MS} ms.
 */
public final class NodeTime {
  public static final long POLL_MS = 50;
  private static volatile Setting setting = Setting.TRUE;

  private NodeTime() {}

  /** The node's time of day, in ms since the epoch. */
  public static long currentTimeMillis() {
    return setting.at(System.currentTimeMillis());
  }

  /** Follows {@code file} from now on (public: the agent calls it from another class loader) (read at once, then every {@link #POLL_MS} ms, on a daemon thread). */
  public static void follow(Path file) {
    read(file);
    Thread t = new Thread(() -> {
      while (true) {
        try {
          Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
          return;
        }
        read(file);
      }
    }, "faultbed-node-clock");
    t.setDaemon(true);
    t.start();
  }

  private static void read(Path file) {
    try {
      setting = Setting.parse(Files.readString(file, StandardCharsets.US_ASCII));
    } catch (IOException | IllegalArgumentException e) {
      // a clock file gone (the cluster's folder removed) or unreadable: the setting stands
    }
  }

  /** One setting of the node's clock. */
  record Setting(long offsetMs, double speed, long sinceMs) {
    static final Setting TRUE = new Setting(0, 1, 0);

    /** The node's time when the machine's is {@code realMs}. */
    long at(long realMs) {
      return speed == 1 ? realMs + offsetMs : realMs + offsetMs + (long) ((realMs - sinceMs) * (speed - 1));
    }

    static Setting parse(String text) {
      String[] f = text.trim().split("\\s+");
      return switch (f[0]) {
        case "true" -> TRUE;
        case "offset" -> new Setting(Long.parseLong(f[1]), 1, 0);
        case "drift" -> new Setting(0, Double.parseDouble(f[1]), Long.parseLong(f[2]));
        default -> throw new IllegalArgumentException("not a clock setting: " + text);
      };
    }

    /** As the file says it. */
    String line() {
      if (speed != 1) {
        return String.format(Locale.ROOT, "drift %s %d", speed, sinceMs);
      }
      return offsetMs == 0 ? "true" : "offset " + offsetMs;
    }
  }
}
