package faultbed.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A wall clock of a node's own: every process of the node (its daemons, and its containers, which
 * inherit the setting) reads the time of day through libfaketime, loaded with {@code LD_PRELOAD},
 * whose offset and speed come from one file of the node's. The file says {@code +0} (the true time)
 * until a fault moves it:
 * <ul>
 *   <li>a jump: {@code +N} seconds (or {@code -N}), seen by every process of the node within
 *   {@link #SEEN_WITHIN}, processes started meanwhile included; healed by stepping back;</li>
 *   <li>a drift: the clock runs {@code speed} times as fast from the moment it is seen (libfaketime's
 *   {@code x} modifier with {@code FAKETIME_XRESET}, so no process jumps when it starts); a process
 *   started during the drift starts at the true time and drifts from there. Healed by stopping the
 *   drift and then stepping back to the true time, as NTP steps a clock that is far off: this takes
 *   {@code 2 * SEEN_WITHIN}, and a process stopped all through it (a pause, a freeze) keeps
 *   drifting until it is restarted.</li>
 * </ul>
 * Only the time of day moves ({@code CLOCK_REALTIME}: Java's {@code System.currentTimeMillis},
 * Hadoop's {@code Time.now}); the monotonic clock ({@code System.nanoTime}, {@code Time.monotonicNow})
 * runs on, as on a machine whose clock is stepped, and the JVM needs it so. File times are not
 * faked. Nothing of it outlives the node's processes: libfaketime keeps a shared-memory segment per
 * process in {@code /dev/shm}, which the node gets as a tmpfs of its own in its mount namespace
 * ({@link #shellPrefix}), gone with the namespace's last process, so a node killed mid-fault leaves
 * no segment on the host.
 */
public final class NodeClock {
  /**
   * How long a running process may go on with the old setting: libfaketime reads the file again at
   * the first clock call once its cached copy is more than a second old, counted in whole seconds,
   * so after 1 to 2 s (2.0 s the most seen here), plus a margin.
   */
  public static final Duration SEEN_WITHIN = Duration.ofMillis(2500);
  static final String TRUE_TIME = "+0";

  private final Path file;
  private final Path library;
  private String moved; // what moves it now, or null

  private NodeClock(Path file, Path library) {
    this.file = file;
    this.library = library;
  }

  /** libfaketime's library on this machine, where Debian's package puts it. */
  public static Optional<Path> library() {
    List<Path> roots = List.of(Path.of("/usr/lib"), Path.of("/usr/local/lib"), Path.of("/usr/lib64"));
    for (Path root : roots) {
      Path direct = root.resolve("faketime/libfaketime.so.1");
      if (Files.isRegularFile(direct)) {
        return Optional.of(direct);
      }
      if (Files.isDirectory(root)) {
        try (Stream<Path> s = Files.list(root)) {
          Optional<Path> found = s.map(p -> p.resolve("faketime/libfaketime.so.1")).filter(Files::isRegularFile).findFirst();
          if (found.isPresent()) {
            return found;
          }
        } catch (IOException e) {
          // unreadable: not there
        }
      }
    }
    return Optional.empty();
  }

  /** Why this machine cannot give a node a clock of its own, one line each; empty when it can. */
  public static List<String> problems() {
    List<String> p = new ArrayList<>();
    if (library().isEmpty()) {
      p.add("no libfaketime here (the library clock faults load into a node's processes): install it"
          + " (Debian: apt-get install libfaketime), or run './faultbed doctor' as root, which installs it");
    }
    if (!Capability.isRoot()) {
      p.add("a clock of a node's own needs root (a private /dev/shm in the node's mount namespace): run as root,"
          + " e.g. with sudo");
    }
    return p;
  }

  /** A clock at the true time, set by {@code file} (written now). */
  public static NodeClock make(Path file) {
    Path lib = library().orElseThrow(() -> new PreconditionFailed(problems().get(0)));
    NodeClock c = new NodeClock(file, lib);
    c.write(TRUE_TIME);
    return c;
  }

  public Path file() {
    return file;
  }

  /** What a process of the node needs in its environment to read this clock. */
  public Map<String, String> environment() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("LD_PRELOAD", library.toString());
    env.put("FAKETIME_TIMESTAMP_FILE", file.toString());
    env.put("FAKETIME_CACHE_DURATION", "1");
    env.put("FAKETIME_XRESET", "1");
    env.put("FAKETIME_DONT_FAKE_MONOTONIC", "1"); // the JVM hangs on a faked monotonic clock
    env.put("NO_FAKE_STAT", "1");
    env.put("LC_NUMERIC", "C"); // libfaketime reads "x1.5" with the locale's decimal point
    return env;
  }

  /**
   * Shell words that, run in the node's own mount namespace before its process, give it a
   * {@code /dev/shm} of its own and set its environment: "mount ... && exec env K=V ..." wants the
   * command after it.
   */
  public String shellPrefix() {
    StringBuilder s = new StringBuilder("mount -t tmpfs -o size=64m,mode=1777 faultbed-clock /dev/shm && exec env");
    environment().forEach((k, v) -> s.append(' ').append(k).append("='").append(v.replace("'", "'\\''")).append('\''));
    return s.toString();
  }

  /** The clock stepped by {@code offset} (either way) until healed, which steps it back. */
  public synchronized Installed jump(Duration offset) {
    if (offset.isZero()) {
      throw new IllegalArgumentException("a clock jump needs an offset other than zero");
    }
    take("a jump of " + offset);
    write(seconds(offset));
    return () -> {
      write(TRUE_TIME);
      release();
    };
  }

  /** The clock running {@code speed} times as fast until healed, which stops it and steps it back. */
  public synchronized Installed drift(double speed) {
    if (!(speed > 0) || speed == 1 || Double.isInfinite(speed)) {
      throw new IllegalArgumentException("a clock drift needs a speed above 0 other than 1, got " + speed);
    }
    take("a drift at x" + speed);
    write("+0 x" + String.format(Locale.ROOT, "%.6f", speed));
    return () -> {
      // With FAKETIME_XRESET a setting with a speed goes on from the time shown, keeping what was
      // gained; a setting without one keeps the speed it had. So: speed 1 first, held until every
      // running process has read it, then the step back. A process stopped (SIGSTOP, frozen) all
      // through the first part misses it and keeps drifting until it is restarted.
      write("+0 x1");
      pause(SEEN_WITHIN.multipliedBy(2));
      write(TRUE_TIME);
      release();
    };
  }

  /** What the file says now. */
  public String setting() {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void take(String what) {
    if (moved != null) {
      throw new IllegalStateException("the node's clock is moved already, by " + moved + "; one clock fault at a time");
    }
    moved = what;
  }

  private synchronized void release() {
    moved = null;
  }

  /** libfaketime's relative offset, whole seconds and a fraction. */
  static String seconds(Duration offset) {
    long ms = offset.toMillis();
    String abs = String.format(Locale.ROOT, "%d.%03d", Math.abs(ms) / 1000, Math.abs(ms) % 1000);
    return (ms < 0 ? "-" : "+") + abs;
  }

  /** Written whole (a rename), so a process never reads half a setting. */
  private void write(String setting) {
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".new");
      Files.writeString(tmp, setting + "\n", StandardCharsets.US_ASCII);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot set the node clock in " + file, e);
    }
  }

  private static void pause(Duration d) {
    try {
      Thread.sleep(d.toMillis()); // libfaketime's own cache period: nothing to poll
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
