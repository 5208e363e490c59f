package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.faults.remote.Become;
import faultbed.faults.remote.RemoteHost;
import faultbed.faults.remote.SshTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote backend's shell on a real host: OpenSSH's sshd in a namespace of its own, reached at
 * its own address with a key, its host key checked. Probes and actions run there, a dry run runs
 * only the probes, and every refusal (unknown host key, unknown client key, no sshd, a program
 * sudo may not run, a command past its timeout) is one line naming the host.
 */
class RemoteHostTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @TempDir
  Path dir;
  private Ledger ledger;
  private NodeNetwork net;
  private SshdHost host;
  private Path key;

  @BeforeEach
  void host() {
    List<String> problems = SshdHost.problems();
    assumeTrue(problems.isEmpty(), () -> "no sshd host can be made here: " + problems);
    ledger = Ledger.open();
    // the harness's own group first, so healing removes it after the groups made in it
    ledger.record(LedgerEntry.cgroup(Cgroup.of(ledger.owner()).create(), "test"));
    net = NodeNetwork.create(ledger);
    key = SshdHost.keyPair(dir.resolve("client_key"));
    host = SshdHost.start(ledger, net.add(0), dir.resolve("host-0"), key);
  }

  /** What the harness logs of the commands it runs on hosts (logger faultbed.hosts), while open. */
  private static final class CommandLog extends org.apache.log4j.AppenderSkeleton implements AutoCloseable {
    private final List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
    private final org.apache.log4j.Logger logger = org.apache.log4j.Logger.getLogger("faultbed.hosts");

    CommandLog() {
      logger.setLevel(org.apache.log4j.Level.INFO);
      logger.addAppender(this);
    }

    @Override
    protected void append(org.apache.log4j.spi.LoggingEvent e) {
      lines.add(e.getRenderedMessage());
    }

    List<String> lines() {
      return List.copyOf(lines);
    }

    @Override
    public boolean requiresLayout() {
      return false;
    }

    @Override
    public void close() {
      logger.removeAppender(this);
    }

    @Override
    public String toString() {
      return String.join("\n", lines());
    }
  }

  @AfterEach
  void close() {
    if (ledger == null) {
      return;
    }
    host.close();
    net.close();
    ledger.close();
  }

  @Test
  void probesAndActionsRunOnTheHostItself() {
    CommandLog logged = new CommandLog();
    try (RemoteHost remote = RemoteHost.connect(host.target("w0", key), TIMEOUT)) {
      // the host's own network: its address on eth0, which the machine running the test lacks
      RemoteHost.Result addr = remote.probe(List.of("ip", "-4", "-o", "addr", "show", "dev", "eth0"));
      assertTrue(addr.ok() && addr.out().contains(host.node().address()), addr.toString());
      assertEquals("root", remote.probe(List.of("id", "-un")).out().strip());

      String rule = "faultbed-test-" + ledger.owner();
      remote.check(List.of("iptables", "-A", "INPUT", "-p", "tcp", "--dport", "9", "-j", "DROP",
          "-m", "comment", "--comment", rule));
      assertTrue(remote.probeAsRoot(List.of("iptables", "-S", "INPUT")).out().contains(rule),
          "the rule is in the host's own table");
      assertFalse(Shell.run(List.of("iptables", "-S", "INPUT")).out().contains(rule), "and not in the machine's");

      RemoteHost.Result failed = remote.act(List.of("logs", dir.resolve("none").toString(), "application_1_1"));
      assertEquals(2, failed.code());
      assertTrue(failed.err().contains("is not a folder"), failed.toString());
    } finally {
      logged.close();
    }
    // every command run on the host is in the log, as run, with how it ended
    assertTrue(logged.lines().stream().anyMatch(l -> l.startsWith("w0 (root@" + host.node().address() + "): id -un: exit 0 in ")),
        logged.toString());
    // the root login runs faultbed's helper, sent on standard input
    assertTrue(logged.lines().stream().anyMatch(l -> l.contains(": sh -s -- iptables -A INPUT -p tcp --dport 9 -j DROP")
        && l.contains(": exit 0 in ")), logged.toString());
    assertTrue(logged.lines().stream().anyMatch(l -> l.contains(": sh -s -- logs " + dir.resolve("none")) && l.contains(": exit 2 in ")),
        logged.toString());
  }

  /**
   * One connection carries many commands at once (faults on several steps, their heals, probes),
   * and commands that leave a process running detached: sshd's limit on sessions per connection
   * (OpenSSH: 10) never refuses one.
   */
  @Test
  void manyCommandsAtOnceAndDetachedProcessesShareOneConnection() throws Exception {
    try (RemoteHost remote = RemoteHost.connect(host.target("w0", key), TIMEOUT)) {
      for (int i = 0; i < 12; i++) {
        assertTrue(remote.actAsLogin(List.of("setsid", "-f", "sh", "-c", "exec sleep 611.5 >> /dev/null 2>&1 < /dev/null"))
            .ok());
        RemoteHost.ClockOffset clock = remote.clockOffset(4);
        // the same clock: within half the round trip, and a millisecond of resolution at each end
        assertTrue(Math.abs(clock.offsetMs()) <= clock.roundTripMs() / 2 + 2, "the same clock: " + clock);
      }
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(16);
      try {
        List<java.util.concurrent.Future<RemoteHost.Result>> results = new java.util.ArrayList<>();
        for (int i = 0; i < 64; i++) {
          results.add(pool.submit(() -> remote.probe(List.of("sh", "-c", "sleep 0.05; echo ok"))));
        }
        for (var r : results) {
          assertEquals("ok", r.get().out().strip(), r.get().toString());
        }
      } finally {
        pool.shutdownNow();
        remote.act(List.of("pkill", "-f", "^sleep 611[.]5$"));
      }
    }
  }

  @Test
  void wordsReachTheHostAsTheyWere() {
    try (RemoteHost remote = RemoteHost.connect(host.target("w0", key), TIMEOUT)) {
      RemoteHost.Result r = remote.probe(List.of("printf", "%s|", "a b", "it's", "$HOME", "*", ""));
      assertEquals("a b|it's|$HOME|*||", r.out());
    }
  }

  /**
   * A dead harness of this machine is undone at once; one of another machine is left alone while
   * its lease on the host holds, and undone once it has run out (by the host's clock).
   */
  @Test
  void anotherMachinesHarnessIsLeftAloneWhileItsLeaseHolds() throws Exception {
    Path here = Files.writeString(dir.resolve("left-by-a-dead-harness-here"), "x");
    Path there = Files.writeString(dir.resolve("made-by-another-machine"), "x");
    String elsewhere = "h7-elsewhere@othermachine1";
    String line = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(Undo.entry("a file", "run-7",
        List.of("test", "-e", there.toString()), null, List.of("rm", "-f", there.toString())));
    try (RemoteHost remote = RemoteHost.connect(host.target("w0", key), TIMEOUT)) {
      remote.check(List.of("sh", "-c", "mkdir -p \"$HOME/$1\" && printf '%s\\n' \"$2\" > \"$HOME/$1/$3.ledger\"", "sh",
          faultbed.faults.remote.HostLedgers.DIR, line, elsewhere));
      Ledger dead = faultbed.faults.remote.HostLedgers.open(remote, "h8-deadhere");
      dead.record(Undo.entry("another file", "run-8", null, null, List.of("rm", "-f", here.toString())));

      List<String> healed = faultbed.faults.remote.HostLedgers.healOrphans(remote, java.util.Set.of());
      assertFalse(Files.exists(here), "this machine's dead harness is undone at once: " + healed);
      assertTrue(Files.exists(there), "another machine's harness holds its lease: " + healed);

      remote.check(List.of("sh", "-c", "touch -d '-5 minutes' \"$HOME/$1/$2.ledger\"", "sh",
          faultbed.faults.remote.HostLedgers.DIR, elsewhere));
      healed = faultbed.faults.remote.HostLedgers.healOrphans(remote, java.util.Set.of());
      assertFalse(Files.exists(there), "undone once its lease ran out: " + healed);
      assertTrue(healed.stream().anyMatch(l -> l.contains("of othermachine1")), healed.toString());
      assertFalse(remote.probe(List.of("sh", "-c", "test -e \"$HOME/$1/$2.ledger\"", "sh",
          faultbed.faults.remote.HostLedgers.DIR, elsewhere)).ok(), "its file is gone");
    }
  }

  /** A host ledger an older faultbed wrote (a command to undo per line) is undone as it says. */
  @Test
  void aHostLedgerOfAnOlderFaultbedIsUndone() throws Exception {
    Path left = Files.writeString(dir.resolve("left-by-an-older-faultbed"), "x");
    String line = "{\"what\":\"a file (run-000)\",\"check\":[\"test\",\"-e\",\"" + left + "\"],\"undo\":[\"rm\",\"-f\",\""
        + left + "\"],\"present\":null}";
    try (RemoteHost remote = RemoteHost.connect(host.target("w0", key), TIMEOUT)) {
      remote.check(List.of("sh", "-c", "mkdir -p \"$HOME/$1\" && printf '%s\\n' \"$2\" > \"$HOME/$1/$3.ledger\"", "sh",
          faultbed.faults.remote.HostLedgers.DIR, line, "h6-olderfaultbed"));
      List<String> healed = faultbed.faults.remote.HostLedgers.healOrphans(remote, java.util.Set.of());
      assertFalse(Files.exists(left), "undone: " + healed);
      assertTrue(healed.contains("undid a file (run-000) (left by h6-olderfaultbed)"), healed.toString());
    }
  }

  @Test
  void aDryRunRunsProbesAndOnlyWritesActionsDown() {
    Path file = dir.resolve("made-by-an-action");
    try (RemoteHost remote = RemoteHost.dryRun(host.target("w0", key), TIMEOUT)) {
      assertTrue(remote.isDryRun());
      assertEquals("root", remote.probe(List.of("id", "-un")).out().strip(), "probes run");
      assertTrue(remote.act(List.of("touch", file.toString())).ok());
      assertTrue(remote.act(List.of("iptables", "-A", "INPUT", "-j", "DROP")).ok());
      assertEquals(List.of("touch " + file, "sh -s -- iptables -A INPUT -j DROP"), remote.planned());
      assertFalse(remote.probe(List.of("iptables", "-S", "INPUT")).out().contains("DROP"), "no action ran");
    }
    assertFalse(Files.exists(file), "the dry run touched nothing");
  }

  @Test
  void aHostKeyNotInKnownHostsIsRefused() throws Exception {
    Path other = SshdHost.keyPair(dir.resolve("other_host_key"));
    String[] pub = Files.readString(Path.of(other + ".pub")).strip().split(" ");
    Path wrongKnownHosts = Files.writeString(dir.resolve("wrong_known_hosts"),
        host.node().address() + " " + pub[0] + " " + pub[1] + "\n");
    SshTarget t = host.target("w0", key);
    SshTarget changed = new SshTarget(t.name(), t.address(), t.port(), t.user(), t.key(), wrongKnownHosts, t.become());
    PreconditionFailed e = assertThrows(PreconditionFailed.class, () -> RemoteHost.connect(changed, TIMEOUT));
    assertTrue(e.getMessage().startsWith("host w0 (root@" + t.address() + ":22): its host key is not the one in "),
        e.getMessage());
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
  }

  @Test
  void aClientKeyTheHostDoesNotKnowIsRefused() {
    Path stranger = SshdHost.keyPair(dir.resolve("stranger_key"));
    PreconditionFailed e = assertThrows(PreconditionFailed.class,
        () -> RemoteHost.connect(host.target("w0", stranger), TIMEOUT));
    assertTrue(e.getMessage().contains("refused the login with key " + stranger), e.getMessage());
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
  }

  @Test
  void aHostWithoutSshdIsNotReachable() {
    NodeNetwork.NodeNamespace bare = net.add(1);
    SshTarget t = host.target("w0", key);
    SshTarget none = new SshTarget("w1", bare.address(), 22, "root", key, t.knownHosts(), t.become());
    PreconditionFailed e = assertThrows(PreconditionFailed.class, () -> RemoteHost.connect(none, TIMEOUT));
    assertTrue(e.getMessage().startsWith("host w1 (root@" + bare.address() + ":22) is not reachable over SSH: "),
        e.getMessage());
  }

  /**
   * A login that is not root, whose sudo rule is exactly the one docs/backends.md gives: the helper
   * installed root-owned, and the NodeManager start command. faultbed's faults work through it; sudo
   * refuses that login a shell or any program directly; an installed helper that is not this
   * faultbed's is refused at connect.
   */
  @Test
  void aLoginWhoseSudoRunsOnlyTheHelperMakesFaultsAndHasNoRootShell() throws Exception {
    assumeTrue(Shell.exists("sudo") && Shell.exists("useradd") && Shell.exists("visudo"), "sudo, useradd and visudo");
    String user = "fbops" + ProcessHandle.current().pid();
    Path home = Files.createDirectories(dir.resolve("home"));
    Path sudoers = Path.of("/etc/sudoers.d/faultbed-test-" + user);
    // recorded before they are made: a test JVM killed here leaves nothing the next start does not heal
    ledger.record(Undo.entry("user " + user, "test", List.of("id", "-u", user), null, List.of("userdel", user)));
    ledger.record(Undo.entry("sudo rule " + sudoers, "test", List.of("test", "-e", sudoers.toString()), null,
        List.of("rm", "-f", sudoers.toString())));
    Shell.check(List.of("useradd", "-M", "-N", "-d", home.toString(), "-s", "/bin/sh", "-p", "*", user));
    Shell.check(List.of("chown", user, home.toString()));
    Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path helper = Files.write(bin.resolve("faultbed-host"), RemoteHost.HELPER);
    Files.setPosixFilePermissions(helper, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    Path other = Files.write(bin.resolve("other-host"), (new String(RemoteHost.HELPER, java.nio.charset.StandardCharsets.UTF_8)
        + "# changed\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    Files.setPosixFilePermissions(other, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    Path rule = Files.writeString(dir.resolve("rule"), user + " ALL=(root) NOPASSWD: " + helper + ", " + other
        + ", /usr/bin/true faultbed-start\n");
    Shell.check(List.of("visudo", "-c", "-q", "-f", rule.toString())); // a broken rule would break sudo itself
    Shell.check(List.of("install", "-o", "root", "-g", "root", "-m", "0440", rule.toString(), sudoers.toString()));

    SshTarget t = host.target("w0", key);
    SshTarget ops = new SshTarget(t.name(), t.address(), t.port(), user, t.key(), t.knownHosts(),
        new Become.Helper(helper.toString()));
    try (RemoteHost remote = RemoteHost.connect(ops, TIMEOUT)) {
      assertEquals(user, remote.probe(List.of("id", "-un")).out().strip());
      String comment = "faultbed-test-" + ledger.owner();
      List<String> drop = List.of("INPUT", "-p", "tcp", "--dport", "9", "-j", "DROP", "-m", "comment", "--comment", comment);
      List<String> add = new ArrayList<>(List.of("iptables", "-w", "-A"));
      add.addAll(drop);
      remote.check(add);
      assertTrue(remote.probeAsRoot(List.of("iptables", "-w", "-S", "INPUT")).out().contains(comment));
      List<String> delete = new ArrayList<>(List.of("iptables", "-w", "-D"));
      delete.addAll(drop);
      remote.check(delete);
      assertFalse(remote.probeAsRoot(List.of("iptables", "-w", "-S", "INPUT")).out().contains(comment));

      // no root shell, no program but the helper and the start command
      RemoteHost.Result shell = remote.probe(List.of("sudo", "-n", "--", "sh", "-c", "id -u"));
      assertFalse(shell.ok(), shell.toString());
      assertFalse(remote.probe(List.of("sudo", "-n", "--", "iptables", "-S")).ok());
      RemoteHost.Result escape = remote.act(List.of("iptables", "--modprobe=/bin/sh", "-S"));
      assertEquals(2, escape.code(), escape.toString());
      remote.checkMayRunAsRoot(List.of("/usr/bin/true", "faultbed-start"));
      PreconditionFailed e = assertThrows(PreconditionFailed.class,
          () -> remote.checkMayRunAsRoot(List.of("systemctl", "start", "hadoop-yarn-nodemanager")));
      assertTrue(e.getMessage().startsWith("host w0 (" + user + "@" + t.address() + ":22): sudo does not let " + user
          + " run systemctl start hadoop-yarn-nodemanager without a password"), e.getMessage());
    }
    SshTarget changed = new SshTarget(t.name(), t.address(), t.port(), user, t.key(), t.knownHosts(),
        new Become.Helper(other.toString()));
    PreconditionFailed e = assertThrows(PreconditionFailed.class, () -> RemoteHost.connect(changed, TIMEOUT));
    assertTrue(e.getMessage().contains(other + " is not this faultbed's helper (sha256 "), e.getMessage());
  }

  /**
   * The SSH connection drops while a fault is in force (sshd's process serving it killed, as a
   * restarted sshd or a cut connection does): the next command connects again, and the fault
   * heals at once rather than waiting for the host's ledger.
   */
  @Test
  void aDroppedConnectionIsMadeAgainAndTheFaultHealsAtOnce() throws Exception {
    CommandLog logged = new CommandLog();
    String owner = "h9-dropped";
    try (RemoteHost remote = RemoteHost.connect(host.target("w0", key), TIMEOUT)) {
      Ledger onHost = faultbed.faults.remote.HostLedgers.open(remote, owner);
      Installed rule = Iptables.host(onHost).drop("run-1", "INPUT", List.of("--dport", "9"));
      assertTrue(remote.probeAsRoot(List.of("iptables", "-w", "-S", "INPUT")).out().contains(owner));

      long sshd = Long.parseLong(Files.readString(dir.resolve("host-0/sshd.pid")).strip());
      List<ProcessHandle> serving = ProcessHandle.of(sshd).orElseThrow().children().toList();
      assertFalse(serving.isEmpty(), "sshd serves the connection from a process of its own");
      serving.forEach(ProcessHandle::destroyForcibly);
      org.awaitility.Awaitility.await("the connection's sshd process gone").atMost(Duration.ofSeconds(10))
          .until(() -> serving.stream().noneMatch(ProcessHandle::isAlive));

      rule.heal();
      assertFalse(remote.probeAsRoot(List.of("iptables", "-w", "-S", "INPUT")).out().contains(owner),
          "healed over the new connection");
      onHost.close();
    } finally {
      logged.close();
    }
    assertTrue(logged.lines().stream().anyMatch(l -> l.endsWith("the SSH connection had dropped; connected again")),
        logged.toString());
  }

  @Test
  void aCommandPastItsTimeoutIsGivenUp() {
    try (RemoteHost remote = RemoteHost.connect(host.target("w0", key), Duration.ofSeconds(2))) {
      long start = System.nanoTime();
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> remote.probe(List.of("sleep", "30")));
      assertTrue(e.getMessage().contains("sleep 30 did not end within PT2S"), e.getMessage());
      assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(10)) < 0);
    }
  }
}
