package faultbed.harness.mini;

import faultbed.faults.Cgroup;
import faultbed.harness.HarnessException;
import faultbed.harness.CgroupNode;
import faultbed.harness.Node;
import faultbed.harness.daemons.ResourceTrackerLink;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.ContainerManagerImpl;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;

/** A NodeManager slot of the mini cluster, with its cgroup; see {@link Node}. */
public final class MiniNode implements CgroupNode {
  private final int index;
  private final ResourceTrackerLink rm;
  private volatile Cgroup cgroup;
  private volatile HeartbeatGate heartbeats;
  private volatile int shufflePort = -1;
  private volatile NodeManager nm;
  private volatile int generation;
  private volatile boolean up = true;
  private final java.util.function.IntConsumer shuffleClosed;

  MiniNode(int index, Cgroup cgroup, NodeManager nm, ResourceTrackerLink rm,
      java.util.function.IntConsumer shuffleClosed) {
    this.index = index;
    this.rm = rm;
    this.shuffleClosed = shuffleClosed;
    this.cgroup = cgroup;
    this.nm = nm;
  }

  @Override
  public int index() {
    return index;
  }

  /** How many times this slot has been given a fresh NodeManager. */
  public int generation() {
    return generation;
  }

  NodeManager nodeManager() {
    return nm;
  }

  /**
   * A fresh NodeManager and a fresh cgroup for this slot: the dead generation's shutdown and final
   * sweep may still be running on the old group and must not touch the new one's containers.
   */
  void replace(NodeManager fresh, Cgroup freshGroup) {
    if (heartbeats != null) {
      heartbeats.open(); // the dead generation's thread may be parked here
    }
    this.nm = fresh;
    this.cgroup = freshGroup;
    this.generation++;
    this.up = true;
  }

  @Override
  public String nodeId() {
    return nm.getNMContext().getNodeId().toString();
  }

  /** The port this generation's ShuffleHandler bound; known even after a crash closed it. */
  @Override
  public int shufflePort() {
    if (shufflePort > 0) {
      return shufflePort;
    }
    return boundShufflePort(nm);
  }

