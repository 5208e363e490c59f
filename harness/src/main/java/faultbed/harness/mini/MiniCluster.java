package faultbed.harness.mini;

import faultbed.faults.Cgroup;
import faultbed.faults.DirectoryHealer;
import faultbed.faults.Ledger;
import faultbed.faults.LedgerEntry;
import faultbed.harness.Cluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.HarnessException;
import faultbed.harness.RunSpec;
import faultbed.harness.observe.RunExecutor;
import faultbed.harness.observe.RunListener;
import faultbed.results.RunRecord;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.awaitility.Awaitility;

/**
 * The in-process backend: MiniDFSCluster plus MiniMRYarnCluster in this JVM, with every container
 * of node i in cgroup {@code faultbed/<owner>/node-i}. Crashed nodes are brought back between runs
 * by a fresh NodeManager in the same slot, which is much faster than rebuilding the cluster (see
 * the benchmarks file).
 */
public final class MiniCluster implements Cluster {
  private final ClusterSpec spec;
  private final Ledger ledger;
  private final Path workDir;
  private final Cgroup instanceGroup;
  private final MiniDFSCluster dfs;
  private final MiniMRYarnCluster mr;
  private final List<MiniNode> nodes = new ArrayList<>();
  private final ResourceTrackerLink rmLink;
  private volatile RunListener listener = RunListener.NONE;
  private final faultbed.faults.NetworkFaults network;
  private final faultbed.faults.Toxiproxy proxies; // null on the kernel backend
  private final String frontsId;
  private boolean closed;

  private MiniCluster(ClusterSpec spec, Ledger ledger, Path workDir) throws IOException {
    this.spec = spec;
    this.ledger = ledger;
    this.workDir = workDir;
    if (spec.network().isToxiproxy()) {
      this.proxies = new faultbed.faults.Toxiproxy(
          faultbed.faults.ToxiproxyServer.open(spec.network().toxiproxyUrl()), ledger);
      this.frontsId = ProxiedShuffleHandler.register(proxies::front);
      this.network = proxies;
    } else {
      this.proxies = null;
      this.frontsId = null;
      this.network = faultbed.faults.NetworkFaults.kernel(new faultbed.faults.Iptables(ledger),
          new faultbed.faults.TrafficControl(ledger));
    }
    this.instanceGroup = Cgroup.of(ledger.owner()).create();
    ledger.record(LedgerEntry.cgroup(instanceGroup, "cluster"));

    Configuration conf = configure(spec, workDir, frontsId);
    dfs = new MiniDFSCluster.Builder(conf, workDir.resolve("dfs").toFile())
        .numDataNodes(spec.nodes()).build();
    dfs.waitActive();
    conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
    System.setProperty("test.build.data", workDir.resolve("yarn").toString());
    mr = new MiniMRYarnCluster("faultbed", spec.nodes());
    mr.init(conf);
    mr.start();
    rmLink = new ResourceTrackerLink(resourceManager());
    for (int i = 0; i < spec.nodes(); i++) {
      Cgroup g = Cgroup.of(ledger.owner() + "/node-" + i).create();
      MiniNode node = new MiniNode(i, g, mr.getNodeManager(i), rmLink, this::shuffleClosed);
      attachExecutor(node, mr.getNodeManager(i));
      nodes.add(node);
    }
  }

  /**
   * Starts a cluster. Before anything else it heals what dead faultbed processes left on this
   * machine (containers in their cgroups, working folders) and reports each item to {@code log}.
   */
  public static MiniCluster start(ClusterSpec spec, Consumer<String> log) {
    for (String healed : Ledger.healOrphans()) {
      log.accept("healed leftover: " + healed);
    }
    Ledger ledger = Ledger.open();
    Path work = workRoot().resolve(ledger.owner());
    try {
      Files.createDirectories(work);
      ledger.record(DirectoryHealer.entry(work, "cluster"));
      return new MiniCluster(spec, ledger, work);
    } catch (IOException e) {
      ledger.close();
      throw new UncheckedIOException("cannot start the mini cluster in " + work, e);
    } catch (RuntimeException e) {
      ledger.close();
      throw e;
    }
  }

