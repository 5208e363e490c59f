package faultbed.experiments.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.experiments.scenario.InventoryParser;
import faultbed.faults.remote.RemoteHost;
import faultbed.faults.remote.RemoteLedger;
import faultbed.faults.remote.RemoteNodeManager;
import faultbed.harness.remote.Inventory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.SleepJob;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The remote backend's test cluster is a real one, and faultbed's remote faults act on it as on a
 * user's machines: NodeManagers register from their own addresses; a job submitted with nothing
 * but the client configuration runs on them; over SSH each worker shows one NodeManager (the host
 * has a process space of its own); rules and frozen trees a harness left behind, its ledger on the
 * host undoes; a crash kills the NodeManager's tree and the ResourceManager declares it LOST.
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
  @Order(1)
  void aJobRunsOnTheWorkersWithNothingButTheClientConfiguration() throws Exception {
    Set<String> addresses = cluster.workers().stream().map(YarnHosts.Host::address).collect(Collectors.toSet());
    assertEquals(addresses, Set.copyOf(cluster.runningNodeManagers()));
    Configuration conf = new Configuration();
    for (String f : List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml")) {
      conf.addResource(new org.apache.hadoop.fs.Path(cluster.clientConfig().resolve(f).toUri()));
    }
    SleepJob sleep = new SleepJob();
    sleep.setConf(conf);
    Job job = sleep.createJob(3, 1, 500, 1, 500, 1);
    assertTrue(job.waitForCompletion(false), "the job on the test cluster: " + job.getStatus());
  }

  @Test
  @Order(2)
  void eachWorkerShowsItsOwnNodeManagerOverSsh() {
    for (YarnHosts.Host w : cluster.workers()) {
      try (RemoteHost host = connect(w)) {
        RemoteNodeManager nm = new RemoteNodeManager(host, new RemoteLedger(host, "test-probe"), "test-probe");
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
      new RemoteNodeManager(dry, new RemoteLedger(dry, dead), dead).dropAll("run-000");
      assertFalse(dry.planned().isEmpty());
      assertTrue(dry.planned().stream().anyMatch(c -> c.startsWith("iptables -w -I OUTPUT 1")), dry.planned().toString());
    }
    try (RemoteHost host = connect(w1)) {
      assertFalse(host.probeAsRoot(List.of("iptables", "-w", "-S")).out().contains(dead), "the dry run made no rule");
      RemoteNodeManager nm = new RemoteNodeManager(host, new RemoteLedger(host, dead), dead);
      nm.dropRst("run-001");
      nm.freeze("run-001");
      assertTrue(host.probeAsRoot(List.of("iptables", "-w", "-S")).out().contains(dead));
      assertEquals("T", state(host, nm.pid()), "the NodeManager is stopped");
      // the harness "dies" here: nothing healed; the next one heals every ledger but its own
      List<String> healed = RemoteLedger.healOrphans(host, Set.of("h2-liveharness"));
      assertFalse(healed.isEmpty());
      assertFalse(host.probeAsRoot(List.of("iptables", "-w", "-S")).out().contains(dead), "rules left: " + healed);
      assertFalse(state(host, nm.pid()).startsWith("T"), "still stopped after healing: " + healed);
      assertEquals(List.of(), RemoteLedger.healOrphans(host, Set.of()), "nothing left to heal");
    }
  }

  private static String state(RemoteHost host, long pid) {
    return host.probe(List.of("ps", "-o", "stat=", "-p", Long.toString(pid))).out().strip().substring(0, 1);
  }

  @Test
  @Order(4)
  void aCrashKillsTheNodeManagersTreeAndTheResourceManagerDeclaresItLost() {
    YarnHosts.Host w3 = cluster.workers().get(2);
    try (RemoteHost host = connect(w3)) {
      RemoteNodeManager nm = new RemoteNodeManager(host, new RemoteLedger(host, "test-crash"), "test-crash");
      var detail = nm.crash();
      assertTrue(Integer.parseInt(detail.get("processesKilled")) >= 1, detail.toString());
      assertTrue(nm.processes().stream().noneMatch(p -> p.args().contains("nodemanager.NodeManager")),
          "the NodeManager is gone");
    }
    Awaitility.await("w3 LOST").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
        .until(() -> !cluster.runningNodeManagers().contains(w3.address()));
  }
}
