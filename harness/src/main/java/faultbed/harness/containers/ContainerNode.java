package faultbed.harness.containers;

import faultbed.faults.Installed;
import faultbed.faults.Ledger;
import faultbed.faults.NodeContainer;
import faultbed.harness.Node;
import faultbed.harness.daemons.NodeStatus;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.awaitility.Awaitility;

/**
 * A worker node of the containers backend: one node process (DataNode and NodeManager) with its
 * YARN containers as children, inside a Docker container of its own with its own address. A
 * handle stays valid across resets; each reset of a dead node starts a new generation of the node
 * process in the same Docker container, at the same address.
 */
public final class ContainerNode implements Node {
  private final int index;
  private final NodeContainer container;
  private volatile Generation current;
  private volatile boolean up;
  private volatile Installed cutOff;

  /** One life of the node: its process (a Docker exec), its folder, and what it reported once serving. */
  record Generation(int number, Path dir, String exec, NodeStatus status) {}

  ContainerNode(int index, NodeContainer container) {
    this.index = index;
    this.container = container;
  }

  void begin(Generation g) {
    this.current = g;
    this.up = true;
  }

  Generation generation() {
    return current;
  }

  NodeContainer container() {
    return container;
  }

  @Override
  public int index() {
    return index;
  }

  @Override
  public String address() {
    return container.address();
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

  /** Every process of the node, as host pids: the node process and its YARN containers, not the sleeper. */
  @Override
  public Set<Long> processes() {
    Set<Long> pids = new TreeSet<>();
    for (NodeContainer.Process p : container.processes()) {
      if (!isSleeper(p)) {
        pids.add(p.hostPid());
      }
    }
    return pids;
  }

  private static boolean isSleeper(NodeContainer.Process p) {
    return p.command().startsWith("sleep ");
  }

  @Override
  public String cgroup() {
    return "container " + container.name();
  }

  @Override
  public List<Integer> ports() {
    return current.status().ports();
  }

  /** Nothing the node sends reaches the harness's address, its heartbeats among it. */
  @Override
  public synchronized void pauseHeartbeats() {
    if (cutOff == null) {
      cutOff = container.cutHarness();
    }
  }

  @Override
  public synchronized void resumeHeartbeats() {
    if (cutOff != null) {
      cutOff.heal();
      cutOff = null;
    }
  }

  @Override
  public Installed freeze() {
    return container.pause();
  }

  @Override
  public Installed limit(Double cpuCores, Long readBytesPerSecond, Long writeBytesPerSecond) {
    if (readBytesPerSecond != null || writeBytesPerSecond != null) {
      throw new faultbed.faults.PreconditionFailed("slow-node read and write limits: the containers backend"
          + " limits a node's CPU only (Docker's own I/O limits are set when a container is created)");
    }
    return cpuCores == null ? () -> { } : container.limitCpu(cpuCores);
  }

  /** The seed's spinners: tight loops over a 100 000-element array, inside the node's container. */
  @Override
  public Installed cpuSpinners(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("cpu hog: expected count >= 1, got " + count);
    }
    return container.load("hog", count, "exec awk 'BEGIN { n = 100000; for (;;) for (i = 0; i < n; i++) a[i] = a[i] + 1 }'",
        null);
  }

  @Override
  public Installed diskWriters(Ledger ledger, String runId, int count, long blockBytes, long fileBytes,
      boolean direct) {
    if (count < 1 || blockBytes < 1 || fileBytes < blockBytes) {
      throw new IllegalArgumentException("disk load: expected count >= 1, block >= 1 byte, file >= block");
    }
    String file = localDirs().get(0) + "/faultbed-dd-" + runId + "-$$";
    String dd = "dd if=/dev/zero of=\"" + file + "\" bs=" + blockBytes + " count=" + (fileBytes / blockBytes)
        + (direct ? " oflag=direct" : " conv=fsync") + " 2>/dev/null; rm -f \"" + file + "\"";
    return container.load(runId, count, "while :; do " + dd + "; done",
        "rm -f '" + localDirs().get(0) + "'/faultbed-dd-" + runId + "-*");
  }

  @Override
  public boolean isUp() {
    return up;
  }

  /** Attempt ids in the command lines of the node's processes (YarnChild gets its attempt id as an argument). */
  @Override
  public List<String> runningAttempts() {
    Set<String> attempts = new LinkedHashSet<>();
    for (NodeContainer.Process p : container.processes()) {
      for (String word : p.command().split("\\s+")) {
        if (word.startsWith("attempt_")) {
          attempts.add(word);
        }
      }
    }
    return new ArrayList<>(attempts);
  }

  @Override
  public boolean runsApplicationMaster() {
    return container.processes().stream().anyMatch(p -> p.command().contains("MRAppMaster"));
  }

  /**
   * The seeds' killed TaskTracker on a live host: every process of the node gets SIGKILL from
   * inside its container, the RM is not told, and the container's network stack stays up, so its
   * ports answer with RST unless its link was pulled first.
   */
  @Override
  public Map<String, String> crash() {
    long t0 = System.nanoTime();
    Map<String, String> detail = new LinkedHashMap<>();
    up = false;
    int killed = container.killAll();
    detail.put("processesKilled", Integer.toString(killed));
    detail.put("killedThrough", "kill(-1) inside container " + container.name());
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
    container.exec(List.of("kill", "-TERM", Long.toString(current.status().pid())));
    boolean exited;
    try {
      Awaitility.await("node " + index + " stopped").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
          .until(() -> container.exitCode(current.exec()) != null);
      exited = true;
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      exited = false;
    }
    int left = container.killAll();
    detail.put("nodeId", id);
    detail.put("stoppedAfterMs", Long.toString((System.nanoTime() - t0) / 1_000_000));
    detail.put("exitedOnItsOwn", Boolean.toString(exited));
    detail.put("processesLeftAfterStop", Integer.toString(left));
    return detail;
  }

  /** What a connect to the node's port meets now: "refused" (RST), "no answer" or "open". */
  private String probe(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(container.address(), port), 1000);
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
    return "node " + index + " (" + container + ")";
  }
}
