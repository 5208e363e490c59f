package faultbed.harness.mini;

import faultbed.faults.Cgroup;
import faultbed.faults.Ledger;
import faultbed.faults.LedgerEntry;
import faultbed.harness.AbstractCluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.HarnessException;
import faultbed.harness.daemons.ProxiedShuffleHandler;
import faultbed.harness.daemons.ResourceTrackerLink;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
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
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;

/**
 * The in-process backend: MiniDFSCluster plus MiniMRYarnCluster in this JVM, with every container
 * of node i in cgroup {@code faultbed/<owner>/node-i}. Crashed nodes are brought back between runs
 * by a fresh NodeManager in the same slot, which is much faster than rebuilding the cluster (see
 * the benchmarks file).
 */
public final class MiniCluster extends AbstractCluster<MiniNode> {
  private final Cgroup instanceGroup;
  private final MiniDFSCluster dfs;
  private final MiniMRYarnCluster mr;
  private final List<MiniNode> nodes = new ArrayList<>();
  private final faultbed.faults.NetworkFaults network;
  private final faultbed.faults.Toxiproxy proxies; // null on the kernel backend
  private final String frontsId;

  /** Each node's NodeManager bean, unregistered when the NodeManager is replaced or stopped. */
  private final Map<Integer, java.util.Set<javax.management.ObjectName>> beans = new java.util.concurrent.ConcurrentHashMap<>();

  private MiniCluster(ClusterSpec spec, Ledger ledger, Path workDir) throws IOException {
    super(spec, ledger, workDir);
    if (spec.network().isToxiproxy()) {
      this.proxies = new faultbed.faults.Toxiproxy(
          faultbed.faults.ToxiproxyServer.open(spec.network().toxiproxyUrl()), ledger);
      this.frontsId = ProxiedShuffleHandler.register(proxies::front);
      this.network = proxies;
    } else {
      this.proxies = null;
      this.frontsId = null;
      this.network = faultbed.faults.NetworkFaults.kernel(faultbed.faults.Iptables.loopback(ledger),
          faultbed.faults.TrafficControl.loopback(ledger));
    }
    this.instanceGroup = Cgroup.of(ledger.owner()).create();
    ledger.record(LedgerEntry.cgroup(instanceGroup, "cluster"));

    LoopbackServers.install(); // before the NodeManagers' shuffle servers bind
    Configuration conf = configure(spec, workDir, frontsId);
    dfs = new MiniDFSCluster.Builder(conf, workDir.resolve("dfs").toFile())
        .numDataNodes(spec.nodes()).build();
    dfs.waitActive();
    conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
    System.setProperty("test.build.data", workDir.resolve("yarn").toString());
    mr = new MiniMRYarnCluster("faultbed", spec.nodes());
    java.util.Set<javax.management.ObjectName> beansBefore = NodeManagerBeans.present();
    mr.init(conf); // initialises the NodeManagers one after the other, node 0 first
    List<javax.management.ObjectName> nodeBeans = NodeManagerBeans.since(beansBefore);
    if (nodeBeans.size() == spec.nodes()) {
      for (int i = 0; i < spec.nodes(); i++) {
        beans.put(i, java.util.Set.of(nodeBeans.get(i)));
      }
    }
    mr.start();
    ResourceTrackerLink rmLink = new ResourceTrackerLink(resourceManager());
    resourceManagerUp(rmLink);
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
    return start("mini", log, (ledger, work) -> new MiniCluster(spec, ledger, work), ledger -> { });
  }

  public static MiniCluster start(ClusterSpec spec) {
    return start(spec, line -> System.err.println("faultbed: " + line));
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
    faultbed.harness.daemons.NameNodeCheckpoint.configure(conf);
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
    faultbed.harness.daemons.LogDeletions.droppedOnStop(nm);
  }

  @Override
  public List<MiniNode> nodes() {
    return Collections.unmodifiableList(nodes);
  }

