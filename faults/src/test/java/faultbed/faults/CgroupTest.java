package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Real cgroups: needs root and cgroup v1; skipped, with the reason, elsewhere. */
class CgroupTest {
  @BeforeEach
  void kernelBackendAvailable() {
    List<String> problems = KernelBackend.problems();
    assumeTrue(problems.isEmpty(), () -> "kernel backend unavailable: " + problems);
  }

  /** A shell that joins the group and then forks children that fork again: a process tree like a container's. */
  private static Process treeIn(Cgroup g) throws Exception {
    String join = String.join(" ", g.procsFiles().stream().map(p -> "echo $$ > " + p + ";").toList());
    return new ProcessBuilder("sh", "-c", join + " (sleep 300 & sleep 300 & wait) & setsid sleep 300 & wait")
        .start();
  }

  @Test
  void killAllEndsEveryProcessOfTheGroupIncludingNewSessions() throws Exception {
    Cgroup g = Cgroup.of("test-" + ProcessHandle.current().pid() + "/kill").create();
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
      Cgroup.of("test-" + ProcessHandle.current().pid()).destroy();
    }
    assertFalse(Cgroup.of("test-" + ProcessHandle.current().pid()).exists());
  }

  @Test
  void freezeStopsProgressAndThawResumesIt() throws Exception {
    Cgroup g = Cgroup.of("test-" + ProcessHandle.current().pid() + "/freeze").create();
    try {
      treeIn(g);
      Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> g.pids().size() >= 5);
      g.freeze();
      assertTrue(g.isFrozen());
      g.thaw();
      assertFalse(g.isFrozen());
    } finally {
      Cgroup.of("test-" + ProcessHandle.current().pid()).destroy();
    }
  }

  @Test
  void aGroupOfADeadOwnerIsHealedAtTheNextStartAndItsProcessesKilled() throws Exception {
    // a child JVM-less stand-in for a dead harness: a ledger file whose pid no longer runs
    Process owner = new ProcessBuilder("sleep", "0").start();
    owner.waitFor();
    String ownerName = "h" + owner.pid() + "-test";
    Cgroup g = Cgroup.of(ownerName).create();
    Cgroup node = Cgroup.of(ownerName + "/node-0").create();
    List<Long> pids = new ArrayList<>();
    treeIn(node);
    Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> node.pids().size() >= 5);
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

  @Test
  void closingALedgerHealsWhatItRecorded() {
    Ledger ledger = Ledger.open();
    Cgroup g = Cgroup.of(ledger.owner()).create();
    ledger.record(LedgerEntry.cgroup(g, "run-2"));
    assertTrue(g.exists());
    ledger.close();
    assertFalse(g.exists());
    assertFalse(java.nio.file.Files.exists(Ledger.dir().resolve(ledger.owner() + ".json")));
  }
}
