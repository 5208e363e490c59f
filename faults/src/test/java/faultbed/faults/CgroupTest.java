package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.faults.CgroupLayout.Mechanism;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A node's group on every layout this host can show: as it is (v1, v2 or hybrid), with only its v1
 * hierarchies, with only its v2 one, and with none (process trees and signals). A layout the host
 * lacks is skipped with the reason.
 */
class CgroupTest {
  /** Uses the host with only these hierarchies, or skips; "" is the host as it is. */
  private static CgroupLayout use(String only, Mechanism tasks) {
    System.setProperty("faultbed.cgroup.use", only);
    CgroupLayout layout = CgroupLayout.reload();
    assumeTrue(layout.tasks() == tasks, () -> "no " + tasks + " for node groups here: " + layout.describe());
    return layout;
  }

  private static CgroupLayout use(String only) {
    System.setProperty("faultbed.cgroup.use", only);
    return CgroupLayout.reload();
  }

  @AfterEach
  void hostAsItIs() {
    System.clearProperty("faultbed.cgroup.use");
    CgroupLayout.reload();
  }

  /** A shell that joins the group and then forks children that fork again: a process tree like a container's. */
  private static Process treeIn(Cgroup g) throws Exception {
    return new ProcessBuilder("sh", "-c", g.joinCommand() + "; (sleep 300 & sleep 300 & wait) & setsid sleep 300 & wait")
        .start();
  }

