package faultbed.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * A node's clock of its own, read by real JVMs started the way a node's process is (a mount
 * namespace of their own, libfaketime preloaded): a jump and a drift move their time of day and
 * not their monotonic clock, processes started meanwhile see the jump, each heal brings the true
 * time back, and a process killed with SIGKILL leaves no libfaketime segment on the host.
 */
class NodeClockTest {
  private final List<Probe> probes = new ArrayList<>();
  private NodeClock clock;

  /** A ClockProbe under the node's clock; {@link #skew} is its time of day less the machine's, in ms. */
  private final class Probe implements AutoCloseable {
    final Process process;
    final AtomicLong skew = new AtomicLong(Long.MIN_VALUE);
    final List<String> said = new ArrayList<>();

    Probe() throws IOException {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      String classes;
      try {
        classes = Path.of(ClockProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
      } catch (java.net.URISyntaxException e) {
        throw new IllegalStateException(e);
      }
      // as ip netns exec runs a node: a mount namespace of its own, slave to the host's
      String line = clock.shellPrefix() + " '" + java + "' -cp '" + classes + "' " + ClockProbe.class.getName();
      process = new ProcessBuilder("unshare", "-m", "--propagation", "slave", "sh", "-c", line)
          .redirectErrorStream(true).start();
      Thread reader = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String l; (l = in.readLine()) != null; ) {
            String[] f = l.trim().split(" ");
            if (f.length == 2 && f[0].matches("\\d+")) {
              // its time of day against this JVM's, which reads the machine's: the print takes well under 50 ms
              skew.set(Long.parseLong(f[0]) - System.currentTimeMillis());
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
      await("a probe's first reading").atMost(Duration.ofSeconds(20))
          .until(() -> skew.get() != Long.MIN_VALUE || !process.isAlive());
      assertTrue(process.isAlive(), () -> "the probe ended: " + said);
      probes.add(this);
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }

  @BeforeEach
  void clock(@TempDir Path dir) {
    assumeTrue(NodeClock.problems().isEmpty(), () -> String.join("; ", NodeClock.problems()));
    clock = NodeClock.make(dir.resolve("clock"));
  }

  @AfterEach
  void stop() {
    probes.forEach(Probe::close);
  }

  private static void near(Probe p, long expectedMs, long withinMs, String what) {
    await(what).atMost(Duration.ofSeconds(8)).untilAsserted(() ->
        assertTrue(Math.abs(p.skew.get() - expectedMs) <= withinMs, what + ": skew " + p.skew.get() + " ms"));
  }

  @Test
  void aJumpMovesTheTimeOfDayOfRunningAndNewProcessesUntilHealed() throws Exception {
    Probe before = new Probe();
    near(before, 0, 200, "true time before the jump");
    Installed jump = clock.jump(Duration.ofHours(1));
    assertEquals("+3600.000", clock.setting());
    near(before, 3_600_000, 200, "a running process an hour ahead");
    Probe started = new Probe();
    near(started, 3_600_000, 200, "a process started during the jump an hour ahead");
    jump.heal();
    near(before, 0, 200, "the running process back at the true time");
    near(started, 0, 200, "the other back at the true time");
    Installed back = clock.jump(Duration.ofMinutes(-10));
    near(before, -600_000, 200, "ten minutes behind");
    back.heal();
    back.heal(); // idempotent
    near(before, 0, 200, "true time again");
  }

  @Test
  void aDriftRunsTheClockFastFromItsStartAndItsHealStepsBackToTheTrueTime() throws Exception {
    Probe p = new Probe();
    Installed drift = clock.drift(3);
    // seen within 1.5 s, then 2 s gained per second
    await("two seconds gained").atMost(Duration.ofSeconds(10)).until(() -> p.skew.get() >= 2_000);
    long gained = p.skew.get();
    await("more gained").atMost(Duration.ofSeconds(10)).until(() -> p.skew.get() >= gained + 2_000);
    assertThrows(IllegalStateException.class, () -> clock.jump(Duration.ofMinutes(1)), "one clock fault at a time");
    drift.heal();
    near(p, 0, 200, "true time after the heal");
    Installed slow = clock.drift(0.5);
    await("half a second lost").atMost(Duration.ofSeconds(10)).until(() -> p.skew.get() <= -500);
    slow.heal();
    near(p, 0, 200, "true time after the slow drift's heal");
  }

  @Test
  void aProcessKilledUnderTheClockLeavesNoSegmentOnTheHost() throws Exception {
    Probe p = new Probe();
    long pid = p.process.toHandle().descendants().filter(h -> h.info().command().orElse("").endsWith("java"))
        .findFirst().map(ProcessHandle::pid).orElse(p.process.pid());
    // libfaketime keeps a segment and a semaphore per process, named by its pid, in the /dev/shm it sees
    Process look = new ProcessBuilder("nsenter", "-t", Long.toString(pid), "-m", "ls", "/dev/shm").start();
    String inside = new String(look.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, look.waitFor());
    assertTrue(inside.contains("faketime_shm_" + pid), "the probe's segment, in its own /dev/shm: " + inside);
    assertTrue(Files.notExists(Path.of("/dev/shm/faketime_shm_" + pid)), "not in the host's /dev/shm");
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    p.process.waitFor();
    assertTrue(Files.notExists(Path.of("/dev/shm/faketime_shm_" + pid)), "no segment left on the host");
    assertTrue(Files.notExists(Path.of("/dev/shm/sem.faketime_sem_" + pid)), "no semaphore left on the host");
  }
}
