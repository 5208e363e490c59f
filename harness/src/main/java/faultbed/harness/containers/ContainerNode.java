package faultbed.harness.containers;

import faultbed.faults.Installed;
import faultbed.faults.Ledger;
import faultbed.faults.NodeContainer;
import faultbed.harness.daemons.ProcessNode;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.awaitility.Awaitility;

/**
 * A worker node of the containers backend: its process tree inside a Docker container of its own,
 * with its own address. Every generation of the node process (a Docker exec) lives in the same
 * container, at the same address.
 */
public final class ContainerNode extends ProcessNode<String> {
  private final NodeContainer container;
  private final faultbed.faults.Held cutOff = new faultbed.faults.Held();

  ContainerNode(int index, NodeContainer container) {
    super(index);
    this.container = container;
  }

  NodeContainer container() {
    return container;
  }

  @Override
  public String address() {
    return container.address();
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

  /** Nothing the node sends reaches the harness's address, its heartbeats among it. */
  @Override
  public void pauseHeartbeats() {
    cutOff.on(container::cutHarness);
  }

  @Override
  public void resumeHeartbeats() {
    cutOff.off();
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

  @Override
  public long memoryUsage() {
    return container.memoryUsage();
  }

  @Override
  public Installed limitMemory(long bytes) {
    return container.limitMemory(bytes);
  }

  /** The hog inside the node's container, in pieces as on the other backends, tagged as the other load is. */
  @Override
  public Installed memoryHog(long bytes) {
    long piece = faultbed.faults.Load.HOG_PIECE;
    int pieces = (int) ((bytes + piece - 1) / piece);
    return container.load("mem", pieces, "exec perl -e \"" + faultbed.faults.Load.MEMORY_HOG.replace("$", "\\$")
        + "\" " + Math.min(bytes, piece) + " \"faultbed=$0\"", null);
  }

  /** The seed's spinners: tight loops over a 100 000-element array, inside the node's container. */
  @Override
  public Installed cpuSpinners(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("cpu hog: expected count >= 1, got " + count);
    }
    // the tag (the shell's $0) goes on to awk's command line, where the count and the heal find it
    return container.load("hog", count, "exec awk -v \"faultbed=$0\" '" + faultbed.faults.Load.SPINNER + "'", null);
  }

  @Override
  public Installed diskWriters(Ledger ledger, String runId, int count, long blockBytes, long fileBytes,
      boolean direct) {
    if (count < 1 || blockBytes < 1 || fileBytes < blockBytes) {
      throw new IllegalArgumentException("disk load: expected count >= 1, block >= 1 byte, file >= block");
    }
    String file = localDirs().get(0) + "/faultbed-dd-" + runId + "-$$";
    String dd = faultbed.faults.Load.ddPass("\"" + file + "\"", blockBytes, fileBytes, direct);
    return container.load(runId, count, "while :; do " + dd + "; done",
        "rm -f '" + localDirs().get(0) + "'/faultbed-dd-" + runId + "-*");
  }

  /** The node's processes as host pids; the node process (NodeManager and DataNode in one JVM) is the daemon. */
  @Override
  public List<Proc> processTable() {
    return container.processes().stream().filter(p -> !isSleeper(p))
        .map(p -> new Proc(p.hostPid(), p.command(), isNodeProcess(p.command()))).toList();
  }

  /** From inside: kill(-1) spares only the container's first process, the sleeper. */
  @Override
  protected int killAll() {
    return container.killAll();
  }

  @Override
  protected String killedThrough() {
    return "kill(-1) inside container " + container.name();
  }

  @Override
  protected boolean terminate() {
    container.exec(List.of("kill", "-TERM", Long.toString(pid())));
    try {
      Awaitility.await("node " + index() + " stopped").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
          .until(() -> container.exitCode(generation().process()) != null);
      return true;
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return "node " + index() + " (" + container + ")";
  }
}