  private static String testGroup() {
    return "test-" + ProcessHandle.current().pid();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"host", "v1", "v2", "none"})
  void killAllEndsEveryProcessOfTheGroupIncludingNewSessions(String layout) throws Exception {
    skipUnlessAvailable(layout);
    Cgroup g = Cgroup.of(testGroup() + "/kill").create();
    try {
      Process p = treeIn(g);
      Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> g.pids().size() >= 5);
      Set<Long> members = g.pids();
      Set<Long> killed = g.killAll(Duration.ofSeconds(5));
      assertTrue(killed.containsAll(members));
      assertTrue(g.pids().isEmpty());
      for (long pid : members) {
        Awaitility.await().atMost(Duration.ofSeconds(2))
            .until(() -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
      }
      assertFalse(p.isAlive() && p.waitFor(2, java.util.concurrent.TimeUnit.SECONDS) && p.isAlive());
    } finally {
      Cgroup.of(testGroup()).destroy();
    }
    assertFalse(Cgroup.of(testGroup()).exists());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"host", "v1", "v2", "none"})
  void freezeStopsProgressAndThawResumesIt(String layout) throws Exception {
    skipUnlessAvailable(layout);
    Cgroup g = Cgroup.of(testGroup() + "/freeze").create();
    try {
      Path f = countFile(g);
      Files.deleteIfExists(f);
      Process counter = g.spawn(List.of("sh", "-c", "while :; do echo x >> '" + f + "'; sleep 0.01; done"));
      Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> count(g) > 0);
      g.freeze();
      assertTrue(g.isFrozen());
      long frozenAt = count(g);
      // progress over a fixed window is what freezing means: no state to wait for
      Thread.sleep(500);
      assertEquals(frozenAt, count(g), "a frozen group makes no progress");
      g.thaw();
      assertFalse(g.isFrozen());
      Awaitility.await("counting again").atMost(Duration.ofSeconds(5)).until(() -> count(g) > frozenAt);
      counter.destroyForcibly();
    } finally {
      Cgroup.of(testGroup()).destroy();
      Files.deleteIfExists(countFile(g)); // the counter is dead with its group; leave nothing in tmp
    }
  }

  /** The counter's file: it appends a line every few milliseconds while it runs. */
  private static long count(Cgroup g) throws Exception {
    Path f = countFile(g);
    return Files.exists(f) ? Files.size(f) : 0;
  }

  private static Path countFile(Cgroup g) {
    return Path.of(System.getProperty("java.io.tmpdir"), "faultbed-count-" + g.path().replace('/', '-'));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"host", "v1", "v2", "none"})
  void aGroupOfADeadOwnerIsHealedAtTheNextStartAndItsProcessesKilled(String layout) throws Exception {
    skipUnlessAvailable(layout);
    // a stand-in for a dead harness: a ledger file whose pid no longer runs
    Process owner = new ProcessBuilder("sleep", "0").start();
    owner.waitFor();
    String ownerName = "h" + owner.pid() + "-test";
    Cgroup g = Cgroup.of(ownerName).create();
    Cgroup node = Cgroup.of(ownerName + "/node-0").create();
    List<Long> pids = new ArrayList<>();
    treeIn(node);
    Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> node.pids().size() >= 5);
    node.freeze(); // a frozen group is thawed before it is removed
    pids.addAll(node.pids());
    Ledger.writeAtomically(Ledger.dir().resolve(ownerName + ".json"), new Ledger.Page(ownerName, owner.pid(),
        "1970-01-01T00:00:00Z", List.of(LedgerEntry.cgroup(g, "run-1"))));

    assertTrue(Ledger.orphans().stream().anyMatch(o -> o.contains(g.path())), Ledger.orphans().toString());
    List<String> healed = Ledger.healOrphans();
    assertTrue(healed.stream().anyMatch(h -> h.contains(g.path()) && h.contains("killed")), healed.toString());
    assertFalse(g.exists());
    for (long pid : pids) {
      Awaitility.await().atMost(Duration.ofSeconds(2))
          .until(() -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
    }
    assertEquals(List.of(), Ledger.orphans().stream().filter(o -> o.contains(ownerName)).toList());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"host", "v1", "v2", "none"})
  void closingALedgerHealsWhatItRecorded(String layout) {
    skipUnlessAvailable(layout);
    Ledger ledger = Ledger.open();
    Cgroup g = Cgroup.of(ledger.owner()).create();
    ledger.record(LedgerEntry.cgroup(g, "run-2"));
    assertTrue(g.exists());
    ledger.close();
    assertFalse(g.exists());
    assertFalse(Files.exists(Ledger.dir().resolve(ledger.owner() + ".json")));
  }

  @Test
  void aProcessTreeGroupNeverTakesAProcessThatReusedAMembersPid() throws Exception {
    use("none", Mechanism.SIGNALS);
    Cgroup g = Cgroup.of(testGroup() + "/reuse").create();
    try {
      Process stranger = new ProcessBuilder("sleep", "300").start();
      // as if a member with this pid had joined and died before the stranger got its pid
      Files.writeString(g.procsFiles().get(0), stranger.pid() + " 1\n");
      assertEquals(Set.of(), g.pids());
      assertEquals(Set.of(), g.killAll(Duration.ofSeconds(1)));
      assertTrue(stranger.isAlive());
      stranger.destroyForcibly();
    } finally {
      Cgroup.of(testGroup()).destroy();
    }
  }

  /**
   * A group made under one layout and healed by a start that sees another (the JVM died, the next
   * one runs with other hierarchies): it is not in the new tasks hierarchy, yet its folders elsewhere
   * are removed, and the heal does not fail on the group's absence.
   */
  @Test
  void aGroupLeftUnderAnotherLayoutIsRemovedFromEveryHierarchy() {
    use("v2", Mechanism.V2);
    Cgroup left = Cgroup.of(testGroup() + "/elsewhere").create();
    assertTrue(left.exists());
    String v2Root = left.v2Root();
    use("v1", Mechanism.V1);
    // as the ledger's healer finds it: the group and the v2 folder it was made under
    Cgroup healed = Cgroup.recorded(Cgroup.PREFIX + "/" + testGroup(), v2Root);
    assertFalse(healed.exists(), "the v1 tasks hierarchy has no such group");
    assertTrue(healed.existsAnywhere(), "its v2 folder is still there");
    healed.destroy();
    assertFalse(healed.existsAnywhere());
  }

  /**
   * A group's memory limit holds its processes: one that allocates past it is killed by the kernel's
   * OOM killer, which the group counts; the usage is what its processes hold. A hog that asks to be
   * spared holds its bytes resident, and its heal ends it.
   */
  @Test
  void aMemoryLimitBringsTheOomKillerAndAHogHoldsItsBytes() throws Exception {
    CgroupLayout layout = use("");
    assumeTrue(layout.memory() != Mechanism.NONE, () -> layout.memoryProblem().orElse(""));
    Cgroup g = Cgroup.of(testGroup() + "/memory").create();
    try {
      g.limitMemory(32L << 20);
      Process greedy = g.spawn(List.of("perl", "-e", "my $x = ''; vec($x, 64 * 1024 * 1024 - 1, 8) = 1; sleep 60"));
      assertTrue(greedy.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "killed before it held 64 MB");
      assertEquals(137, greedy.exitValue(), "SIGKILL");
      assertEquals(1, g.oomKills(), "the group counts the OOM kill");
      g.limitMemory(null);
      try (Installed hog = Load.memoryHog(g, 48L << 20)) {
        // v1 charges in per-CPU batches, so usage may trail by a few pages
        assertTrue(g.memoryUsage() >= 47L << 20, "the hog's bytes count: " + g.memoryUsage());
      }
      assertTrue(g.pids().isEmpty(), "the hog is gone with its heal");
    } finally {
      g.destroy();
    }
  }

  private static void skipUnlessAvailable(String layout) {
    switch (layout) {
      case "host" -> use("");
      case "v1" -> use("v1", Mechanism.V1);
      case "v2" -> use("v2", Mechanism.V2);
      default -> use("none", Mechanism.SIGNALS);
    }
    if (!layout.equals("none")) {
      assumeTrue(CgroupLayout.current().tasks() != Mechanism.SIGNALS,
          () -> "no cgroup can hold processes here: " + CgroupLayout.current().problems());
    }
  }
}
