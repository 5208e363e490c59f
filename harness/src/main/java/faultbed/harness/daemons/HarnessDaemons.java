package faultbed.harness.daemons;

import faultbed.faults.NodeClock;
import faultbed.harness.ClusterDefaults;
import faultbed.harness.ClusterSpec;
import faultbed.harness.HarnessException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
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
 * The daemons that stay in the harness JVM when worker nodes are processes of their own: the
 * NameNode, the ResourceManager and the JobHistory server, bound to the one address nodes reach
 * the harness on. Also what every such node is made of: its site file and the command that starts
 * it ({@link NodeProcess}), and the wait until it serves.
 */
public final class HarnessDaemons {
  private static final Duration NODE_START = Duration.ofSeconds(120);
  /**
   * Where a node's shuffle listens when a proxy fronts it, and the proxy: fixed, as each node has
   * an address of its own, so the proxy is made before the node starts and the node is told its
   * port (Hadoop's default shuffle port, and the next).
   */
  public static final int SHUFFLE_PORT = 13562;
  public static final int SHUFFLE_PROXY_PORT = 13563;
  /** The same opens the harness runs with: the NodeManager's web app and Guice need them. */
  private static final List<String> OPENS = List.of("java.lang", "java.util", "java.util.concurrent",
      "java.net", "java.io", "sun.nio.ch", "java.lang.reflect");

  private final ClusterSpec spec;
  private final NameNode nameNode;
  private final MiniMRYarnCluster yarn;
  private final ResourceTrackerLink rm;
  private final Configuration client;
  private final String trackerPort;

  /** Starts the daemons on {@code host}, with their folders under {@code workDir}. */
  public HarnessDaemons(ClusterSpec spec, Path workDir, String host) throws IOException {
    this.spec = spec;
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
    NameNodeCheckpoint.configure(conf);
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
    rm = new ResourceTrackerLink(yarn.getResourceManager());
    client = reachableFrom(yarn.getConfig(), host);
    String tracker = client.get(YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS);
    trackerPort = tracker.substring(tracker.lastIndexOf(':') + 1);
  }

  /**
   * The daemons' configuration with every address they bound on loopback (or every interface)
   * given as {@code host}: what nodes and the harness's own clients connect to.
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

  public ResourceTrackerLink resourceManager() {
    return rm;
  }

  /** The configuration clients submit jobs with. */
  public Configuration client() {
    return new Configuration(client);
  }

  /** The port of the RM's resource tracker: where a node's heartbeats go. */
  public String trackerPort() {
    return trackerPort;
  }

