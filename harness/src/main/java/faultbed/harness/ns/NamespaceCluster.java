package faultbed.harness.ns;

import faultbed.faults.Cgroup;
import faultbed.faults.DirectoryHealer;
import faultbed.faults.Capability;
import faultbed.faults.Ledger;
import faultbed.faults.LedgerEntry;
import faultbed.faults.NodeNetwork;
import faultbed.faults.PreconditionFailed;
import faultbed.harness.Cluster;
import faultbed.harness.ClusterDefaults;
import faultbed.harness.ClusterSpec;
import faultbed.harness.HarnessException;
import faultbed.harness.RunSpec;
import faultbed.harness.mini.ResourceTrackerLink;
import faultbed.harness.ns.NamespaceNode.Generation;
import faultbed.harness.observe.RunExecutor;
import faultbed.harness.observe.RunListener;
import faultbed.harness.timeline.FaultContext;
import faultbed.results.RunRecord;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.awaitility.Awaitility;

/**
 * The namespace backend: every worker node a process tree of its own (a DataNode and a
 * NodeManager in one JVM, its containers as children) in its own network namespace, address and
 * cgroup, on a bridge of the harness's own (see {@link NodeNetwork}). The NameNode,
 * ResourceManager and JobHistory server run in the harness JVM, bound to the bridge address. A
 * node dies, stalls and drops off the network the way a machine does: a crash kills its whole
 * process tree, a whole-node failure pulls its link, a freeze stops its NodeManager too.
 */
public final class NamespaceCluster implements Cluster {
  private static final Duration NODE_START = Duration.ofSeconds(120);
  /** The same opens the harness runs with: the NodeManager's web app and Guice need them. */
  private static final List<String> OPENS = List.of("java.lang", "java.util", "java.util.concurrent",
      "java.net", "java.io", "sun.nio.ch", "java.lang.reflect");

  private final ClusterSpec spec;
  private final Ledger ledger;
  private final Path workDir;
  private final NodeNetwork network;
  private final NameNode nameNode;
  private final MiniMRYarnCluster yarn;
  private final ResourceTrackerLink rmLink;
  private final Configuration client;
  private final List<NamespaceNode> nodes = new ArrayList<>();
  private volatile RunListener listener = RunListener.NONE;
  private boolean closed;