  /**
   * The port the node's ShuffleHandler bound, read from the handler itself: its service metadata
   * may advertise a proxy's port instead.
   */
  private static int boundShufflePort(NodeManager nm) {
    try {
      var aux = nm.getNMContext().getAuxServices();
      java.lang.reflect.Method services = aux.getClass().getDeclaredMethod("getServices");
      services.setAccessible(true);
      for (Object s : (java.util.Collection<?>) services.invoke(aux)) {
        if (s instanceof ShuffleHandler h) {
          int port = h.getConfig().getInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, -1);
          if (port > 0) {
            return port;
          }
        }
      }
    } catch (ReflectiveOperationException e) {
      throw new HarnessException("cannot read the NodeManager's ShuffleHandler", e);
    }
    throw new HarnessException("node has no shuffle port (aux service not running)");
  }

  @Override
  public int advertisedShufflePort() {
    try {
      var meta = nm.getNMContext().getAuxServices().getMetaData().get(ShuffleHandler.MAPREDUCE_SHUFFLE_SERVICEID);
      return ShuffleHandler.deserializeMetaData(meta.duplicate());
    } catch (IOException | NullPointerException e) {
      throw new HarnessException("node " + index + " has no shuffle port (aux service not running)", e);
    }
  }

  @Override
  public List<String> localDirs() {
    return List.of(nm.getConfig().getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS));
  }

  @Override
  public List<String> logDirs() {
    return List.of(nm.getConfig().getTrimmedStrings(YarnConfiguration.NM_LOG_DIRS));
  }

  @Override
  public Set<Long> processes() {
    return cgroup.pids();
  }

  @Override
  public Cgroup group() {
    return cgroup;
  }

  void gateHeartbeats() {
    shufflePort = -1;
    shufflePort = shufflePort();
    heartbeats = HeartbeatGate.install(nm);
  }

  @Override
  public void pauseHeartbeats() {
    heartbeats.close();
  }

  @Override
  public void resumeHeartbeats() {
    heartbeats.open();
  }

  @Override
  public List<Integer> ports() {
    String id = nodeId();
    List<Integer> ports = new ArrayList<>();
    ports.add(shufflePort());
    ports.add(Integer.parseInt(id.substring(id.lastIndexOf(':') + 1)));
    ports.add(nm.getNMContext().getHttpPort());
    return ports;
  }

  @Override
  public boolean isUp() {
    return up;
  }

  /**
   * Task attempts whose containers this node runs, read from the containers' launch commands
   * (YarnChild is started with its attempt id as an argument).
   */
  @Override
  public List<String> runningAttempts() {
    List<String> attempts = new ArrayList<>();
    for (Container c : nm.getNMContext().getContainers().values()) {
      if (c.getLaunchContext() == null) {
        continue;
      }
      for (String cmd : c.getLaunchContext().getCommands()) {
        for (String word : cmd.split("\\s+")) {
          if (word.startsWith("attempt_")) {
            attempts.add(word);
          }
        }
      }
    }
    return attempts;
  }

  @Override
  public boolean runsApplicationMaster() {
    for (Container c : nm.getNMContext().getContainers().values()) {
      if (c.getLaunchContext() != null
          && c.getLaunchContext().getCommands().stream().anyMatch(cmd -> cmd.contains("MRAppMaster"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * A crash as a dead machine looks to the rest of the cluster: the RM is never told (heartbeats
   * just stop), the container manager stops answering, the shuffle port closes (peers get RST),
   * every container process dies at once, and nothing new launches. The NodeManager's own
   * shutdown then runs in the background, and the cgroup is swept again after it.
   *
   * @return what the injection observed, for the run record
   */
  @Override
  public Map<String, String> crash() {
    long t0 = System.nanoTime();
    Map<String, String> detail = new LinkedHashMap<>();
    int port = shufflePort();
    NodeManager victim = nm;
    up = false;
    executor(victim).refuseLaunches();
    victim.getNodeStatusUpdater().stop();
    stopRpcServer(victim);
    victim.getNMContext().getAuxServices().stop();
    shuffleClosed.accept(port);
    detail.put("shufflePortClosedAfterMs", Long.toString(waitClosed(port, t0)));
    Set<Long> killed = cgroup.killAll(Duration.ofSeconds(5));
    detail.put("processesKilled", Integer.toString(killed.size()));
    detail.put("killedThrough", cgroup.killMechanism());
    detail.put("allProcessesDeadAfterMs", Long.toString((System.nanoTime() - t0) / 1_000_000));
    Cgroup group = cgroup;
    CompletableFuture.runAsync(() -> {
      victim.stop();
      group.killAll(Duration.ofSeconds(5)); // containers launched in the last moments before the crash
    });
    return detail;
  }

  /**
   * A graceful stop: the NodeManager kills its containers and tells the RM it is leaving, as on
   * a decommission or a clean shutdown. Compare with {@link #crash()}.
   */
  @Override
  public Map<String, String> stopGracefully() {
    long t0 = System.nanoTime();
    Map<String, String> detail = new LinkedHashMap<>();
    NodeManager victim = nm;
    String nodeId = nodeId();
    up = false;
    executor(victim).refuseLaunches();
    rm.unregister(victim.getNMContext().getNodeId());
    victim.stop();
    Set<Long> killed = cgroup.killAll(Duration.ofSeconds(5));
    detail.put("nodeId", nodeId);
    detail.put("stoppedAfterMs", Long.toString((System.nanoTime() - t0) / 1_000_000));
    detail.put("processesLeftAfterStop", Integer.toString(killed.size()));
    return detail;
  }

  static NodeContainerExecutor executor(NodeManager nm) {
    if (!(nm.getNMContext().getContainerExecutor() instanceof NodeContainerExecutor e)) {
      throw new HarnessException("NodeManager does not run faultbed's container executor");
    }
    return e;
  }

  private static void stopRpcServer(NodeManager nm) {
    try {
      ContainerManagerImpl cm = (ContainerManagerImpl) nm.getNMContext().getContainerManager();
      Field f = ContainerManagerImpl.class.getDeclaredField("server");
      f.setAccessible(true);
      Server server = (Server) f.get(cm);
      if (server != null) {
        server.stop();
      }
    } catch (ReflectiveOperationException e) {
      throw new HarnessException("cannot stop the container manager's RPC server", e);
    }
  }

  /** Milliseconds after {@code t0} at which the port first refused a connection (bounded wait). */
  private static long waitClosed(int port, long t0) {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
      } catch (IOException refused) {
        return (System.nanoTime() - t0) / 1_000_000;
      }
      Thread.onSpinWait();
    }
    throw new HarnessException("shuffle port " + port + " still accepts connections 5 s after the crash");
  }

  @Override
  public String toString() {
    return "node " + index + " (" + nodeId() + ")";
  }
}
