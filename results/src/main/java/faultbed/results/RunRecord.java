package faultbed.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything one run of a workload under a fault timeline left behind, saved before any analysis so
 * it can be re-analysed later without a cluster. Times ending in {@code Ms} are milliseconds since
 * job submission on the harness's monotonic clock unless the name says epoch. {@code job} is the
 * measured job; {@code companionJobs} are the copies that ran beside it (seed 003's concurrent jobs),
 * timed from the measured job's submission. {@code block} places the run in a suite's design (null
 * when it was not run in blocks).
 *
 * <p>Built with named parts ({@link #builder()}); the canonical constructor is for reading records.
 */
@RecordBuilder
public record RunRecord(
    int schemaVersion,
    String runId,
    String scenario,
    String variant,
    int runIndex,
    long seed,
    String startedAt,
    ClusterInfo cluster,
    Map<String, String> hadoop,
    WorkloadInfo workload,
    List<NodeInfo> nodes,
    List<FaultEvent> faults,
    List<NodeTransition> nodeTransitions,
    List<AttemptRecord> attempts,
    List<FetchFailureReport> fetchFailures,
    JobOutcome job,
    Map<String, Long> harnessMs,
    List<String> notes,
    Speculation speculation,
    TimeScale timeScale,
    List<JobOutcome> companionJobs,
    Block block,
    Provenance provenance,
    List<AmAttempt> amAttempts,
    OutputCheck outputCheck,
    Placement placement,
    List<SlowReport> slowReports,
    String stealing,
    List<CpuShare> cpuShares,
    String mapPlacement,
    List<PlacementEvent> placementEvents,
    List<LinkRate> linkRates) {

  /**
   * The record's shape. 1: the first records; 2: every field added since (attempts' map-finish and
   * progress clocks, AM attempts, output check, provenance, blocks, companion jobs and the rest,
   * all optional); 3: where the run pinned its AM and reduces ({@code placement}, optional); 4: the
   * bytes each attempt gave or took in the shuffle (attempts' {@code shuffleBytes}, optional); 5: the
   * nodes and disks HDFS's NameNode named slow during the run ({@code slowReports}, optional); 6: how
   * the job's maps shared their nodes' CPU ({@code stealing}: the policy's name, absent when they were
   * not held) and the CPU shares they were held to and used ({@code cpuShares}), both optional; 7: which
   * policy gave the job's maps their containers ({@code mapPlacement}: a network-aware policy's name,
   * absent when Hadoop's ApplicationMaster chose), what it decided ({@code placementEvents}) and the
   * link bandwidths it saw ({@code linkRates}), all optional. This
   * faultbed reads every version up to this one: a field a record lacks reads as absent.
   * RecordShapeTest holds the number to the shape: a changed record must raise it.
   */
  public static final int SCHEMA_VERSION = 7;

  public RunRecord {
    if (schemaVersion > SCHEMA_VERSION) {
      throw new IllegalArgumentException("schemaVersion: the record is of version " + schemaVersion
          + ", newer than this faultbed reads (1 to " + SCHEMA_VERSION + "): read it with a newer faultbed");
    }
    hadoop = hadoop == null ? Map.of() : Map.copyOf(hadoop);
    harnessMs = harnessMs == null ? Map.of() : Map.copyOf(harnessMs);
    nodes = copy(nodes);
    faults = copy(faults);
    nodeTransitions = copy(nodeTransitions);
    attempts = copy(attempts);
    fetchFailures = copy(fetchFailures);
    notes = copy(notes);
    companionJobs = copy(companionJobs);
    amAttempts = copy(amAttempts);
    slowReports = copy(slowReports);
    cpuShares = copy(cpuShares);
    placementEvents = copy(placementEvents);
    linkRates = copy(linkRates);
  }

  /** A record of this schema version, its parts named one by one. */
  public static RunRecordBuilder builder() {
    return RunRecordBuilder.builder().schemaVersion(SCHEMA_VERSION);
  }

  /** The same record placed in a suite's design. */
  public RunRecord inBlock(Block b) {
    return RunRecordBuilder.builder(this).block(b).build();
  }

  /** The same record with where and with what it was made. */
  public RunRecord withProvenance(Provenance p) {
    return RunRecordBuilder.builder(this).provenance(p).build();
  }

  private static <T> List<T> copy(List<T> l) {
    return l == null ? List.of() : List.copyOf(l);
  }

  /** The node with this index as it was in this run. */
  public NodeInfo node(int index) {
    return nodes.stream().filter(n -> n.index() == index).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("run " + runId + " has no node " + index));
  }

  /** Attempts that are not the first of their task: re-executions and speculative copies. */
  @JsonIgnore
  public List<AttemptRecord> reexecutedAttempts() {
    return attempts.stream().filter(a -> a.attempt() > 0).toList();
  }

  @JsonIgnore
  public Optional<Double> completionSeconds() {
    return job == null || job.finishedMs() == null ? Optional.empty()
        : Optional.of(job.finishedMs() / 1000.0);
  }

  // harnessMs: wall time the harness spent around the job (prepare, submit, collect), for overhead figures.

  /**
   * A host's clock minus the harness's, in milliseconds, from the shortest of a few round trips
   * ({@code roundTripMs}); the offset is within half the round trip.
   */
  public record Clock(long offsetMs, double roundTripMs) {}

  /**
   * Where the run pinned parts of its job (cluster.pin): the nodes chosen from its seed, the same
   * for every variant of a block, and each move a fault forced by stopping a pinned node. Absent
   * when nothing was pinned.
   *
   * @param applicationMaster the AM's node; null when the AM was not pinned
   * @param reduces the reduces' nodes; empty when they were not pinned
   */
  public record Placement(Integer applicationMaster, List<Integer> reduces, List<Move> moves) {
    public Placement {
      reduces = copy(reduces);
      moves = copy(moves);
    }

    /** A pinned part moved off node {@code from}, stopped by a fault {@code atMs} into the run, to {@code to}. */
    public record Move(String part, int from, Integer to, long atMs) {}
  }

  /**
   * One decision of a network-aware placement policy in the ApplicationMaster (the scenario's
   * {@code placement}): a container given to a task, or released because no waiting task preferred
   * its node.
   *
   * @param atMs       when, after submission, on the AM's clock
   * @param event      "assigned" or "released"
   * @param type       MAP or REDUCE
   * @param node       the container's node
   * @param attempt    the map attempt given it (null for a release, and for a reduce: Hadoop gives it its
   *                   oldest reduce, which the attempts' containers name)
   * @param expectedMs the expected completion (seed 002's CT) of the map given it, or of the reduces on
   *                   their preferred node when released; null when not computed
   * @param candidates the maps whose preferred node this was; null for reduces
   * @param preferred  a released reduce container: the node the reduces would finish first on
   * @param reason     why, in words
   */
  public record PlacementEvent(long atMs, String event, String type, Integer node, String attempt, Double expectedMs,
      Integer candidates, Integer preferred, String reason) {}

  /**
   * A link's bandwidth as the nodes' probes forecast it, as the ApplicationMaster saw it {@code atMs}
   * after submission; data flows from node {@code from} to node {@code to}.
   */
  public record LinkRate(long atMs, int from, int to, double bytesPerSecond) {}

  /** The cluster as the run saw it. */
  public record ClusterInfo(String backend, int nodes, int nodeMemoryMb, int nodeVcores) {}

  /** Workload type, its parameters, and the bytes of input it read. */
  public record WorkloadInfo(String type, Map<String, String> parameters, long inputBytes, long dataSeed) {
    public WorkloadInfo {
      parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
    }
  }

  /**
   * One NodeManager slot. {@code lostAtMs} is when the RM first reported it LOST in this run.
   * {@code clock} is its host's clock against the harness's, measured as the run began; null where
   * the node shares the harness's clock (every backend but the remote one).
   */
  public record NodeInfo(int index, String nodeId, int shufflePort, List<String> localDirs,
      List<String> logDirs, String cgroup, Long lostAtMs, Clock clock) {
    public NodeInfo {
      localDirs = localDirs == null ? List.of() : List.copyOf(localDirs);
      logDirs = logDirs == null ? List.of() : List.copyOf(logDirs);
    }

    @JsonIgnore
    public Optional<Long> lostAt() {
      return Optional.ofNullable(lostAtMs);
    }
  }

  /**
   * One fault as scheduled and as it happened. {@code scheduledMs} is null for event triggers
   * (there is no time until the event occurs); {@code detail} holds what the injection observed;
   * {@code effect} is what its kind does to a node, as the kind declared it (in records written
   * before it was recorded, as {@link FaultEffect#ofOldRecord} maps the kind).
   */
  public record FaultEvent(String kind, int node, String target, String trigger, Long scheduledMs,
      Long injectedMs, Long healedMs, Map<String, String> detail, FaultEffect effect) {
    public FaultEvent {
      detail = detail == null ? Map.of() : Map.copyOf(detail);
      effect = effect != null ? effect : FaultEffect.ofOldRecord(kind);
    }

    /** A fault of a kind faultbed knew before records carried their effect. */
    public FaultEvent(String kind, int node, String target, String trigger, Long scheduledMs, Long injectedMs,
        Long healedMs, Map<String, String> detail) {
      this(kind, node, target, trigger, scheduledMs, injectedMs, healedMs, detail, null);
    }
  }

  /** A change of a node's state as the ResourceManager reported it. */
  public record NodeTransition(int node, String nodeId, String from, String to, long atMs) {}

  /**
   * A node or one of its disks the NameNode named slow (HDFS's slow-peer and slow-disk reports,
   * which its DataNodes send when their outlier detection is on): from when the harness first saw it
   * in the report, until it left it (null: still there when the run ended).
   *
   * @param node the node's index, -1 when no node of the cluster has the DataNode's address
   * @param what {@code "peer"}: a DataNode its pipeline upstreams found slow to take packets;
   *     {@code "disk"}: a volume of it slower than its other volumes
   * @param dataNode the DataNode as the report names it (ip:port)
   * @param detail for a peer, the reporting DataNodes and the latencies they saw; for a disk, its
   *     volume and its latencies by operation
   */
  public record SlowReport(int node, String what, String dataNode, String detail, long atMs, Long clearedMs) {
    public static final String PEER = "peer";
    public static final String DISK = "disk";
  }

  /**
   * A span of time a container was held to one CPU share (a run whose job asked for it: see the
   * scenario's {@code stealing}), read from its cgroup, and the CPU it used in that span.
   *
   * @param node      the node it ran on
   * @param container its YARN container id
   * @param fromMs    when the share was first seen (ms after the run's origin)
   * @param toMs      when it was last seen at that share
   * @param cores     its CPU quota, in cores
   * @param usedCores the CPU it used over the span, in cores (CPU time over the span's length)
   */
  public record CpuShare(int node, String container, long fromMs, long toMs, double cores, double usedCores) {}

  /**
   * One task attempt, from the job history files of every AM attempt. Times are null when the
   * attempt never reached them; {@code state} is null when its AM died while it ran (the history of
   * that AM attempt ends there). {@code amAttempt} is the AM attempt (1, 2, ...) whose history
   * holds it; null in records written before it was recorded. {@code succeededMs} is when the
   * attempt reported success, whatever became of it after: a map whose node was lost while the AM
   * still waited for its container to exit is killed then, and its end times are the kill's (the
   * history parser overwrites them), though its output was complete and served from here on; null
   * when it never succeeded, and in records written before it was recorded. {@code locality} is
   * where a map ran relative to its input split, as the AM logged it when it started the attempt:
   * {@code NODE_LOCAL}, {@code RACK_LOCAL} or {@code OFF_SWITCH}; null for reduces and in records
   * written before it was recorded. {@code progressClockMs} is the wall-clock time the attempt spent
   * in each twelfth of its progress, from its launch, as its AM measured it from the attempt's
   * status reports (Hadoop's progress splits, written to the history when the attempt ended): only
   * the twelfths it completed, so a killed attempt's list is shorter. It is how far along an attempt
   * was at any moment, which is what Hadoop's speculator weighs; null when its AM died first and in
   * records written before it was recorded. {@code shuffleBytes} is what the shuffle moves of it,
   * as its counters say: a map's output as written for the reducers to fetch
   * ({@code MAP_OUTPUT_MATERIALIZED_BYTES}), what a reduce fetched ({@code REDUCE_SHUFFLE_BYTES});
   * null when the history has no counters for it (it did not finish) and in records before version 4.
   */
  public record AttemptRecord(String attemptId, String taskId, String type, int attempt, Integer node,
      String host, String container, Long startMs, Long finishMs, Long mapFinishMs,
      Long shuffleFinishMs, Long sortFinishMs, String state, boolean speculative, String error,
      Integer amAttempt, Long succeededMs, String locality, List<Integer> progressClockMs, Long shuffleBytes) {
    public AttemptRecord {
      progressClockMs = progressClockMs == null ? null : List.copyOf(progressClockMs);
    }

    /** An attempt whose shuffled bytes are not known. */
    public AttemptRecord(String attemptId, String taskId, String type, int attempt, Integer node, String host,
        String container, Long startMs, Long finishMs, Long mapFinishMs, Long shuffleFinishMs, Long sortFinishMs,
        String state, boolean speculative, String error, Integer amAttempt, Long succeededMs, String locality,
        List<Integer> progressClockMs) {
      this(attemptId, taskId, type, attempt, node, host, container, startMs, finishMs, mapFinishMs, shuffleFinishMs,
          sortFinishMs, state, speculative, error, amAttempt, succeededMs, locality, progressClockMs, null);
    }

    /** An attempt whose progress over time is not known. */
    public AttemptRecord(String attemptId, String taskId, String type, int attempt, Integer node, String host,
        String container, Long startMs, Long finishMs, Long mapFinishMs, Long shuffleFinishMs, Long sortFinishMs,
        String state, boolean speculative, String error, Integer amAttempt, Long succeededMs, String locality) {
      this(attemptId, taskId, type, attempt, node, host, container, startMs, finishMs, mapFinishMs, shuffleFinishMs,
          sortFinishMs, state, speculative, error, amAttempt, succeededMs, locality, null, null);
    }

    /** An attempt whose locality is not known (a reduce, or a record from before it was kept). */
    public AttemptRecord(String attemptId, String taskId, String type, int attempt, Integer node, String host,
        String container, Long startMs, Long finishMs, Long mapFinishMs, Long shuffleFinishMs, Long sortFinishMs,
        String state, boolean speculative, String error, Integer amAttempt, Long succeededMs) {
      this(attemptId, taskId, type, attempt, node, host, container, startMs, finishMs, mapFinishMs, shuffleFinishMs,
          sortFinishMs, state, speculative, error, amAttempt, succeededMs, null);
    }

    /**
     * Whether the attempt's work was done by {@code t}: it had reported success (or, in records
     * without {@code succeededMs}, ended by then other than FAILED).
     */
    @JsonIgnore
    public boolean doneBy(long t) {
      if (succeededMs != null) {
        return succeededMs <= t;
      }
      return finishMs != null && finishMs <= t && !"FAILED".equals(state);
    }
  }

  /**
   * One attempt of the job's MapReduce ApplicationMaster, from the job history: which attempt, the
   * node and container it ran in, and when it started. More than one means the AM was lost and
   * restarted. Empty in records written before AM attempts were recorded.
   */
  public record AmAttempt(int attempt, Integer node, String host, String container, Long startMs) {}

  /**
   * Whether the job's output was right and how that was checked: {@code method} names the check,
   * {@code detail} what it counted or the first thing it found wrong. A job whose output is wrong
   * is recorded as failed ({@code job.succeeded} false). Null in records written before outputs
   * were checked.
   */
  public record OutputCheck(String method, boolean correct, String detail) {}

  /** Whether the job's ApplicationMaster was lost and restarted in this run. */
  @JsonIgnore
  public boolean amRestarted() {
    return amAttempts.size() > 1;
  }

  /** A reducer telling the AM it could not fetch a map's output (from the reducer's shuffle log). */
  public record FetchFailureReport(long atMs, String reduceAttempt, Integer reduceNode,
      String mapAttempt, Integer mapNode) {}

  /**
   * Speculative execution in this run: the speculator in force ("off" when none) and, in order,
   * every backup it asked for and every placement its policy judged. Null in records written
   * before speculation was recorded.
   */
  public record Speculation(String speculator, String policy, List<SpeculationEvent> events) {
    public Speculation {
      events = events == null ? List.of() : List.copyOf(events);
    }
  }

  /**
   * Where and with what a run was made, so runs from different machines or versions are told apart
   * when re-analysed: the host (name, kernel, cgroup layout, cores, memory), the JVM, Hadoop's and
   * faultbed's versions, the commit faultbed was built from ("-dirty" when its tree had changes),
   * and the SHA-256 of the scenario file's bytes. Null in records written before it was recorded.
   */
  public record Provenance(String host, String kernel, String cgroups, int cores, long memoryMb, String java,
      String hadoop, String faultbed, String commit, String scenarioSha256) {}

  /**
   * One entry of a speculator's decision log. {@code event} is "backup" (a task was given a backup;
   * {@code attempt}/{@code node} name the original it races) or "placed" (YARN put a backup on
   * {@code node}; {@code accepted} says whether the policy counted that node fast enough, and
   * {@code killed} whether the backup was killed so Hadoop would ask for another container).
   */
  public record SpeculationEvent(long atMs, String event, String task, String attempt, Integer node,
      Boolean accepted, Boolean killed, String reason, Map<String, Double> evidence) {
    public SpeculationEvent {
      evidence = evidence == null ? Map.of() : Map.copyOf(evidence);
    }
  }

  /**
   * Time compression in force: the factor, every timer with its value and how it was set (scaled,
   * floored, set by the scenario, rewritten by the agent), and what could not be scaled. Null in
   * records written before time compression was recorded. {@code agent} is what the time-scale
   * agent said in the run's container JVMs, each line with how many JVMs said it (its installation,
   * each constant it rewrote, any it did not find): empty when no agent ran or in older records.
   */
  public record TimeScale(double factor, Map<String, String> timers, List<String> unscaled,
      Map<String, Integer> agent) {
    public TimeScale {
      timers = timers == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(timers));
      unscaled = unscaled == null ? List.of() : List.copyOf(unscaled);
      agent = agent == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(agent));
    }
  }

  /**
   * Where a run sat in a randomized complete block design: block {@code index} holds one run of
   * each of {@code size} variants, in a shuffled order; this run was number {@code position}
   * (from 0). Runs of one block share a seed and so their fault draw: they are pairs.
   */
  public record Block(int index, int position, int size) {}

  /** How the job ended. {@code finishedMs} is its completion time: submission to finish. */
  public record JobOutcome(String jobId, String state, boolean succeeded, long submittedEpochMs,
      Long finishedMs, int maps, int reduces, String diagnostics) {}
}
