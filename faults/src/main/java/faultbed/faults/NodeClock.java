package faultbed.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A wall clock of a node's own: every JVM of the node (its daemons, and its containers, which the
 * NodeManager starts with {@link #environment}) runs {@link NodeClockAgent}, which makes its time of
 * day ({@code System.currentTimeMillis}, Hadoop's {@code Time.now}, log timestamps, {@code new Date()})
 * the node's: the machine's, moved as one file of the node's says. The file says the true time until
 * a fault moves it:
 * <ul>
 *   <li>a jump: the clock stepped by an offset, ahead or back, until healed;</li>
 *   <li>a drift: the clock running {@code speed} times as fast from the moment the fault starts,
 *   reckoned from that moment so that every process of the node, started before or during the
 *   drift, reads the same time.</li>
 * </ul>
 * A heal steps the clock back to the true time, as NTP steps a clock that is far off. Every JVM
 * reads the file every {@link NodeTime#POLL_MS} ms. Only the time of day moves: the monotonic clock
 * ({@code System.nanoTime}, {@code Time.monotonicNow}) runs on, as on a machine whose clock is
 * stepped; so do {@code java.time}'s clocks ({@code Instant.now()}), file times, and whatever is not
 * Java (the containers' launch scripts). Nothing of it is put on the OS: it lives in the node's JVMs
 * and folder.
 */
public final class NodeClock {
  /** How long a running JVM may go on reading the old setting. */
  public static final Duration SEEN_WITHIN = Duration.ofMillis(2 * NodeTime.POLL_MS);
  static final String JAR = "node-clock-agent.jar";

  private final Path file;
  private final Path agentJar;
  private String moved; // what moves it now, or null
  /** Every setting that moved it, with when (the machine's epoch ms) it began and ended; the last may be on. */
  private final java.util.List<Moved> moves = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** A setting in force from {@code from} until {@code until} (Long.MAX_VALUE while on). */
  private record Moved(NodeTime.Setting setting, long from, java.util.concurrent.atomic.AtomicLong until) {}

  private NodeClock(Path file, Path agentJar) {
    this.file = file;
    this.agentJar = agentJar;
  }

  /** A clock at the true time, set by {@code file} (written now), its agent's jar beside it. */
  public static NodeClock make(Path file) {
    Path jar = file.resolveSibling(JAR);
    try {
      Files.createDirectories(file.getParent());
      writeAgentJar(jar);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the node clock " + file, e);
    }
    NodeClock c = new NodeClock(file, jar);
    c.write(NodeTime.Setting.TRUE);
    return c;
  }

  /**
   * The agent's jar: a manifest naming {@link NodeClockAgent} (found on the JVM's classpath, with
   * Byte Buddy's ASM) and {@link NodeTime}, which the jar puts on the bootstrap class path so that
   * rewritten JDK classes reach it.
   */
  private static void writeAgentJar(Path jar) throws IOException {
    Manifest m = new Manifest();
    Attributes a = m.getMainAttributes();
    a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    a.put(new Attributes.Name("Premain-Class"), NodeClockAgent.class.getName());
    a.put(new Attributes.Name("Boot-Class-Path"), jar.getFileName().toString()); // itself, by its own folder
    a.put(new Attributes.Name("Can-Retransform-Classes"), "true");
    a.put(new Attributes.Name("Can-Redefine-Classes"), "true");
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m)) {
      for (Class<?> c : new Class<?>[] {NodeTime.class, NodeTime.Setting.class}) {
        String entry = c.getName().replace('.', '/') + ".class";
        try (InputStream in = NodeClock.class.getClassLoader().getResourceAsStream(entry)) {
          if (in == null) {
            throw new IOException("no " + entry + " on faultbed's classpath");
          }
          j.putNextEntry(new JarEntry(entry));
          in.transferTo(j);
          j.closeEntry();
        }
      }
    }
  }

  public Path file() {
    return file;
  }

  /** The JVM option that gives a JVM this clock. */
  public String javaOption() {
    return "-javaagent:" + agentJar + "=" + file;
  }

  /** What a JVM the NodeManager starts needs in its environment to read this clock. */
  public Map<String, String> environment() {
    return Map.of("JAVA_TOOL_OPTIONS", javaOption());
  }

  /** The clock stepped by {@code offset} (either way) until healed, which steps it back. */
  public synchronized Installed jump(Duration offset) {
    if (offset.isZero()) {
      throw new IllegalArgumentException("a clock jump needs an offset other than zero");
    }
    return move("a jump of " + offset, new NodeTime.Setting(offset.toMillis(), 1, 0));
  }

  /** The clock running {@code speed} times as fast from now until healed, which steps it back. */
  public synchronized Installed drift(double speed) {
    if (!(speed > 0) || speed == 1 || Double.isInfinite(speed)) {
      throw new IllegalArgumentException("a clock drift needs a speed above 0 other than 1, got " + speed);
    }
    return move("a drift at x" + speed, new NodeTime.Setting(0, speed, System.currentTimeMillis()));
  }

  private Installed move(String what, NodeTime.Setting setting) {
    if (moved != null) {
      throw new IllegalStateException("the node's clock is moved already, by " + moved + "; one clock fault at a time");
    }
    moved = what;
    write(setting);
    Moved m = new Moved(setting, System.currentTimeMillis(), new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE));
    moves.add(m);
    return () -> {
      synchronized (this) {
        write(NodeTime.Setting.TRUE);
        moved = null;
        m.until().accumulateAndGet(System.currentTimeMillis(), Math::min);
      }
    };
  }

  /**
   * How far ahead of the machine's (negative: behind) the node's clock was at {@code epochMs}, the
   * machine's time: what a fault had moved it by then, 0 where none had.
   */
  public long aheadAt(long epochMs) {
    for (int i = moves.size() - 1; i >= 0; i--) {
      Moved m = moves.get(i);
      if (epochMs >= m.from() && epochMs < m.until().get()) {
        return m.setting().at(epochMs) - epochMs;
      }
    }
    return 0;
  }

  /** What the file says now: "true", "offset MS" or "drift SPEED SINCE". */
  public String setting() {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Written whole (a rename), so a JVM never reads half a setting. */
  private void write(NodeTime.Setting setting) {
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".new");
      Files.writeString(tmp, setting.line() + "\n", StandardCharsets.US_ASCII);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot set the node clock in " + file, e);
    }
  }
}