  /**
   * Writes the site file of one generation of a node at {@code address}: its DataNode keeps its
   * blocks in {@code dataDirs} (a crashed machine's disk outlives it), its NodeManager its
   * containers' files in {@code localDirs} and their logs in {@code logDirs}, everything else lives in
   * {@code dir}. With {@code proxiedShuffle}, its shuffle binds {@link #SHUFFLE_PORT} and tells
   * reducers {@link #SHUFFLE_PROXY_PORT}, where a proxy fronts it. With {@code clock}, its containers
   * read the time through it as the node process does.
   */
  public void writeNodeSite(String address, List<Path> dataDirs, List<Path> localDirs, List<Path> logDirs, Path dir,
      boolean proxiedShuffle, Optional<NodeClock> clock) throws IOException {
    String a = address;
    for (Path p : localDirs) {
      Files.createDirectories(p);
    }
    for (Path p : logDirs) {
      Files.createDirectories(p);
    }
    Files.createDirectories(dir.resolve("tmp"));
    Configuration c = new Configuration(client);
    c.set("dfs.datanode.data.dir", joined(dataDirs));
    c.set("dfs.datanode.address", a + ":0");
    c.set("dfs.datanode.http.address", a + ":0");
    c.set("dfs.datanode.ipc.address", a + ":0");
    c.set("dfs.datanode.hostname", a);
    c.set("yarn.nodemanager.hostname", a);
    c.set(YarnConfiguration.NM_ADDRESS, a + ":0");
    c.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, a + ":0");
    c.set(YarnConfiguration.NM_WEBAPP_ADDRESS, a + ":0");
    c.set(YarnConfiguration.NM_COLLECTOR_SERVICE_ADDRESS, a + ":0");
    c.set(YarnConfiguration.NM_LOCAL_DIRS, joined(localDirs));
    c.set(YarnConfiguration.NM_LOG_DIRS, joined(logDirs));
    c.setInt(YarnConfiguration.NM_PMEM_MB, spec.nodeMemoryMb());
    c.setInt(YarnConfiguration.NM_VCORES, spec.nodeVcores());
    c.setBoolean(YarnConfiguration.NM_ENABLE_HARDWARE_CAPABILITY_DETECTION, false);
    c.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    c.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    // the bandwidth probe stays idle until an ApplicationMaster placing maps by bandwidth asks it
    c.set(YarnConfiguration.NM_AUX_SERVICES, "mapreduce_shuffle," + BandwidthProbe.NAME);
    c.set("yarn.nodemanager.aux-services." + BandwidthProbe.NAME + ".class", BandwidthProbe.class.getName());
    if (proxiedShuffle) {
      c.set("yarn.nodemanager.aux-services.mapreduce_shuffle.class", ProxiedShuffleHandler.class.getName());
      c.setInt("mapreduce.shuffle.port", SHUFFLE_PORT);
      c.setInt(ProxiedShuffleHandler.ADVERTISED, SHUFFLE_PROXY_PORT);
    } else {
      c.set("yarn.nodemanager.aux-services.mapreduce_shuffle.class", "org.apache.hadoop.mapred.ShuffleHandler");
      c.setInt("mapreduce.shuffle.port", 0);
    }
    // Hadoop's default executor, which holds a job's containers to their CPU share when the job asks
    c.set(YarnConfiguration.NM_CONTAINER_EXECUTOR, StrictCpuExecutor.class.getName());
    if (clock.isPresent()) {
      // the container executor starts containers with an environment of the NodeManager's making, not its own
      List<String> env = new ArrayList<>(List.of(c.get("yarn.nodemanager.admin-env", "").split(",")));
      env.removeIf(String::isBlank);
      clock.get().environment().forEach((k, v) -> env.add(k + "=" + v));
      c.set("yarn.nodemanager.admin-env", String.join(",", env));
    }
    try (var out = new FileOutputStream(dir.resolve(NodeProcess.SITE).toFile())) {
      c.writeXml(out);
    }
  }

  private static String joined(List<Path> dirs) {
    return String.join(",", dirs.stream().map(Path::toString).toList());
  }

  /**
   * The shell command that runs a node process from {@code dir} with the harness's classpath,
   * {@code java} being the Java launcher where it runs; its output goes to {@code dir/node.log}.
   */
  public static List<String> nodeCommand(String java, Path dir) {
    return nodeCommand(java, dir, Optional.empty());
  }

  /** The same, its process (and so its containers) reading the time of day through {@code clock}. */
  public static List<String> nodeCommand(String java, Path dir, Optional<NodeClock> clock) {
    // Jetty unpacks the web apps of the NodeManager and DataNode under java.io.tmpdir and cannot
    // remove them when the node is killed: in the node's folder they go with the cluster's
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx384m", "-XX:+UseSerialGC",
        "-Djava.io.tmpdir=" + dir.resolve("tmp")));
    for (String pkg : OPENS) {
      cmd.addAll(List.of("--add-opens", "java.base/" + pkg + "=ALL-UNNAMED"));
    }
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), NodeProcess.class.getName(),
        dir.toString(), statusFile(dir).toString()));
    clock.ifPresent(c -> cmd.add(1, c.javaOption()));
    String line = "exec " + String.join(" ", cmd.stream().map(HarnessDaemons::quote).toList())
        + " > " + quote(dir.resolve("node.log").toString()) + " 2>&1";
    return List.of("sh", "-c", line);
  }

  public static Path statusFile(Path dir) {
    return dir.resolve("status");
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  /**
   * Waits for the status file of the node process in {@code dir} (failing at once if
   * {@code alive} turns false), then for the RM and the NameNode to see it.
   */
  public NodeStatus awaitServing(String what, Path dir, BooleanSupplier alive, Supplier<String> exit) {
    Path status = statusFile(dir);
    try {
      Awaitility.await(what + " serving").atMost(NODE_START).pollInterval(Duration.ofMillis(100))
          .until(() -> {
            if (!alive.getAsBoolean()) {
              throw new HarnessException(what + " process exited" + exit.get() + "; its log: " + dir.resolve("node.log"));
            }
            return Files.exists(status);
          });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new HarnessException(what + " did not start within " + NODE_START + "; its log: " + dir.resolve("node.log"), e);
    }
    NodeStatus s = NodeStatus.read(status);
    NodeId id = NodeId.fromString(s.nodeId());
    String host = id.getHost();
    String dn = host + ":" + s.port("dnXferPort");
    Awaitility.await(what + " registered").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> rm.runningAndIdle(id) && dataNodeLive(dn));
    return s;
  }

  /** The NameNode's slow-peer and slow-disk reports (null each where that detection is off). */
  public faultbed.harness.observe.SlowReportWatcher.Reports slowReports() {
    return new faultbed.harness.observe.SlowReportWatcher.Reports(nameNode.getSlowPeersReport(),
        nameNode.getSlowDisksReport());
  }

  /** How many DataNodes the NameNode counts live now. */
  public int liveDataNodes() {
    return nameNode.getNamesystem().getNumLiveDataNodes();
  }

  private boolean dataNodeLive(String xferAddr) throws IOException {
    for (var d : nameNode.getNamesystem().getBlockManager().getDatanodeManager().getDatanodeListForReport(DatanodeReportType.LIVE)) {
      if (d.getXferAddr().equals(xferAddr)) {
        return true;
      }
    }
    return false;
  }

  public void stop() {
    yarn.stop();
    nameNode.stop();
    nameNode.join();
  }

  /** Checkpoints the NameNode between runs ({@link NameNodeCheckpoint}). */
  public void checkpointNameNode() {
    NameNodeCheckpoint.save(nameNode);
  }
}