  @Override
  public Configuration configuration() {
    Configuration conf = new Configuration(mr.getConfig());
    // MiniMRYarnCluster sets some job settings of its own over what it was given (small jobs never
    // run inside their AM, for one): the scenario's settings are the ones in force
    spec.hadoop().forEach(conf::set);
    return conf;
  }

  public ResourceManager resourceManager() {
    return mr.getResourceManager();
  }

  @Override
  public faultbed.harness.timeline.FaultContext faultContext(String runId) {
    return new faultbed.harness.timeline.FaultContext(runId, ledger, network);
  }

  @Override
  public java.util.Optional<String> partStopped() {
    return proxies == null ? java.util.Optional.empty() : proxies.server().stopped();
  }

  @Override
  protected String backendLabel() {
    return proxies == null ? "mini" : "mini+toxiproxy";
  }

  @Override
  protected void clearContainers(MiniNode node) {
    node.group().killAll(Duration.ofSeconds(10));
  }

  /** A fresh NodeManager in the slot, in a fresh cgroup; the dead one's proxy front goes. */
  @Override
  protected void restart(MiniNode node) {
    int generation = node.generation() + 1;
    Cgroup group = Cgroup.of(ledger.owner() + "/node-" + node.index() + "-g" + generation).create();
    int deadShufflePort = node.shufflePort();
    java.util.Set<javax.management.ObjectName> beansBefore = NodeManagerBeans.all();
    NodeManager fresh = startReplacement(node.index(), generation);
    java.util.Set<javax.management.ObjectName> freshBeans = new java.util.HashSet<>(NodeManagerBeans.all());
    freshBeans.removeAll(beansBefore);
    NodeManagerBeans.unregisterAll(beans.put(node.index(), freshBeans));
    if (proxies != null) {
      proxies.unfront(deadShufflePort);
    }
    node.replace(fresh, group);
    attachExecutor(node, fresh);
    setNodeManagerSlot(node.index(), fresh);
    // the generation before the one that just died is long stopped, its runs recorded: its folders go,
    // so that a suite of many crashes keeps two generations' folders per slot, not all of them
    deleteGeneration(node.index(), generation - 2);
  }

  private void deleteGeneration(int index, int generation) {
    if (generation < 1) {
      return; // generation 0's folders are MiniYARNCluster's own
    }
    for (String type : List.of("local", "log")) {
      for (int i = 0; i < 4; i++) {
        org.apache.hadoop.fs.FileUtil.fullyDelete(folder(type, index, generation, i));
      }
    }
  }

  @Override
  protected void checkpointNameNode() {
    faultbed.harness.daemons.NameNodeCheckpoint.save(dfs.getNameNode());
  }

  @Override
  protected boolean idle(MiniNode node) {
    return node.nodeManager().getNMContext().getContainers().isEmpty();
  }

  /** Hadoop's own out-of-band heartbeat: the NodeManager drops containers once the RM has acknowledged them. */
  @Override
  protected void reportNow(MiniNode node) {
    node.nodeManager().getNodeStatusUpdater().sendOutofBandHeartBeat();
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

  /** A replacement generation's local or log folder {@code i}. */
  private File folder(String type, int index, int generation, int i) {
    return workDir.resolve("nodes").resolve("nm-" + index + "-g" + generation + "-" + type + "_" + i).toFile();
  }

  private String dirs(String type, int index, int generation, int count) {
    List<String> list = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      File d = folder(type, index, generation, i);
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
   * in parallel (each waits on its own log handler), then the rest.
   */
  @Override
  protected void stop() {
    try {
      for (MiniNode n : nodes) {
        n.group().killAll(Duration.ofSeconds(10));
      }
      CompletableFuture.allOf(nodes.stream()
          .map(n -> CompletableFuture.runAsync(() -> n.nodeManager().stop()))
          .toArray(CompletableFuture[]::new)).join();
      mr.stop();
      beans.values().forEach(NodeManagerBeans::unregisterAll);
      dfs.shutdown();
    } finally {
      if (proxies != null) {
        ProxiedShuffleHandler.unregister(frontsId);
        proxies.close();
      }
    }
  }
}
