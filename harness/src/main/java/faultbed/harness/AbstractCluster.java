package faultbed.harness;

import faultbed.faults.DirectoryHealer;
import faultbed.faults.Ledger;
import faultbed.harness.observe.RunExecutor;
import faultbed.harness.observe.RunListener;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.awaitility.Awaitility;

/**
 * The lifecycle every backend shares: start (heal what dead harnesses left, open a ledger, make
 * the working folder), run, reset (bring dead nodes back, clear live ones, wait until the RM has
 * every node RUNNING and idle) and close (the backend stops what it started, then the ledger heals
 * the rest). A backend is only what differs: how a node's processes are started, contained,
 * addressed and faulted.
 */
public abstract class AbstractCluster<N extends Node> implements Cluster {
  private static final Duration ALL_IDLE = Duration.ofSeconds(60);

  protected final ClusterSpec spec;
  protected final Ledger ledger;
  protected final Path workDir;
  private volatile ResourceManagerView rm;
  private volatile RunListener listener = RunListener.NONE;
  private boolean closed;
  private boolean labelled; // a run's pinned parts left labels on nodes

  private final List<String> recordedApps = new ArrayList<>();

  protected AbstractCluster(ClusterSpec spec, Ledger ledger, Path workDir) {
    this.spec = spec;
    this.ledger = ledger;
    this.workDir = workDir;
  }

  /** Builds a backend's cluster in its ledger and working folder; may throw anything. */
  protected interface Assembly<C> {
    C assemble(Ledger ledger, Path workDir) throws IOException;
  }

  /**
   * Heals what dead faultbed processes left on this machine (each item to {@code log}), opens a
   * ledger and a working folder, and assembles the cluster in them. If assembly fails,
   * {@code abandon} stops what it had started and the ledger heals the rest.
   */
  protected static <C extends AbstractCluster<?>> C start(String backend, Consumer<String> log,
      Assembly<C> assembly, Consumer<Ledger> abandon) {
    for (String healed : Ledger.healOrphans()) {
      log.accept("healed leftover: " + healed);
    }
    Ledger ledger = Ledger.open();
    Path work = workRoot().resolve(ledger.owner());
    try {
      Files.createDirectories(work);
      ledger.record(DirectoryHealer.entry(work, "cluster"));
      return assembly.assemble(ledger, work);
    } catch (IOException e) {
      abandon.accept(ledger);
      ledger.close();
      throw new UncheckedIOException("cannot start the " + backend + " cluster in " + work, e);
    } catch (RuntimeException e) {
      abandon.accept(ledger);
      ledger.close();
      throw e;
    }
  }

  /** Where cluster working folders go: disk, not tmpfs, since HDFS blocks live there. */
  private static Path workRoot() {
    String own = faultbed.faults.Capability.isRoot() ? "faultbed" : "faultbed-" + System.getProperty("user.name");
    return Path.of(System.getProperty("faultbed.work.dir", "/var/tmp/" + own));
  }

  /** Called once the ResourceManager runs: node and application state are asked of it. */
  protected final void resourceManagerUp(ResourceManagerView link) {
    this.rm = link;
  }

  protected final ResourceManagerView rm() {
    return rm;
  }

  /** The backend's name in run records. */
  protected abstract String backendLabel();

  @Override
  public abstract List<N> nodes();

  /** Kills what a finished run left on a live node (its containers), keeping the node itself. */
  protected abstract void clearContainers(N node);

  /** Starts a fresh generation of a dead node in its slot; {@link #awaitServing} waits for it. */
  protected abstract void restart(N node);

  /** Waits until a restarted node serves and the RM and NameNode know it. */
  protected void awaitServing(N node) {}

  /** Whether the node itself (not only the RM) holds no container any more. */
  protected abstract boolean idle(N node);

  /**
   * Asks a node that still holds finished containers to report them to the RM now rather than at
   * its next heartbeat (a second away), so a reset between runs does not wait for it.
   */
  protected void reportNow(N node) {}

