package faultbed.harness;

import java.util.List;
import java.util.Set;

/**
 * One worker node (a NodeManager and the containers it runs) as the harness sees it. A handle
 * stays valid across resets: after a crash the harness brings a fresh NodeManager into the same
 * slot, with a new NodeId and ports.
 */
public interface Node {
  int index();

  /** The NodeManager's id as the ResourceManager knows it (host:port). */
  String nodeId();

  /**
   * The node's own IP address, or null where nodes share the host's (in-process): then only their
   * ports tell them apart.
   */
  default String address() {
    return null;
  }

  /**
   * The node's host clock against the harness's, measured now; null where the node runs on the
   * harness's own machine and clock.
   */
  default faultbed.results.RunRecord.Clock clock() {
    return null;
  }

  /** The port its ShuffleHandler serves map output on; per-node network faults match on it. */
  int shufflePort();

  /** The shuffle port reducers are told to fetch from: a proxy's when shuffle goes through one. */
  default int advertisedShufflePort() {
    return shufflePort();
  }

  List<String> localDirs();

  List<String> logDirs();

  /**
   * The node's disks of its own ({@code cluster.disks}), each holding one of its local dirs, log
   * dirs and DataNode volumes; empty when its dirs are folders of the machine's disk.
   */
  default List<faultbed.faults.NodeDisk> disks() {
    return List.of();
  }

  /**
   * The node's wall clock of its own ({@code cluster.clocks}), read by its daemons and containers;
   * empty when they read the machine's.
   */
  default java.util.Optional<faultbed.faults.NodeClock> ownClock() {
    return java.util.Optional.empty();
  }

  /** Where the node's DataNode keeps its blocks, on this machine; empty where faultbed cannot reach them. */
  default List<java.nio.file.Path> dataDirs() {
    return List.of();
  }

  /** Every process of every container of this node (members of its cgroup). */
  Set<Long> processes();

  /**
   * One process of the node: its pid on the node's host, its command line, and whether it is the
   * node's own daemon (its NodeManager, with the DataNode where they share a JVM) rather than part
   * of a container.
   */
  record Proc(long pid, String command, boolean daemon) {}

  /** Every process of the node, its daemon's among them where the node has one of its own. */
  List<Proc> processTable();

  /**
   * {@code pids}, processes of this node, stopped where they stand (SIGSTOP) until healed; each is
   * kept in the ledger of the node's host first, so a harness that dies leaves them to the next.
   */
  default faultbed.faults.Installed stopProcesses(faultbed.faults.Ledger ledger, String runId,
      java.util.Collection<Long> pids) {
    return faultbed.faults.StoppedProcesses.stop(ledger, runId, pids);
  }

  /**
   * What holds the node's processes, for the record: its group path (faultbed/<harness>/node-<i>,
   * the same in every cgroup hierarchy the host uses), or its container's name.
   */
  String cgroup();

  /** Every process of the node stopped where it stands until healed. */
  faultbed.faults.Installed freeze();

  /**
   * The node made slower, like a VM sharing its host: CPU time in cores per wall second, disk
   * throughput of its local folders in bytes per second; null leaves that resource alone.
   */
  faultbed.faults.Installed limit(Double cpuCores, Long readBytesPerSecond, Long writeBytesPerSecond);

  /** {@code count} CPU spinners competing with the node's containers under its limits. */
  faultbed.faults.Installed cpuSpinners(int count);

  /**
   * The node's memory limited to {@code bytes} until healed: the kernel reclaims down to it and
   * kills the node's largest process where it cannot (its OOM killer).
   */
  default faultbed.faults.Installed limitMemory(long bytes) {
    throw new faultbed.faults.PreconditionFailed("memory-pressure on " + this + ": this backend does not limit a"
        + " node's memory");
  }

  /** Bytes of memory the node's processes hold now, as its memory limit counts them. */
  default long memoryUsage() {
    throw new faultbed.faults.PreconditionFailed("memory-pressure on " + this + ": this backend does not measure a"
        + " node's memory");
  }

  /** A process holding {@code bytes} resident in the node, which the OOM killer spares where faultbed is root. */
  default faultbed.faults.Installed memoryHog(long bytes) {
    throw new faultbed.faults.PreconditionFailed("memory-pressure on " + this + ": this backend starts no memory hog"
        + " in a node");
  }

  /** {@code count} dd writers looping over the node's local folders; their files go on heal. */
  faultbed.faults.Installed diskWriters(faultbed.faults.Ledger ledger, String runId, int count, long blockBytes,
      long fileBytes, boolean direct);

  /** Every TCP port the node serves (shuffle, container manager, web), for network faults. */
  List<Integer> ports();

  /** Stops the node's heartbeats to the RM until {@link #resumeHeartbeats()}: the RM hears nothing. */
  void pauseHeartbeats();

  void resumeHeartbeats();

  /** False once a fault has taken the node down and until a reset brings it back. */
  boolean isUp();

  /** Attempt ids of the task containers running on this node now. */
  List<String> runningAttempts();

  /** Whether one of the job's reducers runs on this node now. */
  default boolean runsReducer() {
    return runningAttempts().stream().anyMatch(a -> a.contains("_r_"));
  }

  /** Whether a MapReduce ApplicationMaster runs on this node now. */
  boolean runsApplicationMaster();

  /**
   * Crashes the node: the RM is not told, its ports close, all its processes die at once, nothing
   * new launches. Returns what the injection observed.
   */
  java.util.Map<String, String> crash();

  /** Stops the node gracefully: containers killed, the RM told it is leaving. */
  java.util.Map<String, String> stopGracefully();
}
