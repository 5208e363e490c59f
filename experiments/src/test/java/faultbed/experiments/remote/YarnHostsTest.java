package faultbed.experiments.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.experiments.scenario.InventoryParser;
import faultbed.faults.remote.RemoteHost;
import faultbed.faults.remote.HostLedgers;
import faultbed.faults.remote.RemoteNodeManager;
import faultbed.harness.Inventory;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The remote backend against a real cluster of hosts, as against a user's machines: NodeManagers
 * register from their own addresses; over SSH each worker shows one NodeManager (the host has a
 * process space of its own); rules and frozen trees a harness left behind, its ledger on the host
 * undoes; a dry run lists each host's commands and changes nothing; the quickstart runs with only the
 * inventory added (a crash over SSH, LOST, the NodeManager brought back, the run classified); and
 * what a SIGKILLed harness left on three hosts, the next start heals.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class YarnHostsTest {
  private static final Duration SSH = Duration.ofSeconds(20);
  private static Path dir;
  private static YarnHosts cluster;
  private static Inventory inventory;

  @BeforeAll
  static void cluster() throws Exception {
    List<String> problems = YarnHosts.problems();
    assumeTrue(problems.isEmpty(), () -> "no test cluster of hosts here: " + problems);
    dir = Files.createTempDirectory("yarn-hosts");
    cluster = YarnHosts.start(dir.resolve("hosts"), 3);
    inventory = InventoryParser.parse(cluster.writeInventory(dir.resolve("inventory.json")));
  }

  @AfterAll
  static void stop() {
    if (cluster == null) {
      return;
    }
    cluster.close();
    String hosts = dir.resolve("hosts").toString();
    List<String> left = ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse(""))
        .filter(c -> c.contains(hosts)).toList();
    assertTrue(left.isEmpty(), "daemons or sshd left after close: " + left);
  }

  private static RemoteHost connect(YarnHosts.Host w) {
    return RemoteHost.connect(inventory.worker(w.name()).orElseThrow(), SSH);
  }

  @Test
  @Order(2)
  void eachWorkerShowsItsOwnNodeManagerOverSsh() throws Exception {
    Set<String> addresses = cluster.workers().stream().map(YarnHosts.Host::address).collect(Collectors.toSet());
    assertEquals(addresses, Set.copyOf(cluster.runningNodeManagers()), "each registered from its own address");
    for (YarnHosts.Host w : cluster.workers()) {
      try (RemoteHost host = connect(w)) {
        RemoteNodeManager nm = new RemoteNodeManager(host, HostLedgers.open(host, "test-probe"));
        long pid = nm.pid(); // exactly one on the host, or refused
        assertTrue(nm.tree().get(0) == pid);
        assertTrue(nm.ports().contains(8041), w.name() + ": the container manager's port among " + nm.ports());
        RemoteHost.Result addr = host.probe(List.of("ip", "-4", "-o", "addr", "show", "dev", "eth0"));
        assertTrue(addr.out().contains(w.address() + "/"), w.name() + ": " + addr);
      }
    }
  }

  /**
   * A harness that dies leaves its rules and frozen processes; the next harness to reach the host
   * undoes them from the host's ledger, and a dry run of a fault changes nothing.
   */
  @Test
  @Order(3)
  void whatADeadHarnessLeftOnAHostTheNextOneUndoes() {
    YarnHosts.Host w1 = cluster.workers().get(0);
    String dead = "h1-deadharness";
    try (RemoteHost dry = RemoteHost.dryRun(inventory.worker(w1.name()).orElseThrow(), SSH)) {
      RemoteNodeManager planned = new RemoteNodeManager(dry, HostLedgers.open(dry, dead));
      planned.rules().dropAll("run-000", planned.ports());
      assertFalse(dry.planned().isEmpty());
      assertTrue(dry.planned().stream().anyMatch(c -> c.startsWith("sh -s -- iptables -w -I OUTPUT 1")), dry.planned().toString());
    }
    try (RemoteHost host = connect(w1)) {
      assertFalse(host.probeAsRoot(List.of("iptables", "-w", "-S")).out().contains(dead), "the dry run made no rule");
      RemoteNodeManager nm = new RemoteNodeManager(host, HostLedgers.open(host, dead));
      nm.rules().dropRst("run-001", nm.ports());
      nm.freeze("run-001");
      assertTrue(host.probeAsRoot(List.of("iptables", "-w", "-S")).out().contains(dead));
      assertEquals("T", state(host, nm.pid()), "the NodeManager is stopped");
      // the harness "dies" here: nothing healed; the next one heals every ledger but its own
      List<String> healed = HostLedgers.healOrphans(host, Set.of("h2-liveharness"));
      assertFalse(healed.isEmpty());
      assertFalse(host.probeAsRoot(List.of("iptables", "-w", "-S")).out().contains(dead), "rules left: " + healed);
      assertFalse(state(host, nm.pid()).startsWith("T"), "still stopped after healing: " + healed);
      assertEquals(List.of(), HostLedgers.healOrphans(host, Set.of()), "nothing left to heal");
    }
  }

  private static String state(RemoteHost host, long pid) {
    return host.probe(List.of("ps", "-o", "stat=", "-p", Long.toString(pid))).out().strip().substring(0, 1);
  }

  /**
   * The quickstart, with nothing changed but the inventory on the command line: its crash is made
   * over SSH on one of the workers, the ResourceManager declares that NodeManager LOST, the record
   * places every attempt on a worker, the run is classified as on the local backends, and the
   * harness leaves nothing on any host.
   */
  @Test
  @Order(6)
  @Tag("extended") // the remote backend's jobs and faults over SSH stay in the test command: see ci/extended
  void theQuickstartRunsOnTheHostsWithOnlyTheInventoryChanged() throws Exception {
    Path out = dir.resolve("quickstart");
    StringWriter err = new StringWriter();
    String inv = dir.resolve("inventory.json").toString();
    assertEquals(2, FaultbedCli.execute(new PrintWriter(System.out, true), new PrintWriter(err, true), "run",
        "scenarios/quickstart.json", "--inventory", inv, "--confirm-hosts", "w1,w2", "--out", out.toString()));
    assertTrue(err.toString().contains("--confirm-hosts w1,w2,w3"), err.toString());
    assertFalse(Files.exists(out), "a refused run starts nothing");
    err.getBuffer().setLength(0);
    int code = FaultbedCli.execute(new PrintWriter(System.out, true), new PrintWriter(err, true), "run",
        "scenarios/quickstart.json", "--inventory", inv, "--confirm-hosts", "w1,w2,w3", "--runs", "1",
        "--out", out.toString());
    assertEquals(0, code, err.toString());
    List<RunRecord> records = new RecordStore(out).readAll();
    assertEquals(List.of("baseline", "crash"), records.stream().map(RunRecord::variant).sorted().toList());
    for (RunRecord r : records) {
      assertEquals("SUCCEEDED", r.job().state(), r.runId() + ": " + r.notes());
      assertEquals(3, r.cluster().nodes(), "the inventory's workers are the nodes");
      assertTrue(r.attempts().stream().allMatch(a -> a.node() != null), r.runId() + ": an attempt on no worker");
    }
    RunRecord crash = records.stream().filter(r -> r.variant().equals("crash")).findFirst().orElseThrow();
    var fault = crash.faults().get(0);
    assertNotNull(fault.injectedMs(), crash.notes().toString());
    assertTrue(crash.nodeTransitions().stream().anyMatch(t -> t.node() == fault.node() && t.to().equals("LOST")),
        "the crashed NodeManager went LOST: " + crash.nodeTransitions());
    RunRecord baseline = records.stream().filter(r -> r.variant().equals("baseline")).findFirst().orElseThrow();
    if (baseline.startedAt().compareTo(crash.startedAt()) > 0) { // the reset between them brought it back
      assertEquals(crash.nodes().get(fault.node()).nodeId(), baseline.nodes().get(fault.node()).nodeId());
      assertEquals(Set.copyOf(cluster.workers().stream().map(YarnHosts.Host::address).toList()),
          Set.copyOf(cluster.runningNodeManagers()), "the inventory's command brought the crashed NodeManager back");
    }

    assertTrue(crash.nodes().stream().allMatch(n -> n.clock() != null && n.clock().roundTripMs() < 1000),
        "every host's clock measured: " + crash.nodes());

    StringWriter classified = new StringWriter();
    assertEquals(0, FaultbedCli.execute(new PrintWriter(classified, true), new PrintWriter(err, true), "classify",
        out.toString()), err.toString());
    System.out.println(classified);
    assertTrue(classified.toString().contains(crash.runId()), classified.toString());
    assertNothingLeft();

    // the baseline's container logs, still on the hosts (no NodeManager restarted since: one that
    // starts without recovery deletes every log folder it finds), come to the nodes' local folders
    String app = baseline.job().jobId().replace("job_", "application_");
    try (var again = faultbed.harness.Clusters.start(faultbed.harness.ClusterSpec.defaults().withInventory(inventory),
        line -> { })) {
      again.gatherLogs(app);
      long syslogs = 0;
      for (var n : again.nodes()) {
        for (String d : n.logDirs()) {
          Path appDir = Path.of(d, app);
          if (Files.isDirectory(appDir)) {
            try (var files = Files.walk(appDir)) {
              syslogs += files.filter(f -> f.getFileName().toString().equals("syslog")).count();
            }
          }
        }
      }
      assertTrue(syslogs >= 11, "the AM's and 10 tasks' logs (8 maps, 2 reduces) at least: " + syslogs);
    }
  }

  /** No rule, stopped process or unhealed ledger of any harness on any worker. */
  private static void assertNothingLeft() {
    for (YarnHosts.Host w : cluster.workers()) {
      try (RemoteHost host = connect(w)) {
        assertFalse(host.probeAsRoot(List.of("iptables", "-w", "-S")).out().contains("faultbed"), w.name() + ": rules left");
        assertEquals("", host.probe(List.of("sh", "-c", "cat ~/.faultbed/remote-ledger/h*.ledger " + opsLedgers()
            + "h*.ledger 2>/dev/null || true")).out().strip(), w.name() + ": a harness ledger not healed");
        RemoteNodeManager nm = new RemoteNodeManager(host, HostLedgers.open(host, "check"));
        assertFalse(state(host, nm.pid()).startsWith("T"), w.name() + ": the NodeManager is left stopped");
        assertFalse(host.probeAsRoot(List.of("tc", "qdisc", "show", "dev", "eth0")).out().contains("htb fb:"),
            w.name() + ": a qdisc left");
        assertFalse(host.probe(List.of("pgrep", "-f", "[f]aultbed(=|-dd-)")).ok(), w.name() + ": a load process left");
        assertEquals("", host.probe(List.of("find", w.dir().resolve("nm-local").toString(), "-maxdepth", "1", "-name",
            "faultbed-dd-*")).out().strip(), w.name() + ": a dd file left");
      }
    }
  }

  /** The NodeManagers' pids and every host's rules, to see that a dry run changed neither. */
  private static List<String> hostsState() {
    List<String> out = new java.util.ArrayList<>();
    for (YarnHosts.Host w : cluster.workers()) {
      try (RemoteHost host = connect(w)) {
        RemoteNodeManager nm = new RemoteNodeManager(host, HostLedgers.open(host, "check"));
        out.add(w.name() + " " + nm.tree() + " " + state(host, nm.pid()) + " "
            + host.probeAsRoot(List.of("iptables", "-w", "-S")).out()
            + host.probe(List.of("sh", "-c", "ls ~/.faultbed/remote-ledger 2>/dev/null || true")).out());
      }
    }
    return out;
  }

  /**
   * A dry run of the quickstart prints, per host, the crash it would make there, and changes
   * nothing: the same NodeManager processes, no rule, no ledger. One of dinu-ng-quick, whose time
   * scale this cluster's ResourceManager timers do not have, is refused with one line.
   */
  @Test
  @Order(5)
  void aDryRunListsEveryCommandPerHostAndChangesNothing() {
    List<String> before = hostsState();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(0, FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "run",
        "scenarios/quickstart.json", "--inventory", dir.resolve("inventory.json").toString(), "--dry-run"),
        err.toString());
    System.out.println(out);
    for (YarnHosts.Host w : cluster.workers()) { // its section: the crash's ledger entry, then the kill
      String section = out.toString().split("host " + w.name() + ":\n")[1].split("\nhost ")[0];
      assertTrue(section.contains("NodeManager killed (dry-run)") && section.contains("\n  sh -s -- kill -KILL "), section);
    }
    assertEquals(before, hostsState(), "the dry run changed a host");

    // a time-compressed scenario needs the ResourceManager's own timers scaled, which a job cannot do
    err.getBuffer().setLength(0);
    assertEquals(3, FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "run",
        "scenarios/dinu-ng-quick.json", "--inventory", dir.resolve("inventory.json").toString(), "--dry-run"),
        err.toString());
    assertTrue(err.toString().contains("cluster.timeScale 0.05: the ResourceManager's own timers are not scaled")
        && err.toString().contains("yarn.nm.liveness-monitor.expiry-interval-ms 20000 (expected 30000)"), err.toString());
    assertEquals(before, hostsState(), "the refused run changed a host");
  }

  private static final String HELD = """
      { "name": "held", "workload": { "type": "synthetic", "maps": 3, "reduces": 1, "mapTime": "120s", "reduceTime": "1s" },
        "faults": [
          { "kind": "freeze", "node": 0, "at": "1s", "for": "10min" },
          { "kind": "crash", "node": 0, "at": "30s" },
          { "kind": "rst-suppression", "node": 1, "at": "1s", "for": "10min" },
          { "kind": "cpu-hog", "node": 1, "at": "1s", "spinners": 1, "for": "10min" },
          { "kind": "blackhole", "node": 2, "at": "1s", "for": "10min" },
          { "kind": "bandwidth-cap", "node": 2, "at": "1s", "rate": "10MB/s", "for": "10min" },
          { "kind": "disk-load", "node": 2, "at": "1s", "writers": 1, "block": "1MB", "file": "16MB", "for": "10min" } ],
        "runs": 1 }
      """;

  /**
   * A harness SIGKILLed while every kind of remote fault holds (a freeze then a crash on w1, an RST
   * suppression and CPU spinners on w2, a blackhole, a bandwidth cap and dd writers on w3) leaves
   * them there, and its job running; the next start of the remote cluster heals every one (the
   * crashed NodeManager started again, the job killed through the ResourceManager), says so, and
   * leaves nothing on any host: no rule, qdisc, load process or file. The crash comes 29 s after
   * the freeze: under the fixture's load making the freeze over SSH has taken over 2 s, and a crash
   * made first left it no NodeManager to stop.
   */
  @Test
  @Order(7)
  void whatASigkilledHarnessLeftOnTheHostsTheNextStartHeals() throws Exception {
    Path scenario = Files.writeString(dir.resolve("held.json"), HELD);
    // a login whose sudo runs only faultbed's helper and the start commands, where sudo is here
    YarnHosts.Login login = cluster.helperLogin();
    Path inv = login == null ? dir.resolve("inventory.json") : cluster.writeInventory(dir.resolve("inventory-ops.json"), login);
    System.out.println(login == null ? "no sudo here: the harness logs in as root" : "the harness logs in as "
        + login.user() + ", whose sudo runs only " + login.helper() + " and the start commands");
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.io.tmpdir=" + dir, "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        "faultbed.experiments.cli.FaultbedCli", "run", scenario.toString(), "--inventory", inv.toString(),
        "--confirm-hosts", "w1,w2,w3", "--out", dir.resolve("held").toString());
    Process harness = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("held.log").toFile())
        .start();
    String owner = "h" + harness.pid() + "-";
    try {
      Awaitility.await("all three faults in place").atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions().until(() -> !harness.isAlive() || allThreeInPlace(owner));
      assertTrue(harness.isAlive(), () -> "the harness ended early: " + read(dir.resolve("held.log")));
    } finally {
      harness.destroyForcibly(); // SIGKILL: no shutdown hook runs
      harness.waitFor();
    }
    YarnHosts.Host w1 = cluster.workers().get(0);
    try (RemoteHost host = connect(w1)) {
      assertTrue(new RemoteNodeManager(host, HostLedgers.open(host, "c")).processes().stream()
          .noneMatch(p -> p.args().contains("nodemanager.NodeManager")), "the crashed NodeManager stays down");
    }
    Inventory parsed = InventoryParser.parse(inv);
    List<String> said = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (var next = faultbed.harness.Clusters.start(faultbed.harness.ClusterSpec.defaults().withInventory(parsed),
        said::add)) {
      assertEquals(3, next.nodes().size());
    }
    assertTrue(said.stream().filter(l -> l.startsWith("healed leftover on ") && l.contains(owner)).count() >= 3,
        "the start says what it healed: " + said);
    // the job the harness left running on the cluster is killed, not left holding it for minutes
    assertTrue(said.stream().anyMatch(l -> l.startsWith("healed leftover: removed yarn-application application_")
        && l.contains("(killed on http://")), "the start kills the job the dead harness left: " + said);
    assertNothingLeft();
  }

  /**
   * A worker cut off from the master (the ResourceManager's address) by rules in the host's own
   * packet filter, tagged with the harness: from the master's address the worker's container manager
   * answers nothing until the heal, and the rules go with it.
   */
  @Test
  @Order(8)
  void aPartitionFromTheMasterIsMadeInTheWorkersPacketFilterAndHealed() throws Exception {
    try (var c = faultbed.harness.Clusters.start(faultbed.harness.ClusterSpec.defaults().withInventory(inventory),
        line -> { })) {
      var node = c.nodes().get(1);
      var context = c.faultContext("adhoc-cut");
      String master = context.master();
      assertNotNull(master, "the cluster names its master");
      YarnHosts.Host w2 = cluster.workers().get(1);
      faultbed.harness.timeline.Injection cut = faultbed.harness.timeline.Partition.fromMaster(
          faultbed.harness.timeline.Target.node(1), faultbed.harness.timeline.Partition.Direction.BOTH, null)
          .inject(node, context);
      try (RemoteHost host = connect(w2)) {
        String rules = host.probeAsRoot(List.of("iptables", "-w", "-S")).out();
        assertTrue(rules.contains("-s " + master + "/32") && rules.contains("-d " + master + "/32"), rules);
        assertEquals(master, cluster.master().address(), "the master host runs the ResourceManager");
        assertEquals("no answer", reachFrom(cluster.master(), w2.address(), 8041), "the master gets no answer: "
            + cut.detail());
      } finally {
        cut.healer().heal();
      }
      try (RemoteHost host = connect(w2)) {
        assertFalse(host.probeAsRoot(List.of("iptables", "-w", "-S")).out().contains(master + "/32"), "rules gone");
      }
      assertEquals("open", reachFrom(cluster.master(), w2.address(), 8041), "answers again after the heal");
    }
  }

  /** A connect from host {@code from}, in its own network namespace, to {@code address:port}: bash's /dev/tcp, 3 s. */
  private static String reachFrom(YarnHosts.Host from, String address, int port) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(from.enter());
    cmd.addAll(List.of("timeout", "3", "bash", "-c", "exec 3<>/dev/tcp/" + address + "/" + port));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String said = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    int code = p.waitFor();
    return code == 0 ? "open" : code == 124 ? "no answer" : "exit " + code + ": " + said.strip();
  }

  /** Where the helper login's ledgers are on each host (its home is each host's own), as a prefix of file names. */
  private static String opsLedgers() {
    YarnHosts.Login login = cluster.helperLogin();
    return login == null ? "~/.faultbed/remote-ledger/" : login.home() + "/.faultbed/remote-ledger/";
  }

  /** w1's NodeManager frozen then crashed (its ledger says both), and rules of harness {@code owner} on w2 and w3. */
  private static boolean allThreeInPlace(String owner) {
    List<YarnHosts.Host> w = cluster.workers();
    try (RemoteHost w1 = connect(w.get(0)); RemoteHost w2 = connect(w.get(1)); RemoteHost w3 = connect(w.get(2))) {
      String ledger = w1.probe(List.of("sh", "-c", "cat ~/.faultbed/remote-ledger/" + owner + "*.ledger "
          + opsLedgers() + owner + "*.ledger 2>/dev/null")).out();
      return ledger.contains("stopped (") && ledger.contains("NodeManager killed")
          && w1.probe(List.of("pgrep", "-f", "nodemanager[.]NodeManager")).code() == 1
          && w2.probeAsRoot(List.of("iptables", "-w", "-S")).out().contains("faultbed " + owner)
          && w2.probe(List.of("pgrep", "-f", "[f]aultbed=" + owner)).ok()
          && w3.probeAsRoot(List.of("iptables", "-w", "-S")).out().contains("faultbed " + owner)
          && w3.probeAsRoot(List.of("tc", "qdisc", "show", "dev", "eth0")).out().contains("htb fb:")
          && w3.probe(List.of("pgrep", "-f", "[f]aultbed-dd-" + owner)).ok();
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      return e.toString();
    }
  }
}
