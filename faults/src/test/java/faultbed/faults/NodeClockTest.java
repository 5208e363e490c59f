package faultbed.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node's clock of its own, read by real JVMs started the way a node's JVMs are (the agent on
 * their command line): a jump and a drift move their time of day, as their own classes and the
 * JDK's Date read it, and not their monotonic clock; JVMs started meanwhile read the same time; each
 * heal brings the true time back.
 */
class NodeClockTest {
  private final List<Probe> probes = new ArrayList<>();
  private NodeClock clock;

  /** A ClockProbe on the node's clock; {@link #skew} is its time of day less the machine's, in ms. */
  private final class Probe implements AutoCloseable {
    final Process process;
    final AtomicLong skew = new AtomicLong(Long.MIN_VALUE);
    final AtomicLong dateSkew = new AtomicLong(Long.MIN_VALUE);
    final List<String> said = new ArrayList<>();

    Probe() throws IOException {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      // as a node's JVM runs: the agent on its command line, faultbed and Byte Buddy on its classpath
      process = new ProcessBuilder(java, clock.javaOption(), "-cp", System.getProperty("java.class.path"),
          ClockProbe.class.getName()).redirectErrorStream(true).start();
      Thread reader = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String l; (l = in.readLine()) != null; ) {
            String[] f = l.trim().split(" ");
            if (f.length == 3 && f[0].matches("\\d+")) {
              // against this JVM's time of day, the machine's: the print takes well under 50 ms
              long now = System.currentTimeMillis();
              skew.set(Long.parseLong(f[0]) - now);
              dateSkew.set(Long.parseLong(f[1]) - now);
            } else {
              synchronized (said) {
                said.add(l);
              }
            }
          }
        } catch (IOException e) {
          // the probe ended
        }
      });
      reader.setDaemon(true);
      reader.start();
      await("a probe's first reading").atMost(Duration.ofSeconds(30))
          .until(() -> skew.get() != Long.MIN_VALUE || !process.isAlive());
      assertTrue(process.isAlive(), () -> "the probe ended: " + said);
      synchronized (said) {
        assertTrue(said.stream().anyMatch(l -> l.startsWith(NodeClockAgent.MARK + "following")), "the agent ran: " + said);
      }
      probes.add(this);
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }

  @BeforeEach
  void clock(@TempDir Path dir) {
    clock = NodeClock.make(dir.resolve("clock"));
  }

  @AfterEach
  void stop() {
    probes.forEach(Probe::close);
  }

  private static void near(Probe p, long expectedMs, long withinMs, String what) {
    await(what).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
      assertTrue(Math.abs(p.skew.get() - expectedMs) <= withinMs, what + ": skew " + p.skew.get() + " ms");
      assertTrue(Math.abs(p.dateSkew.get() - expectedMs) <= withinMs, what + ": new Date() skew " + p.dateSkew.get() + " ms");
    });
  }

  @Test
  void aJumpMovesTheTimeOfDayOfRunningAndNewJvmsUntilHealed() throws Exception {
    Probe before = new Probe();
    near(before, 0, 200, "true time before the jump");
    Installed jump = clock.jump(Duration.ofHours(1));
    assertEquals("offset 3600000", clock.setting());
    near(before, 3_600_000, 200, "a running JVM an hour ahead");
    Probe started = new Probe();
    near(started, 3_600_000, 200, "a JVM started during the jump an hour ahead");
    jump.heal();
    assertEquals("true", clock.setting());
    near(before, 0, 200, "the running JVM back at the true time");
    near(started, 0, 200, "the other back at the true time");
    Installed back = clock.jump(Duration.ofMinutes(-10));
    near(before, -600_000, 200, "ten minutes behind");
    back.heal();
    back.heal(); // idempotent
    near(before, 0, 200, "true time again");
  }

  @Test
  void aDriftRunsEveryJvmsClockFastFromItsStartAndItsHealStepsBackToTheTrueTime() throws Exception {
    Probe p = new Probe();
    Installed drift = clock.drift(3);
    await("two seconds gained").atMost(Duration.ofSeconds(10)).until(() -> p.skew.get() >= 2_000);
    Probe late = new Probe();
    // a JVM started during the drift reads the node's time, not its own reckoning
    await("the same time in both").atMost(Duration.ofSeconds(5))
        .until(() -> Math.abs(late.skew.get() - p.skew.get()) <= 300);
    assertThrows(IllegalStateException.class, () -> clock.jump(Duration.ofMinutes(1)), "one clock fault at a time");
    drift.heal();
    near(p, 0, 200, "true time after the heal");
    near(late, 0, 200, "the late JVM too");
    Installed slow = clock.drift(0.5);
    await("half a second lost").atMost(Duration.ofSeconds(10)).until(() -> p.skew.get() <= -500);
    slow.heal();
    near(p, 0, 200, "true time after the slow drift's heal");
  }

  @Test
  void theClockSaysHowFarAheadItWasAtAnyTime() throws Exception {
    long before = System.currentTimeMillis();
    Installed jump = clock.jump(Duration.ofMinutes(2));
    long during = System.currentTimeMillis();
    assertEquals(120_000, clock.aheadAt(during));
    Thread.sleep(5); // the heal a few ms after "during", on the machine's clock
    jump.heal();
    long after = System.currentTimeMillis() + 1;
    assertEquals(0, clock.aheadAt(before - 1), "before the jump");
    assertEquals(120_000, clock.aheadAt(during), "during it, after the heal too");
    assertEquals(0, clock.aheadAt(after), "after the heal");
    Installed drift = clock.drift(3);
    long start = System.currentTimeMillis();
    assertEquals(2_000, clock.aheadAt(start + 1_000), 100, "two seconds gained in one (from the write, just before)");
    drift.heal();
  }

  @Test
  void aSettingReadsAsTheNodesTime() {
    assertEquals(1_000, NodeTime.Setting.parse("true").at(1_000));
    assertEquals(61_000, NodeTime.Setting.parse("offset 60000\n").at(1_000));
    assertEquals(-59_000, NodeTime.Setting.parse("offset -60000").at(1_000));
    NodeTime.Setting drift = NodeTime.Setting.parse("drift 3.0 10000");
    assertEquals(10_000, drift.at(10_000), "no step when the drift starts");
    assertEquals(13_000, drift.at(11_000), "three seconds for one");
    assertEquals("drift 3.0 10000", drift.line());
    assertEquals(10_500, NodeTime.Setting.parse("drift 0.5 10000").at(11_000));
    assertThrows(IllegalArgumentException.class, () -> NodeTime.Setting.parse("later"));
  }
}
