package faultbed.harness.daemons;

import faultbed.faults.Toxiproxy;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A worker node that is a process of its own ({@link NodeProcess}: a DataNode and a NodeManager
 * in one JVM, its YARN containers as children) at an address of its own. A handle stays valid
 * across resets; each reset of a dead node starts a new generation (process, folders) in the same
 * place, at the same address. A backend says how the process is held ({@code H}), killed and
 * listed.
 *
 * @param <H> what the backend holds of one generation's process
 */
public abstract class ProcessNode<H> implements faultbed.harness.ProcessListedNode {
  private final int index;
  private volatile Generation<H> current;
  private volatile List<faultbed.faults.NodeDisk> disks = List.of();
  private volatile faultbed.faults.NodeClock clock;
  private volatile List<Path> dataDirs = List.of();
  private volatile boolean up;
  private volatile Toxiproxy shuffleProxy; // in front of its shuffle on toxiproxy networks

  /** One life of the node: its process, its folder, and what it reported once serving (null until then). */
  public record Generation<H>(int number, Path dir, H process, NodeStatus status) {
    public Generation<H> serving(NodeStatus s) {
      return new Generation<>(number, dir, process, s);
    }
  }

  protected ProcessNode(int index) {
    this.index = index;
  }

  public void begin(Generation<H> g) {
    this.current = g;
    this.up = true;
  }

  public Generation<H> generation() {
    return current;
  }

  /** The proxies in front of the node's shuffle: its crash makes them refuse, as the dead port does. */
  public void frontedBy(Toxiproxy proxies) {
    this.shuffleProxy = proxies;
  }

  /** Its Toxiproxy, or null where its shuffle has none in front. */
  public Toxiproxy proxies() {
    return shuffleProxy;
  }

  @Override
  public int index() {
    return index;
  }

  @Override
  public abstract String address();

  @Override
  public String nodeId() {
    return current.status().nodeId();
  }

  @Override
  public int shufflePort() {
    return current.status().shufflePort();
  }

  @Override
  public int advertisedShufflePort() {
    return current.status().advertisedShufflePort();
  }

  /** The node process's pid, in the pid namespace it runs in. */
  public long pid() {
    return current.status().pid();
  }

  @Override
  public List<String> localDirs() {
    return dirs(current, disks, "local").stream().map(Path::toString).toList();
  }

  @Override
  public List<String> logDirs() {
    return dirs(current, disks, "logs").stream().map(Path::toString).toList();
  }

  /** The node's disks of its own, made once with its first generation; empty without cluster.disks. */
  void giveDisks(List<faultbed.faults.NodeDisk> made) {
    disks = List.copyOf(made);
  }

  @Override
  public List<faultbed.faults.NodeDisk> disks() {
    return disks;
  }

  /** Where its DataNode keeps its blocks (the same in every generation). */
  void giveDataDirs(List<Path> dirs) {
    dataDirs = List.copyOf(dirs);
  }

  @Override
  public List<Path> dataDirs() {
    return dataDirs;
  }

  /** The node's clock of its own, made once with its first generation; none without cluster.clocks. */
  void giveClock(faultbed.faults.NodeClock made) {
    clock = made;
  }

  @Override
  public java.util.Optional<faultbed.faults.NodeClock> ownClock() {
    return java.util.Optional.ofNullable(clock);
  }

  /**
   * Where generation {@code g}'s NodeManager keeps {@code what} ("local" or "logs"): a folder of its
   * own on each of the node's disks, or in the generation's folder when the node has none.
   */
  static List<Path> dirs(Generation<?> g, List<faultbed.faults.NodeDisk> disks, String what) {
    return disks.isEmpty() ? List.of(g.dir().resolve(what))
        : disks.stream().map(d -> d.mount().resolve("g" + g.number()).resolve(what)).toList();
  }

  @Override
  public List<Integer> ports() {
    return current.status().ports();
  }

  @Override
  public boolean isUp() {
    return up;
  }


  /** Whether {@code command} is a node process's ({@link NodeProcess}): the node's daemons, not a container's. */
  protected static boolean isNodeProcess(String command) {
    return command.contains(NodeProcess.class.getName());
  }

  /** SIGKILL to every process of the node at once; returns how many died. */
  protected abstract int killAll();

  /** How {@link #killAll} reaches the processes, for the record. */
  protected abstract String killedThrough();

  /** SIGTERM to the node process and a bounded wait for it to exit; whether it did. */
  protected abstract boolean terminate();

  /**
   * The seeds' killed TaskTracker on a live host: every process of the node gets SIGKILL at once,
   * the RM is not told, and the node's network stack stays up, so its ports answer with RST unless
   * its link was pulled first.
   */
  @Override
  public Map<String, String> crash() {
    long t0 = System.nanoTime();
    Map<String, String> detail = new LinkedHashMap<>();
    up = false;
    detail.put("processesKilled", Integer.toString(killAll()));
    detail.put("killedThrough", killedThrough());
    detail.put("allProcessesDeadAfterMs", Long.toString((System.nanoTime() - t0) / 1_000_000));
    shuffleClosed();
    detail.put("shufflePortAfterCrash", probe(advertisedShufflePort()));
    return detail;
  }

  /**
   * SIGTERM to the node process: the NodeManager kills its containers and tells the RM it is
   * leaving, as on a clean shutdown; what outlives that is killed.
   */
  @Override
  public Map<String, String> stopGracefully() {
    long t0 = System.nanoTime();
    Map<String, String> detail = new LinkedHashMap<>();
    String id = nodeId();
    up = false;
    boolean exited = terminate();
    int left = killAll();
    shuffleClosed();
    detail.put("nodeId", id);
    detail.put("stoppedAfterMs", Long.toString((System.nanoTime() - t0) / 1_000_000));
    detail.put("exitedOnItsOwn", Boolean.toString(exited));
    detail.put("processesLeftAfterStop", Integer.toString(left));
    return detail;
  }

  /** Its shuffle's proxy refuses as the port behind it does, unless a silence holds it. */
  private void shuffleClosed() {
    Toxiproxy p = shuffleProxy;
    if (p != null) {
      p.refuse(shufflePort());
    }
  }

  /** What a connect to the node's port meets now: "refused" (RST), "no answer" or "open". */
  protected String probe(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(address(), port), 1000);
      return "open";
    } catch (ConnectException e) {
      return "refused";
    } catch (SocketTimeoutException e) {
      return "no answer";
    } catch (IOException e) {
      return e.getMessage();
    }
  }
}