  public static MiniCluster start(ClusterSpec spec) {
    return start(spec, line -> System.err.println("faultbed: " + line));
  }

  /** Where cluster working folders go: disk, not tmpfs, since HDFS blocks live there. */
  static Path workRoot() {
    String own = faultbed.faults.Capability.isRoot() ? "faultbed" : "faultbed-" + System.getProperty("user.name");
    return Path.of(System.getProperty("faultbed.work.dir", "/var/tmp/" + own));
  }

  /**
   * faultbed's defaults: small containers so eight fit on two cores, prompt kills on stop, and
   * every setting of the spec on top.
   */
  static Configuration configure(ClusterSpec spec, Path workDir, String frontsId) {
    Map<String, String> pins = new HashMap<>();
    pins.put(YarnConfiguration.NM_CONTAINER_EXECUTOR, NodeContainerExecutor.class.getName());
    if (frontsId != null) {
      // reducers fetch each node's map output through its proxy, which the node advertises
      pins.put(String.format(YarnConfiguration.NM_AUX_SERVICE_FMT, "mapreduce_shuffle"),
          ProxiedShuffleHandler.class.getName());
      pins.put(ProxiedShuffleHandler.FRONTS, frontsId);
    }
    Configuration conf = new PinnedConfiguration(pins);
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, workDir.resolve("dfs").toString());
    conf.setInt("dfs.replication", 1); // a crash here takes no DataNode with it
    // Every NodeManager here is "localhost" and the AM blacklists hosts, not nodes
    // (RMContainerRequestor): three failed attempts anywhere would blacklist the whole cluster
    // until a node is LOST. Off, as if each dead node were a machine of its own; a scenario may
    // turn it back on.
    conf.setBoolean("yarn.app.mapreduce.am.job.node-blacklisting.enable", false);
    faultbed.harness.ClusterDefaults.apply(conf, spec, workDir);
    return conf;
  }

  /** A crashed node's shuffle port refuses; so must the proxy in front of it. */
  private void shuffleClosed(int port) {
    if (proxies != null) {
      proxies.refuse(port);
    }
  }

  /** Containers of this NodeManager join the node's cgroup; its heartbeats pass a gate faults can close. */
  private void attachExecutor(MiniNode node, NodeManager nm) {
    MiniNode.executor(nm).joinOnLaunch(node.group().joinCommand());
    node.gateHeartbeats();
  }

  @Override
  public MiniCluster listen(RunListener l) {
    this.listener = l == null ? RunListener.NONE : l;
    return this;
  }

  public String owner() {
    return ledger.owner();
  }

  public Ledger ledger() {
    return ledger;
  }

  @Override
  public ClusterSpec spec() {
    return spec;
  }

  @Override
  public List<MiniNode> nodes() {
    return Collections.unmodifiableList(nodes);
  }

  @Override
  public Path stateDir() {
    return workDir.resolve("state");
  }

  @Override
  public Configuration configuration() {
    return new Configuration(mr.getConfig());
  }

  public ResourceManager resourceManager() {
    return mr.getResourceManager();
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
  public faultbed.harness.timeline.FaultContext faultContext(String runId) {
    return new faultbed.harness.timeline.FaultContext(runId, ledger, network);
  }

  @Override
  public RunRecord.ClusterInfo info() {
    return new RunRecord.ClusterInfo(proxies == null ? "mini" : "mini+toxiproxy", spec.nodes(), spec.nodeMemoryMb(), spec.nodeVcores());
  }

  @Override
  public RunRecord run(RunSpec run) {
    return new RunExecutor(this, listener).execute(run);
  }

  /**
   * Brings every node that is down back with a fresh NodeManager (the RM is made to forget the
   * dead one first), kills any container left from the last run, and waits until the RM sees all
   * nodes RUNNING with nothing allocated.
   */
  @Override
  public void reset() {
    for (MiniNode node : nodes) {
      if (!node.isUp()) {
        var oldId = node.nodeManager().getNMContext().getNodeId();
        if (NodeState.RUNNING.name().equals(nodeStates().get(oldId.toString()))) {
          rmLink.expire(oldId);
        }
        int generation = node.generation() + 1;
        Cgroup group = Cgroup.of(ledger.owner() + "/node-" + node.index() + "-g" + generation).create();
        int deadShufflePort = node.shufflePort();
        NodeManager fresh = startReplacement(node.index(), generation);
        if (proxies != null) {
          proxies.unfront(deadShufflePort);
        }
        node.replace(fresh, group);
        attachExecutor(node, fresh);
        setNodeManagerSlot(node.index(), fresh);
      }
      node.group().killAll(Duration.ofSeconds(10));
    }
    Awaitility.await("all nodes RUNNING and idle").atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100)).until(this::allNodesRunningAndIdle);
  }

  private boolean allNodesRunningAndIdle() {
    for (MiniNode node : nodes) {
      if (!rmLink.runningAndIdle(node.nodeManager().getNMContext().getNodeId())) {
        return false;
      }
      if (!node.nodeManager().getNMContext().getContainers().isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** A NodeManager built the way MiniYARNCluster builds its own, in-process link to the RM included. */
  private NodeManager startReplacement(int index, int generation) {
    try {
      Class<?> cls = Class.forName(MiniYARNCluster.class.getName() + "$ShortCircuitedNodeManager");
      Constructor<?> ctor = cls.getDeclaredConstructor(MiniYARNCluster.class);
      ctor.setAccessible(true);
      NodeManager nm = (NodeManager) ctor.newInstance(mr);
      Configuration config = new YarnConfiguration(mr.getConfig());
      config.set(YarnConfiguration.NM_LOCAL_DIRS, dirs("local", index, generation, 4));
      config.set(YarnConfiguration.NM_LOG_DIRS, dirs("log", index, generation, 4));
      String host = MiniYARNCluster.getHostname();
      config.set(YarnConfiguration.NM_ADDRESS, host + ":0");
      config.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, host + ":0");
      config.set(YarnConfiguration.NM_WEBAPP_ADDRESS, host + ":0");
      config.set(YarnConfiguration.NM_COLLECTOR_SERVICE_ADDRESS, host + ":0");
      config.setBoolean(YarnConfiguration.NM_ENABLE_HARDWARE_CAPABILITY_DETECTION, false);
      config.setBoolean(YarnConfiguration.NM_CONTAINER_MONITOR_ENABLED, false);
      config.setLong(YarnConfiguration.NM_RESOURCE_MON_INTERVAL_MS, 0);
      config.setInt(YarnConfiguration.NM_PMEM_MB, spec.nodeMemoryMb());
      config.setInt("mapreduce.shuffle.port", 0);
      nm.init(config);
      nm.start();
      return nm;
    } catch (ReflectiveOperationException e) {
      throw new HarnessException("cannot build a replacement NodeManager for node " + index, e);
    }
  }

  private String dirs(String type, int index, int generation, int count) {
    List<String> list = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      File d = workDir.resolve("nodes").resolve("nm-" + index + "-g" + generation + "-" + type + "_" + i).toFile();
      if (!d.mkdirs() && !d.isDirectory()) {
        throw new HarnessException("cannot create " + d);
      }
      list.add(d.getAbsolutePath());
    }
    return String.join(",", list);
  }

  /** So that stopping the MiniYARNCluster stops the replacement too. */
  private void setNodeManagerSlot(int index, NodeManager nm) {
    try {
      Field f = MiniYARNCluster.class.getDeclaredField("nodeManagers");
      f.setAccessible(true);
      ((NodeManager[]) f.get(mr))[index] = nm;
    } catch (ReflectiveOperationException e) {
      throw new HarnessException("cannot register the replacement NodeManager of node " + index, e);
    }
  }

  /**
   * Kills every container first (nothing of a run survives the cluster), stops the NodeManagers
   * in parallel (each waits on its own log handler), then the rest, then heals the ledger.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      for (MiniNode n : nodes) {
        n.group().killAll(Duration.ofSeconds(10));
      }
      CompletableFuture.allOf(nodes.stream()
          .map(n -> CompletableFuture.runAsync(() -> n.nodeManager().stop()))
          .toArray(CompletableFuture[]::new)).join();
      mr.stop();
      dfs.shutdown();
    } finally {
      if (proxies != null) {
        ProxiedShuffleHandler.unregister(frontsId);
        proxies.close();
      }
      ledger.close();
    }
  }
}
