package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each kernel fault measured on real sockets and processes, and gone after heal. */
class KernelFaultsTest {
  private Ledger ledger;
  private Cgroup node;

  @BeforeEach
  void kernelBackend() {
    List<String> problems = new ArrayList<>();
    for (Capability c : List.of(Capability.IPTABLES, Capability.TC, Capability.CPU_LIMIT, Capability.IO_LIMIT)) {
      problems.addAll(c.problems());
    }
    assumeTrue(problems.isEmpty(), () -> "kernel backend unavailable: " + problems);
    ledger = Ledger.open();
    node = Cgroup.of(ledger.owner()).create();
    ledger.record(LedgerEntry.cgroup(node, "test"));
  }

  @AfterEach
  void heal() {
    if (ledger != null) {
      ledger.close();
      assertFalse(Shell.run(List.of("iptables", "-S")).out().contains("faultbed " + ledger.owner()));
      String classes = Shell.run(List.of("tc", "class", "show", "dev", "lo")).out();
      int first = TrafficControl.firstClass(ledger.owner());
      assertFalse(java.util.regex.Pattern.compile("class \\S+ fb:([0-9a-f]+)").matcher(classes).results()
          .map(m -> Integer.parseInt(m.group(1), 16)).anyMatch(c -> c >= first && c < first + 256), classes);
      // the fb: root is shared: another live harness on this machine (a suite beside the tests) keeps it
      if (Ledger.liveOwners().isEmpty()) {
        assertFalse(Shell.run(List.of("tc", "qdisc", "show", "dev", "lo")).out().contains("fb:"));
      }
    }
  }

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** "refused", "timeout" or "connected" for a connect with a 1 s timeout. */
  private static String connect(int port) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return "connected";
    } catch (ConnectException e) {
      return "refused";
    } catch (SocketTimeoutException e) {
      return "timeout";
    }
  }

  @Test
  void rstSuppressionTurnsRefusedIntoATimeout() throws IOException {
    int port = closedPort();
    assertEquals("refused", connect(port));
    Installed rule = Iptables.loopback(ledger).dropRst("run-1", List.of(port));
    assertEquals("timeout", connect(port));
    rule.heal();
    rule.heal(); // idempotent
    assertEquals("refused", connect(port));
  }

  @Test
  void blackholeLetsNothingThroughUntilHealed() throws IOException {
    try (ServerSocket server = new ServerSocket(0)) {
      int port = server.getLocalPort();
      assertEquals("connected", connect(port));
      Installed rule = Iptables.loopback(ledger).dropAll("run-1", List.of(port));
      assertEquals("timeout", connect(port));
      rule.heal();
      assertEquals("connected", connect(port));
    }
  }

  /**
   * A lost packet is sent again: with 30 % of the port's packets dropped each way, about half the
   * connects (1 - 0.7^2) wait for TCP's retransmission and still connect. Connects go on until two
   * were late and two on time; not getting both within 20 would happen by chance less than once in
   * 10,000 runs (binomial, p = 0.51). After the heal none is late.
   */
  @Test
  void packetLossDelaysConnectsByRetransmissionUntilHealed() throws IOException {
    try (ServerSocket server = new ServerSocket(0, 64)) {
      int port = server.getLocalPort();
      Installed rule = Iptables.loopback(ledger).dropRandomly("run-1", List.of(port), 0.3);
      // the kernel keeps the probability as a 32-bit fraction: iptables prints 0.29999999981
      java.util.regex.Matcher kept = java.util.regex.Pattern.compile("--mode random --probability ([0-9.]+)")
          .matcher(Shell.run(List.of("iptables", "-w", "-S")).out());
      assertTrue(kept.find() && Math.abs(Double.parseDouble(kept.group(1)) - 0.3) < 1e-6, "a statistic match in faultbed's rule");
      LossyConnects.Count seen = LossyConnects.both("127.0.0.1", port, 20);
      assertTrue(seen.showsLoss(), seen + ": late connects waited for a retransmission");
      rule.heal();
      rule.heal(); // idempotent
      assertEquals(0, LossyConnects.late("127.0.0.1", port, 10), "late connects after the heal");
    }
  }

  /**
   * A rule whose harness died with its ledger lost is still found by its comment and removed, as
   * iptables prints it back (multiport, the statistic match); a live harness's rule is left alone.
   */
  @Test
  void aRuleNoLedgerClaimsIsFoundByItsCommentAndHealedWhileALiveOnesStays() throws IOException {
    int port = closedPort();
    String lost = "h1-lostledger";
    Iptables.namespace(Commands.local(), lost).dropRandomly("run-9", List.of(port, port + 1), 0.25);
    Installed live = Iptables.loopback(ledger).dropRst("run-1", List.of(port));
    try {
      assertTrue(Ledger.orphans().stream().anyMatch(l -> l.startsWith(Iptables.KIND) && l.contains(lost)),
          "the lost harness's rules are listed: " + Ledger.orphans());
      List<String> healed = Ledger.healOrphans();
      assertEquals(2, healed.stream().filter(l -> l.contains("faultbed " + lost)).count(), healed.toString());
      String rules = Shell.run(List.of("iptables", "-w", "-S")).out();
      assertFalse(rules.contains(lost), rules);
      assertTrue(rules.contains("faultbed " + ledger.owner() + " run-1"), "the live harness's rule stays: " + rules);
      assertEquals("timeout", connect(port));
    } finally {
      live.heal();
    }
    assertEquals("refused", connect(port));
  }

  /** A chain an older faultbed kept a dead harness's rules in is healed by the next start. */
  @Test
  void aChainOfAnOlderFaultbedIsHealed() {
    String chain = "FB-h1-olderfaultbed";
    Shell.check(List.of("iptables", "-w", "-N", chain));
    Shell.check(List.of("iptables", "-w", "-I", "OUTPUT", "1", "-j", chain));
    Shell.check(List.of("iptables", "-w", "-A", chain, "-o", "lo", "-p", "tcp", "--sport", "9", "-j", "DROP"));
    List<String> healed = Ledger.healOrphans();
    assertTrue(healed.stream().anyMatch(l -> l.contains(chain)), healed.toString());
    assertFalse(Shell.run(List.of("iptables", "-w", "-S")).out().contains(chain), "the chain and its jump are gone");
  }

  private static double throughput(int port, Duration window) throws IOException {
    return Firehose.bytesPerSecond(port, window, Duration.ofMillis(300)); // skip the htb burst at the start
  }

  /**
   * Two harnesses shape loopback at once: each cap holds, the first to heal leaves the other's
   * cap and the shared root in place, and the root goes with the last.
   */
  @Test
  void twoHarnessesShapeLoopbackAtOnceAndTheRootGoesWithTheLast() throws Exception {
    try (ServerSocket a = Firehose.start(); ServerSocket b = Firehose.start(); Ledger other = Ledger.open()) {
      long cap = 1_000_000;
      Installed first = TrafficControl.loopback(ledger).cap(List.of(a.getLocalPort()), cap);
      Installed second = TrafficControl.loopback(other).cap(List.of(b.getLocalPort()), 2 * cap);
      double gotA = throughput(a.getLocalPort(), Duration.ofSeconds(2));
      double gotB = throughput(b.getLocalPort(), Duration.ofSeconds(2));
      assertTrue(Math.abs(gotA - cap) <= 0.2 * cap, "the first harness's port delivered " + gotA + " B/s");
      assertTrue(Math.abs(gotB - 2 * cap) <= 0.2 * 2 * cap, "the second harness's port delivered " + gotB + " B/s");
      first.heal();
      ledger.healAll(); // the first harness is done: its root entry healed, the second's class still there
      assertTrue(Shell.run(List.of("tc", "qdisc", "show", "dev", "lo")).out().contains("fb:"), "the shared root stays");
      double stillB = throughput(b.getLocalPort(), Duration.ofSeconds(2));
      assertTrue(Math.abs(stillB - 2 * cap) <= 0.2 * 2 * cap, "the second's cap after the first healed: " + stillB);
      assertTrue(throughput(a.getLocalPort(), Duration.ofSeconds(1)) > 20 * cap, "the first's cap gone");
      second.heal();
      other.close();
      // unless a harness beside the tests (a suite) has a class under it at this moment
      java.util.Set<String> beside = new java.util.HashSet<>(Ledger.liveOwners());
      beside.remove(ledger.owner());
      if (beside.isEmpty()) {
        assertFalse(Shell.run(List.of("tc", "qdisc", "show", "dev", "lo")).out().contains("fb:"), "the root gone with the last");
      }
    }
  }

  @Test
  void bandwidthCapHoldsWithinTwentyPercentAndSparesOtherPorts() throws Exception {
    try (ServerSocket capped = Firehose.start(); ServerSocket free = Firehose.start()) {
      long cap = 1_000_000;
      Installed shaping = TrafficControl.loopback(ledger).cap(List.of(capped.getLocalPort()), cap);
      double got = throughput(capped.getLocalPort(), Duration.ofSeconds(3));
      double other = throughput(free.getLocalPort(), Duration.ofSeconds(1));
      assertTrue(Math.abs(got - cap) <= 0.2 * cap, "capped port delivered " + got + " B/s for a cap of " + cap);
      assertTrue(other > 20 * cap, "other port delivered " + other + " B/s");
      shaping.heal();
      assertTrue(throughput(capped.getLocalPort(), Duration.ofSeconds(1)) > 20 * cap, "cap gone after heal");
    }
  }

  @Test
  void latencySaysClearlyWhenTheKernelCannotDoIt() throws Exception {
    List<String> problems = TrafficControl.latencyProblems();
    if (!problems.isEmpty()) {
      PreconditionFailed e = assertThrows(PreconditionFailed.class,
          () -> TrafficControl.loopback(ledger).delay(List.of(closedPort()), Duration.ofMillis(50), Duration.ZERO, 0));
      assertTrue(e.getMessage().contains("netem"), e.getMessage());
      assumeTrue(false, "kernel has no netem: " + problems.get(0));
    }
    try (ServerSocket server = new ServerSocket(0)) {
      int port = server.getLocalPort();
      long before = connectMillis(port);
      Installed delay = TrafficControl.loopback(ledger).delay(List.of(port), Duration.ofMillis(100), Duration.ZERO, 0);
      long with = connectMillis(port);
      delay.heal();
      // a connect is one round trip: SYN to the port and SYN-ACK from it, each delayed once
      assertTrue(Math.abs((with - before) - 200) <= 40, "connect took " + with + " ms vs " + before + " ms");
    }
  }

  private static long connectMillis(int port) throws IOException {
    long t0 = System.nanoTime();
    assertEquals("connected", connect(port));
    return (System.nanoTime() - t0) / 1_000_000;
  }

  /** CPU seconds used by these processes so far (utime + stime from /proc, clock ticks of 1/100 s). */
  private static double cpuSeconds(Set<Long> pids) {
    double total = 0;
    for (long pid : pids) {
      try {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        total += (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
      } catch (IOException gone) {
        // exited
      }
    }
    return total;
  }

  private static double cpuShareOver(Cgroup g, Duration d) throws InterruptedException {
    Set<Long> pids = g.pids();
    double before = cpuSeconds(pids);
    Thread.sleep(d.toMillis()); // measuring a rate over a fixed window, not waiting for a state
    return (cpuSeconds(pids) - before) / (d.toMillis() / 1000.0);
  }

  @Test
  void cpuHogsBurnCpuInTheNodesGroupAndAreGoneAfterHeal() throws Exception {
    Installed hogs = Load.cpuSpinners(node, 2);
    Cgroup group = node.child(childOf(node, "hog-"));
    Set<Long> pids = group.pids();
    assertEquals(2, pids.size());
    double share = cpuShareOver(group, Duration.ofSeconds(2));
    // on a quiet machine two spinners take close to two cores; under load, still a measurable share
    assertTrue(share > 0.1, "two spinners used " + share + " cores");
    hogs.heal();
    for (long pid : pids) {
      Awaitility.await().atMost(Duration.ofSeconds(2)).until(() -> ProcessHandle.of(pid).isEmpty());
    }
    assertFalse(group.exists());
  }

  @Test
  void slowNodeCpuQuotaHoldsWithinTwentyPercent() throws Exception {
    Installed limits = NodeLimits.apply(node, 0.25, null, null, List.of());
    Installed hogs = Load.cpuSpinners(node, 1);
    Cgroup group = node.child(childOf(node, "hog-"));
    double share = cpuShareOver(group, Duration.ofSeconds(3));
    hogs.heal();
    limits.heal();
    assertTrue(Math.abs(share - 0.25) <= 0.05, "quota 0.25 cores, used " + share);
    assertEquals(null, node.cpuLimit());
  }

  /**
   * Eight spinners leave a task beside them about a ninth of the node, as eight processes on a
   * machine would; as one group of one thread's weight they would leave it about half.
   */
  @Test
  void spinnersWeighAsManyThreadsAsTheyRunAgainstTheNodesTasks() throws Exception {
    Cgroup machine = node.child("node-0").create();
    Installed limits = NodeLimits.apply(machine, 0.5, null, null, List.of());
    Process task = machine.spawn(List.of("awk", "BEGIN { for (;;) x++ }"));
    try {
      Installed hogs = Load.cpuSpinners(machine, 8);
      Cgroup group = machine.child(childOf(machine, "hog-"));
      Set<Long> taskPid = Set.of(task.pid());
      Thread.sleep(1000); // the scheduler spreads the nine threads over the cores before the window
      double before = cpuSeconds(taskPid);
      double hogShare = cpuShareOver(group, Duration.ofSeconds(4));
      double taskShare = (cpuSeconds(taskPid) - before) / 4.0;
      hogs.heal();
      limits.heal();
      assertTrue(task.isAlive(), "the task ran throughout");
      double taskFraction = taskShare / (taskShare + hogShare);
      assertTrue(taskFraction < 0.25, "the task took " + taskFraction + " of the node's CPU beside 8 spinners ("
          + taskShare + " against " + hogShare + " cores)");
      assertTrue(taskShare > 0, "the task still ran: " + taskShare + " against " + hogShare);
    } finally {
      task.destroyForcibly().waitFor();
    }
  }

  @Test
  void frozenNodeMakesNoProgressUntilThawed() throws Exception {
    Load.cpuSpinners(node, 1);
    Cgroup group = node.child(childOf(node, "hog-"));
    node.freeze();
    assertTrue(cpuShareOver(group, Duration.ofSeconds(1)) < 0.02, "frozen spinner used CPU");
    node.thaw();
    assertTrue(cpuShareOver(group, Duration.ofSeconds(1)) > 0.3, "thawed spinner runs again");
  }

  @Test
  void diskWritersWriteRealBytesAndLeaveNothingAfterHeal(@TempDir Path dir) throws Exception {
    Installed dd = Load.diskWriters(ledger, "run-1", node, List.of(dir), 2, 1 << 20, 16L << 20, true);
    Cgroup group = node.child(childOf(node, "dd-"));
    Awaitility.await("dd writes").atMost(Duration.ofSeconds(10))
        .until(() -> writtenBytes(group, dir) > (16L << 20));
    dd.heal();
    assertFalse(group.exists());
    try (var files = Files.list(dir)) {
      assertEquals(List.of(), files.toList(), "dd files removed");
    }
    assertTrue(ProcessHandle.allProcesses().noneMatch(p -> p.info().commandLine().orElse("").contains(dir.toString())));
  }

  @Test
  void diskThrottleHoldsWithinTwentyPercent(@TempDir Path dir) throws Exception {
    long rate = 8L << 20;
    Installed limits = NodeLimits.apply(node, null, null, rate, List.of(dir));
    Load.diskWriters(ledger, "run-1", node, List.of(dir), 1, 1 << 20, 256L << 20, true);
    Cgroup group = node.child(childOf(node, "dd-"));
    Thread.sleep(500); // let the first bursts pass
    long b0 = writtenBytes(group, dir);
    long t0 = System.nanoTime();
    Thread.sleep(3000); // measuring a rate over a fixed window
    double got = (writtenBytes(group, dir) - b0) / ((System.nanoTime() - t0) / 1e9);
    limits.heal();
    assertTrue(Math.abs(got - rate) <= 0.2 * rate, "throttle " + rate + " B/s, wrote " + got + " B/s");
  }

  private static long writtenBytes(Cgroup g, Path dir) {
    return g.ioBytes(NodeLimits.devicesOf(List.of(dir)).iterator().next())[1];
  }

  private static String childOf(Cgroup g, String prefix) throws IOException {
    try (var s = Files.list(g.tasksDir())) {
      return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix))
          .findFirst().orElseThrow();
    }
  }
}