  /**
   * Whether a node no fault of the harness took down has died anyway (the OOM killer under memory
   * pressure takes a node's daemons): the reset brings it back as it does a crashed one.
   */
  protected boolean diedOnItsOwn(N node) {
    return false;
  }

  /** Checkpoints the cluster's NameNode between runs where faultbed runs it ({@code NameNodeCheckpoint}). */
  protected void checkpointNameNode() {}

  /** Stops every node and daemon the backend started; the ledger heals the rest afterwards. */
  protected abstract void stop();

  @Override
  public Cluster listen(RunListener l) {
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
  public Path stateDir() {
    return workDir.resolve("state");
  }

  @Override
  public Map<String, String> nodeStates() {
    return rm.nodeStates();
  }

  @Override
  public String applicationState(String applicationId) {
    return rm.applicationState(applicationId);
  }

  @Override
  public RunRecord.ClusterInfo info() {
    return new RunRecord.ClusterInfo(backendLabel(), spec.nodes(), spec.nodeMemoryMb(), spec.nodeVcores());
  }

  @Override
  public synchronized PinnedNodes pin(java.util.Set<Pin> parts, long seed, int reduces) {
    if (parts.isEmpty()) {
      if (labelled) {
        // a run that pins nothing finds every node in the default partition, as on a cluster never pinned
        rm.labelNodes(Map.of());
        labelled = false;
      }
      return PinnedNodes.NONE;
    }
    labelled = true;
    return PinnedNodes.choose(parts, spec.slotsPerNode(), nodes(), rm, seed, reduces);
  }

  /** Kept until the next run or reset, so that the last run's logs and history can still be read. */
  @Override
  public final synchronized void recorded(String applicationId) {
    if (!applicationId.matches("application_\\d+_\\d+")) {
      throw new IllegalArgumentException("not an application id: " + applicationId);
    }
    recordedApps.add(applicationId);
  }

  private synchronized void forgetRecorded() {
    recordedApps.forEach(this::forget);
    recordedApps.clear();
  }

  /** Deletes what the cluster kept of a recorded application: its container logs and history files. */
  protected void forget(String applicationId) {
    forgetLogs(applicationId);
    faultbed.harness.observe.HistoryReader.forget(configuration(), applicationId.replaceFirst("^application_", "job_"));
  }

  /** Deletes the application's container log folders from every node's log folders on this machine. */
  protected final void forgetLogs(String applicationId) {
    for (N n : nodes()) {
      for (String dir : n.logDirs()) {
        Path app = Path.of(dir, applicationId);
        if (Files.isDirectory(app)) {
          org.apache.hadoop.fs.FileUtil.fullyDelete(app.toFile());
        }
      }
    }
  }

  @Override
  public RunRecord run(RunSpec run) {
    forgetRecorded();
    return new RunExecutor(this, listener).execute(run);
  }

  /**
   * Brings every node that is down back as a fresh generation in its slot (the RM made to forget
   * the dead NodeId first, so no run starts with a dead node it still schedules on), clears what
   * the last run left on live nodes, and waits until the RM sees all nodes RUNNING with nothing
   * allocated.
   */
  @Override
  public void reset() {
    forgetRecorded();
    checkpointNameNode();
    List<N> restarted = new ArrayList<>();
    for (N node : nodes()) {
      node.resumeHeartbeats();
      if (node.isUp() && !diedOnItsOwn(node)) {
        clearContainers(node);
        continue;
      }
      NodeId old = NodeId.fromString(node.nodeId());
      if ("RUNNING".equals(nodeStates().get(old.toString()))) {
        rm.expire(old);
      }
      restart(node);
      restarted.add(node);
    }
    restarted.forEach(this::awaitServing);
    Awaitility.await("all nodes RUNNING and idle").atMost(ALL_IDLE).pollInterval(Duration.ofMillis(100))
        .until(() -> {
          boolean all = true;
          for (N n : nodes()) {
            if (!(rm.runningAndIdle(NodeId.fromString(n.nodeId())) && idle(n))) {
              reportNow(n);
              all = false;
            }
          }
          return all;
        });
  }

  @Override
  public final synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      stop();
    } finally {
      ledger.close();
    }
  }
}
