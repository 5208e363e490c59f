package faultbed.harness.remote;

import faultbed.faults.Installed;
import faultbed.faults.Ledger;
import faultbed.faults.NetworkFaults;
import faultbed.faults.PreconditionFailed;
import faultbed.faults.remote.RemoteHost;
import faultbed.faults.remote.RemoteNodeManager;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * A worker host of a cluster faultbed did not start, as a node: its NodeManager (found by its
 * main class) and the containers under it, reached over SSH. Faults act on that process tree and
 * on the host's packet filter, nothing else. Its container logs are brought to a local folder after
 * each job, which {@link #logDirs()} names.
 */
public final class RemoteWorker implements faultbed.harness.ProcessListedNode {
  private final int index;
  private final RemoteNodeManager nm;
  private final String address;
  private final int shufflePort;
  private final List<String> localDirs;
  private final List<String> remoteLogDirs;
  private final List<Path> mirror;
  private final String tracker;
  private final faultbed.faults.TrafficControl shaping;
  /** The inventory's command that starts the NodeManager again; null if it gives none. */
  private final List<String> restart;
  private final int trackerPort;
  private volatile String nodeId;
  private volatile String webAddress;
  private final Supplier<Set<String>> amWebAddresses;
  private volatile boolean up = true;
  private volatile String runId = "between-runs";
  private final faultbed.faults.Held cutOff = new faultbed.faults.Held();

  /**
   * @param address the worker's address as the cluster names it (map output URLs, attempts' hosts)
   * @param tracker host and port the RM's resource tracker listens on: the NodeManager's heartbeats go there
   */
  RemoteWorker(int index, RemoteNodeManager nm, faultbed.faults.TrafficControl shaping, String nodeId, String webAddress, String address, int shufflePort,
      List<String> localDirs, List<String> remoteLogDirs, List<Path> mirror, String tracker, int trackerPort,
      List<String> restart, Supplier<Set<String>> amWebAddresses) {
    this.amWebAddresses = amWebAddresses;
    this.index = index;
    this.nm = nm;
    this.shaping = shaping;
    this.nodeId = nodeId;
    this.webAddress = webAddress;
    this.address = address;
    this.shufflePort = shufflePort;
    this.localDirs = List.copyOf(localDirs);
    this.remoteLogDirs = List.copyOf(remoteLogDirs);
    this.mirror = List.copyOf(mirror);
    this.tracker = tracker;
    this.trackerPort = trackerPort;
    this.restart = restart;
  }

  RemoteNodeManager nodeManager() {
    return nm;
  }

  RemoteHost host() {
    return nm.host();
  }

  /** The inventory's name of the host. */
  public String hostName() {
    return nm.host().target().name();
  }

  List<String> remoteLogDirs() {
    return remoteLogDirs;
  }

  List<Path> mirror() {
    return mirror;
  }

  String webAddress() {
    return webAddress;
  }

  /** The run whose faults are being made: rules on the host carry its id. */
  void forRun(String id) {
    this.runId = id;
  }

  /** After a restart: the NodeManager's id and web address as the RM now lists them. */
  void serving(String id, String web) {
    this.nodeId = id;
    this.webAddress = web;
    this.up = true;
  }

  void down() {
    this.up = false;
  }

  @Override
  public int index() {
    return index;
  }

  @Override
  public String nodeId() {
    return nodeId;
  }

  @Override
  public String address() {
    return address;
  }

  /** Measured over SSH with four probes (a few milliseconds); history times are on the hosts' clocks. */
  @Override
  public faultbed.results.RunRecord.Clock clock() {
    RemoteHost.ClockOffset c = nm.host().clockOffset(4);
    return new faultbed.results.RunRecord.Clock(c.offsetMs(), c.roundTripMs());
  }

  @Override
  public int shufflePort() {
    return shufflePort;
  }

  @Override
  public List<String> localDirs() {
    return localDirs;
  }

  /** The local copies of the host's container log folders, filled after each job. */
  @Override
  public List<String> logDirs() {
    return mirror.stream().map(Path::toString).toList();
  }

  /** The pids, on the host, of the NodeManager and every process under it. */
  @Override
  public Set<Long> processes() {
    return up ? new TreeSet<>(nm.tree()) : Set.of();
  }

  @Override
  public String cgroup() {
    return "host " + hostName() + " (NodeManager process tree)";
  }

  /** Every process of the NodeManager's tree stopped (SIGSTOP) until healed. */
  @Override
  public Installed freeze() {
    return nm.freeze(runId);
  }

  /** The NodeManager's tree from one listing on the host; the NodeManager itself is the daemon. */
  @Override
  public List<Proc> processTable() {
    if (!up) {
      return List.of();
    }
    List<RemoteNodeManager.Proc> tree = nm.treeProcesses();
    return tree.stream().map(p -> new Proc(p.pid(), p.args(), p == tree.get(0))).toList();
  }

  /** Stopped on the host, each kept in the host's own ledger first. */
  @Override
  public Installed stopProcesses(Ledger ledger, String id, java.util.Collection<Long> pids) {
    return nm.stopProcesses(id, pids);
  }

  @Override
  public Installed limit(Double cpuCores, Long readBytesPerSecond, Long writeBytesPerSecond) {
    throw notYet("slow-node");
  }

  /** Spinners on the host, competing with everything it runs, the NodeManager's containers among it. */
  @Override
  public Installed cpuSpinners(int count) {
    return nm.cpuSpinners(runId, count);
  }

  /** dd loops in the NodeManager's first local folder, where its containers write. */
  @Override
  public Installed diskWriters(Ledger ledger, String id, int count, long blockBytes, long fileBytes, boolean direct) {
    if (localDirs.isEmpty()) {
      throw new PreconditionFailed("disk-load on host " + hostName() + ": its NodeManager names no local folder");
    }
    return nm.diskWriters(id, localDirs.get(0), count, blockBytes, fileBytes, direct);
  }

  private PreconditionFailed notYet(String kind) {
    return new PreconditionFailed(kind + " on host " + hostName() + ": the remote backend does not make this fault yet");
  }

  @Override
  public List<Integer> ports() {
    return nm.ports();
  }

  /** The host's packets to the RM's resource tracker dropped: heartbeats stop reaching the RM. */
  @Override
  public void pauseHeartbeats() {
    cutOff.on(() -> nm.cutTo(runId, tracker, trackerPort));
  }

  @Override
  public void resumeHeartbeats() {
    cutOff.off();
  }

  @Override
  public boolean isUp() {
    return up;
  }

  /**
   * Whether a running application's AM is in this NodeManager's containers, as the RM says: one
   * HTTP request rather than a command on the host, which under load takes seconds and would make
   * a fault sparing the AM land late.
   */
  @Override
  public boolean runsApplicationMaster() {
    return up && amWebAddresses.get().contains(webAddress);
  }

  /**
   * SIGKILL to the NodeManager's whole tree at once; the host stays up. The host's ledger holds the
   * crash until the NodeManager runs again: a harness that dies before its reset brought it back
   * leaves the next one to start it.
   */
  @Override
  public Map<String, String> crash() {
    Map<String, String> detail = new LinkedHashMap<>(nm.crash(runId, restart));
    up = false;
    detail.put("killedThrough", "kill -KILL over SSH");
    return detail;
  }

  @Override
  public Map<String, String> stopGracefully() {
    nm.stop(runId, restart);
    up = false;
    return Map.of("host", hostName(), "signal", "TERM");
  }

  /** Where this node's network faults are made: the host's own packet filter and qdiscs. */
  NetworkFaults network() {
    return NetworkFaults.kernel("remote host " + hostName(), nm.rules(), shaping);
  }

  @Override
  public String toString() {
    return "node " + index + " (host " + nm.host().target() + ")";
  }
}