  private NamespaceCluster(ClusterSpec spec, Ledger ledger, Path workDir, NodeNetwork network) throws IOException {
    this.spec = spec;
    this.ledger = ledger;
    this.workDir = workDir;
    this.network = network;
    String host = network.hostAddress();
    // the NameNode and the YARN daemons each register JVM-wide metrics sources
    org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.setMiniClusterMode(true);

    Configuration conf = new HdfsConfiguration();
    int nnPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host))) {
      nnPort = s.getLocalPort();
    }
    conf.set("fs.defaultFS", "hdfs://" + host + ":" + nnPort);
    conf.set("dfs.namenode.rpc-address", host + ":" + nnPort);
    conf.set("dfs.namenode.http-address", host + ":0");
    conf.set("dfs.namenode.name.dir", workDir.resolve("namenode").toString());
    conf.setBoolean("dfs.namenode.datanode.registration.ip-hostname-check", false);
    conf.setInt("dfs.namenode.safemode.extension", 0);
    // Hadoop's default where a node can take its DataNode down with it: no block lives only there
    conf.setInt("dfs.replication", Math.min(3, spec.nodes()));
    ClusterDefaults.apply(conf, spec, workDir);
    NameNode.format(conf);
    nameNode = NameNode.createNameNode(new String[0], conf);

    Configuration yarnConf = new YarnConfiguration(conf);
    yarnConf.set(YarnConfiguration.RM_BIND_HOST, host);
    yarnConf.set("mapreduce.jobhistory.bind-host", host);
    // the RM's node-attribute store would write to HDFS before any DataNode is there
    yarnConf.set("yarn.node-attribute.fs-store.root-dir", workDir.resolve("node-attributes").toUri().toString());
    System.setProperty("test.build.data", workDir.resolve("yarn").toString());
    yarn = new MiniMRYarnCluster("faultbed", 0);
    yarn.init(yarnConf);
    yarn.start();
    rmLink = new ResourceTrackerLink(yarn.getResourceManager());
    client = reachableFrom(yarn.getConfig(), host);
    String tracker = client.get(YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS);
    String trackerPort = tracker.substring(tracker.lastIndexOf(':') + 1);

    List<NamespaceNode> starting = new ArrayList<>();
    for (int i = 0; i < spec.nodes(); i++) {
      NamespaceNode node = new NamespaceNode(i, network, network.add(i), trackerPort);
      node.begin(launch(node, 0));
      starting.add(node);
    }
    for (NamespaceNode node : starting) {
      awaitServing(node);
      nodes.add(node);
    }
  }

  /**
   * Starts a cluster. Before anything else it heals what dead faultbed processes left on this
   * machine (node processes, namespaces, links, cgroups, folders) and reports each item to
   * {@code log}.
   */
  public static NamespaceCluster start(ClusterSpec spec, Consumer<String> log) {
    List<String> problems = new ArrayList<>(Capability.NETNS.problems());
    problems.addAll(Capability.IPTABLES.problems()); // heartbeat pauses and RST rules live in the node's namespace
    if (faultbed.faults.CgroupLayout.current().tasks() == faultbed.faults.CgroupLayout.Mechanism.SIGNALS) {
      problems.add("the namespace backend holds each node in a cgroup: " + faultbed.faults.CgroupLayout.current().problems().get(0));
    }
    if (!problems.isEmpty()) {
      throw new PreconditionFailed(problems.get(0));
    }
    if (spec.network().isToxiproxy()) {
      throw new PreconditionFailed("cluster.network: the namespace backend makes network faults on each"
          + " node's own link; \"toxiproxy\" goes with the mini backend");
    }
    for (String healed : Ledger.healOrphans()) {
      log.accept("healed leftover: " + healed);
    }
    Ledger ledger = Ledger.open();
    Path work = Path.of(System.getProperty("faultbed.work.dir", "/var/tmp/faultbed")).resolve(ledger.owner());
    NodeNetwork network = null;
    try {
      Files.createDirectories(work);
      ledger.record(DirectoryHealer.entry(work, "cluster"));
      ledger.record(LedgerEntry.cgroup(Cgroup.of(ledger.owner()).create(), "cluster"));
      network = NodeNetwork.create(ledger);
      return new NamespaceCluster(spec, ledger, work, network);
    } catch (IOException e) {
      killNodes(ledger);
      ledger.close();
      throw new UncheckedIOException("cannot start the namespace cluster in " + work, e);
    } catch (RuntimeException e) {
      killNodes(ledger);
      ledger.close();
      throw e;
    }
  }

  /** Node processes started before a failed start: ledger.close() heals their cgroups and namespaces. */
  private static void killNodes(Ledger ledger) {
    Cgroup.of(ledger.owner()).killAll(Duration.ofSeconds(10));
  }

  /**
   * The daemons' configuration with every address they bound on loopback (or every interface)
   * given as the bridge address: what nodes and the harness's own clients connect to.
   */
  private static Configuration reachableFrom(Configuration conf, String host) {
    Configuration c = new Configuration(conf);
    List<String> local = List.of("localhost:", "127.0.0.1:", "0.0.0.0:", MiniYARNCluster.getHostname() + ":");
    for (Map.Entry<String, String> e : conf) {
      String v = e.getValue();
      if (v != null && local.stream().anyMatch(v::startsWith)) {
        c.set(e.getKey(), host + v.substring(v.indexOf(':')));
      }
    }
    return c;
  }

  /** Starts a node process in the node's namespace and a fresh cgroup, from a site file of its own. */
  private Generation launch(NamespaceNode node, int number) {
    String a = node.address();
    int i = node.index();
    Path home = workDir.resolve("nodes").resolve("node-" + i);
    Path dir = home.resolve("g" + number);
    try {
      Files.createDirectories(dir.resolve("local"));
      Files.createDirectories(dir.resolve("logs"));
      Configuration c = new Configuration(client);
      // the DataNode's blocks outlive a generation, as a crashed machine's disk does
      c.set("dfs.datanode.data.dir", home.resolve("data").toString());
      c.set("dfs.datanode.address", a + ":0");
      c.set("dfs.datanode.http.address", a + ":0");
      c.set("dfs.datanode.ipc.address", a + ":0");
      c.set("dfs.datanode.hostname", a);
      c.set("yarn.nodemanager.hostname", a);
      c.set(YarnConfiguration.NM_ADDRESS, a + ":0");
      c.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, a + ":0");
      c.set(YarnConfiguration.NM_WEBAPP_ADDRESS, a + ":0");
      c.set(YarnConfiguration.NM_COLLECTOR_SERVICE_ADDRESS, a + ":0");
      c.set(YarnConfiguration.NM_LOCAL_DIRS, dir.resolve("local").toString());
      c.set(YarnConfiguration.NM_LOG_DIRS, dir.resolve("logs").toString());
      c.setInt(YarnConfiguration.NM_PMEM_MB, spec.nodeMemoryMb());
      c.setInt(YarnConfiguration.NM_VCORES, spec.nodeVcores());
      c.setBoolean(YarnConfiguration.NM_ENABLE_HARDWARE_CAPABILITY_DETECTION, false);
      c.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
      c.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
      c.set(YarnConfiguration.NM_AUX_SERVICES, "mapreduce_shuffle");
      c.set("yarn.nodemanager.aux-services.mapreduce_shuffle.class", "org.apache.hadoop.mapred.ShuffleHandler");
      c.setInt("mapreduce.shuffle.port", 0);
      c.set(YarnConfiguration.NM_CONTAINER_EXECUTOR,
          "org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor");
      try (var out = new FileOutputStream(dir.resolve(NodeProcess.SITE).toFile())) {
        c.writeXml(out);
      }
      Cgroup group = Cgroup.of(ledger.owner() + "/node-" + i + "-g" + number).create();
      Path status = dir.resolve("status");
      List<String> java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx384m", "-XX:+UseSerialGC"));
      for (String pkg : OPENS) {
        java.addAll(List.of("--add-opens", "java.base/" + pkg + "=ALL-UNNAMED"));
      }
      java.addAll(List.of("-cp", System.getProperty("java.class.path"), NodeProcess.class.getName(),
          dir.toString(), status.toString()));
      String cmd = "exec " + String.join(" ", java.stream().map(NamespaceCluster::quote).toList())
          + " > " + quote(dir.resolve("node.log").toString()) + " 2>&1";
      Process p = group.spawn(NodeNetwork.inside(node.namespace(), List.of("sh", "-c", cmd)));
      return new Generation(number, group, dir, p, null);
    } catch (IOException e) {
      throw new HarnessException("cannot start node " + i, e);
    }
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  /** Waits for the node's status file, then for the RM and the NameNode to see it. */
  private void awaitServing(NamespaceNode node) {
    Generation g = node.generation();
    Path status = g.dir().resolve("status");
    try {
      Awaitility.await("node " + node.index() + " serving").atMost(NODE_START)
          .pollInterval(Duration.ofMillis(100))
          .until(() -> {
            if (!g.process().isAlive()) {
              throw new HarnessException("node " + node.index() + " process exited with "
                  + g.process().exitValue() + "; its log: " + g.dir().resolve("node.log"));
            }
            return Files.exists(status);
          });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new HarnessException("node " + node.index() + " did not start within " + NODE_START
          + "; its log: " + g.dir().resolve("node.log"), e);
    }
    node.begin(new Generation(g.number(), g.group(), g.dir(), g.process(), NamespaceNode.readStatus(status)));
    NodeId id = NodeId.fromString(node.nodeId());
    String dn = node.dataNodeAddress();
    Awaitility.await("node " + node.index() + " registered").atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> rmLink.runningAndIdle(id) && dataNodeLive(dn));
  }

  private boolean dataNodeLive(String xferAddr) throws IOException {
    for (var d : nameNode.getNamesystem().getBlockManager().getDatanodeManager().getDatanodeListForReport(DatanodeReportType.LIVE)) {
      if (d.getXferAddr().equals(xferAddr)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public Cluster listen(RunListener l) {
    this.listener = l == null ? RunListener.NONE : l;
    return this;
  }

  public String owner() {
    return ledger.owner();
  }

  public NodeNetwork network() {
    return network;
  }

  @Override
  public ClusterSpec spec() {
    return spec;
  }

  @Override
  public List<NamespaceNode> nodes() {
    return Collections.unmodifiableList(nodes);
  }

  @Override
  public Configuration configuration() {
    return new Configuration(client);
  }

  @Override
  public Path stateDir() {
    return workDir.resolve("state");
  }

  @Override
  public Map<String, String> nodeStates() {
    return rmLink.nodeStates();
  }

  @Override
  public String applicationState(String applicationId) {
    return rmLink.applicationState(applicationId);
  }

  @Override
  public FaultContext faultContext(String runId) {
    return new FaultContext(runId, ledger, node -> network.faults(((NamespaceNode) node).namespace()));
  }

  @Override
  public RunRecord.ClusterInfo info() {
    return new RunRecord.ClusterInfo("namespace", spec.nodes(), spec.nodeMemoryMb(), spec.nodeVcores());
  }

  @Override
  public RunRecord run(RunSpec run) {
    return new RunExecutor(this, listener).execute(run);
  }

  /**
   * Brings every node that is down back as a new generation in its namespace (plugged in, no
   * rules; the RM made to forget the dead NodeId first), kills containers left from the last run
   * on live nodes, and waits until the RM sees all nodes RUNNING with nothing allocated.
   */
  @Override
  public void reset() {
    List<NamespaceNode> restarted = new ArrayList<>();
    for (NamespaceNode node : nodes) {
      node.resumeHeartbeats();
      Generation g = node.generation();
      if (node.isUp()) {
        long self = node.pid();
        for (long p : g.group().pids()) {
          if (p != self) {
            ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly);
          }
        }
        continue;
      }
      NodeId old = NodeId.fromString(node.nodeId());
      if ("RUNNING".equals(nodeStates().get(old.toString()))) {
        rmLink.expire(old);
      }
      g.group().killAll(Duration.ofSeconds(10));
      network.plug(node.namespace());
      node.begin(launch(node, g.number() + 1));
      restarted.add(node);
    }
    for (NamespaceNode node : restarted) {
      awaitServing(node);
    }
    Awaitility.await("all nodes RUNNING and idle").atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100)).until(() -> nodes.stream().allMatch(n ->
            rmLink.runningAndIdle(NodeId.fromString(n.nodeId())) && n.processes().equals(java.util.Set.of(n.pid()))));
  }

  /** Every node process killed at once (nothing of a run survives), then the daemons, then the ledger heals the rest. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      killNodes(ledger);
      yarn.stop();
      nameNode.stop();
      nameNode.join();
    } finally {
      network.close();
      ledger.close();
    }
  }
}
