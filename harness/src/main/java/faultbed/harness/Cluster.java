package faultbed.harness;

import faultbed.results.RunRecord;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * A running Hadoop cluster the harness can run workloads on and break. Reused across the runs of a
 * suite: {@link #reset()} restores whatever a fault broke.
 */
public interface Cluster extends AutoCloseable {
  ClusterSpec spec();

  List<? extends Node> nodes();

  default Node node(int index) {
    if (index < 0 || index >= nodes().size()) {
      throw new IllegalArgumentException("node index " + index + " out of range 0.." + (nodes().size() - 1));
    }
    return nodes().get(index);
  }

  /** The configuration clients submit jobs with; it holds every Hadoop setting in force. */
  Configuration configuration();

  /**
   * A folder that lives as long as the cluster, for what a speculation policy carries from one job
   * to the next (SAMR's per-node history).
   */
  java.nio.file.Path stateDir();

  /** The ResourceManager's view: NodeId to node state, active and inactive nodes alike. */
  Map<String, String> nodeStates();

  /** The containers its nodes hold to a CPU share now; none where no node holds any. */
  default List<CgroupNode.ContainerCpu> containerCpu() {
    List<CgroupNode.ContainerCpu> out = new java.util.ArrayList<>();
    for (Node n : nodes()) {
      if (n instanceof CgroupNode c) {
        out.addAll(c.containerCpu());
      }
    }
    return out;
  }

  /**
   * The NameNode's slow-peer and slow-disk reports now. None where the backend does not give them:
   * the NameNode is not faultbed's (remote, sim), or its DataNodes share one address, by which the
   * reports name them (mini).
   */
  default faultbed.harness.observe.SlowReportWatcher.Reports slowReports() {
    return faultbed.harness.observe.SlowReportWatcher.Reports.NONE;
  }

  /**
   * The ResourceManager's state of an application (e.g. RUNNING, FINISHED, FAILED), asked of the RM
   * directly: unlike the job client, this does not hang while the job's AM is on a dead node.
   */
  String applicationState(String applicationId);

  /** The OS backends and tags faults of run {@code runId} work with. */
  faultbed.harness.timeline.FaultContext faultContext(String runId);

  /** Backend name and node sizes, for the run record. */
  RunRecord.ClusterInfo info();

  /** Where progress of the next runs is reported. */
  Cluster listen(faultbed.harness.observe.RunListener listener);

  /** Runs one workload under one fault timeline and returns its record. */
  RunRecord run(RunSpec spec);

  /** Shorthand for a run outside any scenario. */
  default RunRecord run(faultbed.harness.workload.Workload workload, faultbed.harness.timeline.Timeline timeline) {
    return run(RunSpec.of(workload, timeline));
  }

  /**
   * Brings an application's container logs to where the nodes' {@link Node#logDirs()} point, for
   * backends whose nodes write them elsewhere; a no-op where they are already there.
   */
  default void gatherLogs(String applicationId) {}

  /**
   * The record of {@code applicationId}'s job is assembled: what the cluster kept of the job only so
   * that the record could be read (its container logs where the harness reads them; on a cluster of
   * faultbed's own, its history files) goes at the next run or reset (until then the last run's can
   * still be read), so that a long suite's disk, NameNode and history listing stay as they were. A
   * no-op where nothing is kept.
   */
  default void recorded(String applicationId) {}

  /**
   * A job of the harness runs on the cluster from now until {@link #finished}: a backend whose
   * cluster outlives the harness writes it down, so that a job a killed harness left running is
   * killed at the next start. A no-op where the cluster dies with the harness.
   */
  default void submitted(String applicationId) {}

  /** The job {@link #submitted} has ended. */
  default void finished(String applicationId) {}

  /**
   * Chooses from {@code seed} the nodes {@code parts} of a job of {@code reduces} reduces run on (see
   * {@link Pin}) and labels them, every other node losing its label; nothing when no part is pinned.
   */
  default PinnedNodes pin(java.util.Set<Pin> parts, long seed, int reduces) {
    if (!parts.isEmpty()) {
      throw new UnsupportedOperationException("this cluster cannot pin parts of a job");
    }
    return PinnedNodes.NONE;
  }

  /**
   * Empty while every part the harness runs beside the nodes answers (a Toxiproxy server the
   * shuffle goes through, the containers nodes live in); otherwise one line saying which stopped.
   * No run can go on without it.
   */
  default java.util.Optional<String> partStopped() {
    return java.util.Optional.empty();
  }

  /** Restores what faults broke (crashed nodes, leftover containers) so the next run starts clean. */

  void reset();

  @Override
  void close();
}
