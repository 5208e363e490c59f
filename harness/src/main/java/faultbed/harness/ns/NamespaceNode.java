package faultbed.harness.ns;

import faultbed.faults.Cgroup;
import faultbed.faults.Installed;
import faultbed.faults.NodeNetwork;
import faultbed.harness.CgroupNode;
import faultbed.harness.Node;
import faultbed.harness.daemons.NodeStatus;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A worker node of the namespace backend: one process (DataNode and NodeManager) with its
 * containers as children, in the node's own network namespace and cgroup. A handle stays valid
 * across resets; each reset of a dead node starts a new generation (process, cgroup, folders) in
 * the same namespace, at the same address.
 */
public final class NamespaceNode implements CgroupNode {
  private final int index;
  private final NodeNetwork network;
  private final NodeNetwork.NodeNamespace namespace;
  private final String rmTrackerPort;
  private volatile Generation current;
  private volatile boolean up;
  private volatile Installed heldHeartbeats;

  /** One life of the node: its process, cgroup, folders, and what it reported once serving. */
  record Generation(int number, Cgroup group, Path dir, Process process, NodeStatus status) {}

  NamespaceNode(int index, NodeNetwork network, NodeNetwork.NodeNamespace namespace, String rmTrackerPort) {
    this.index = index;
    this.network = network;
    this.namespace = namespace;
    this.rmTrackerPort = rmTrackerPort;
  }

  void begin(Generation g) {
    this.current = g;
    this.up = true;
  }

  Generation generation() {
    return current;
  }

  NodeNetwork.NodeNamespace namespace() {
    return namespace;
  }

  @Override
  public int index() {
    return index;
  }

  @Override
  public String address() {
    return namespace.address();
  }

  @Override
  public String nodeId() {
    return current.status().nodeId();
  }

  @Override
  public int shufflePort() {
    return current.status().shufflePort();
  }

  @Override
  public List<String> localDirs() {
    return List.of(current.dir().resolve("local").toString());
  }

  @Override
  public List<String> logDirs() {
    return List.of(current.dir().resolve("logs").toString());
  }

  /** The node process (the container JVMs are its descendants). */
  public long pid() {
    return current.status().pid();
  }

  /** Every process of the node: the node process itself and all its containers. */
  @Override
  public Set<Long> processes() {
    return current.group().pids();
  }

  @Override
  public Cgroup group() {
    return current.group();
  }

  @Override
  public List<Integer> ports() {
    return current.status().ports();
  }

  /** A rule in the node's namespace drops what it sends to the RM's resource tracker: a real partition. */
  @Override
  public synchronized void pauseHeartbeats() {
    if (heldHeartbeats == null) {
      heldHeartbeats = network.dropOutgoing(namespace, "heartbeats",
          List.of("--dport", rmTrackerPort, "-d", network.hostAddress()));
    }
  }

  @Override
  public synchronized void resumeHeartbeats() {
    if (heldHeartbeats != null) {
      heldHeartbeats.heal();
      heldHeartbeats = null;
    }
  }

  @Override
  public boolean isUp() {
    return up;
  }

  /** Attempt ids in the command lines of the node's processes (YarnChild gets its attempt id as an argument). */
  @Override
  public List<String> runningAttempts() {
    Set<String> attempts = new LinkedHashSet<>();
    for (String cmd : commandLines()) {
      for (String word : cmd.split("\\s+")) {
        if (word.startsWith("attempt_")) {
          attempts.add(word);
        }
      }
    }
    return new ArrayList<>(attempts);
  }

  @Override
  public boolean runsApplicationMaster() {
    return commandLines().stream().anyMatch(c -> c.contains("MRAppMaster"));
  }

  private List<String> commandLines() {
    List<String> out = new ArrayList<>();
    for (long p : current.group().pids()) {
      try (InputStream in = Files.newInputStream(Path.of("/proc", Long.toString(p), "cmdline"))) {
        out.add(new String(in.readAllBytes(), StandardCharsets.UTF_8).replace('\0', ' '));
      } catch (IOException gone) {
        // the process ended between listing and reading
      }
    }
    return out;
  }

  /**
   * The seeds' killed TaskTracker on a live host: every process of the node gets SIGKILL at once
   * (a frozen cgroup cannot fork), the RM is not told, and the node's network stack stays up, so
   * its ports answer with RST unless its link was pulled first.
   */
  @Override
  public Map<String, String> crash() {
    long t0 = System.nanoTime();
    Map<String, String> detail = new LinkedHashMap<>();
    up = false;
    Set<Long> killed = current.group().killAll(Duration.ofSeconds(10));
    detail.put("processesKilled", Integer.toString(killed.size()));
    detail.put("killedThrough", current.group().killMechanism());
    detail.put("allProcessesDeadAfterMs", Long.toString((System.nanoTime() - t0) / 1_000_000));
    detail.put("shufflePortAfterCrash", probe(shufflePort()));
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
    ProcessHandle.of(pid()).ifPresent(ProcessHandle::destroy);
    boolean exited = ProcessHandle.of(pid()).map(h -> {
      try {
        h.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
        return true;
      } catch (Exception e) {
        return false;
      }
    }).orElse(true);
    Set<Long> killed = current.group().killAll(Duration.ofSeconds(10));
    detail.put("nodeId", id);
    detail.put("stoppedAfterMs", Long.toString((System.nanoTime() - t0) / 1_000_000));
    detail.put("exitedOnItsOwn", Boolean.toString(exited));
    detail.put("processesLeftAfterStop", Integer.toString(killed.size()));
    return detail;
  }

  /** What a connect to the node's port meets now: "refused" (RST), "no answer" or "open". */
  String probe(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(namespace.address(), port), 1000);
      return "open";
    } catch (ConnectException e) {
      return "refused";
    } catch (SocketTimeoutException e) {
      return "no answer";
    } catch (IOException e) {
      return e.getMessage();
    }
  }

  @Override
  public String toString() {
    return "node " + index + " (" + namespace.address() + ")";
  }
}
