package faultbed.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * SIGINT (Ctrl-C) while faults are being made: the exit heal waits for a rule or tc class being made
 * and heals it, nothing is made after it, and the process leaves nothing on the OS and no ledger for
 * the next start, at once. Faults are made and healed without pause on several threads, and the
 * signal comes at a different moment each time.
 */
class SigintMidInjectionTest {
  private static final Pattern CLASS = Pattern.compile("class htb fb:([0-9a-f]+) ");
  private static final int TRIALS = 8;

  @Test
  void aSigintWhileFaultsAreBeingMadeLeavesNothing() throws Exception {
    List<String> problems = new ArrayList<>(Capability.IPTABLES.problems());
    problems.addAll(Capability.TC.problems());
    assumeTrue(problems.isEmpty(), () -> "kernel backend unavailable: " + problems);
    Random random = new Random(20261130);
    for (int trial = 0; trial < TRIALS; trial++) {
      Process looper = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), InjectionLooper.class.getName(), "47100", "60", "3")
          .redirectErrorStream(true).start();
      BufferedReader out = new BufferedReader(new InputStreamReader(looper.getInputStream()));
      String ready = out.readLine();
      assertTrue(ready != null && ready.startsWith("READY "), "looper said: " + ready);
      String owner = ready.substring(6).trim();
      long delayMs = random.nextInt(200);
      await().pollDelay(Duration.ofMillis(delayMs)).atMost(Duration.ofSeconds(5)).until(() -> true);
      assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(looper.pid())).start().waitFor());
      await("the looper's exit after SIGINT").atMost(Duration.ofSeconds(60)).until(() -> !looper.isAlive());
      String said = new String(looper.getInputStream().readAllBytes());
      String at = "trial " + trial + " (SIGINT " + delayMs + " ms after READY), owner " + owner + ": ";

      assertFalse(said.contains("clean-up on exit failed"), at + said);
      String rules = Shell.run(List.of("iptables", "-w", "-S")).out();
      assertFalse(rules.contains("faultbed " + owner + " "), at + "a rule left:\n" + rules);
      List<String> classes = classesOf(owner);
      assertEquals(List.of(), classes, at + "tc classes left");
      assertFalse(Files.exists(Ledger.dir().resolve(owner + ".json")), at + "a ledger left for the next start");
    }
  }

  /** The tc classes on loopback in this owner's range. */
  private static List<String> classesOf(String owner) {
    int first = TrafficControl.firstClass(owner);
    List<String> found = new ArrayList<>();
    Matcher m = CLASS.matcher(Shell.run(List.of("tc", "class", "show", "dev", "lo")).out());
    while (m.find()) {
      int id = Integer.parseInt(m.group(1), 16);
      if (id >= first && id < first + 256) {
        found.add("fb:" + m.group(1));
      }
    }
    return found;
  }
}
