package faultbed.harness.sim;

import faultbed.faults.DirectoryHealer;
import faultbed.faults.Ledger;
import faultbed.harness.Cluster;
import faultbed.harness.ClusterDefaults;
import faultbed.harness.ClusterSpec;
import faultbed.harness.Node;
import faultbed.harness.RunSpec;
import faultbed.harness.observe.RecordAssembly;
import faultbed.harness.observe.RunListener;
import faultbed.harness.timeline.FaultContext;
import faultbed.harness.timemodel.TimeModel;
import faultbed.harness.workload.Workload;
import faultbed.results.RunHistory;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.NodeInfo;
import faultbed.results.RunRecord.NodeTransition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * A simulated cluster: each run is one {@link Simulation} of the run's job, faults and speculator on
 * a cluster of {@code spec.nodes()} nodes, its times from the time model, assembled into the same
 * run record a real cluster gives (times from the job's start; the model's set-up time stands for
 * the AM's start). Configuration is faultbed's, as on the real backends: its defaults, the scenario's
 * settings, the time scale's timers. Nothing is started, so there is nothing to reset or heal.
 */
final class SimCluster implements Cluster {
  /** The cluster setting naming a model file; without it the shipped model times the runs. */
  static final String MODEL = "faultbed.sim.model";
  /**
   * The cluster setting that puts every node on one machine of this many cores, as faultbed's own
   * backends run a cluster (to simulate runs like theirs); without it each node is a machine of its
   * own with {@code nodeVcores} cores, as on a real cluster.
   */
  static final String SHARED_CORES = "faultbed.sim.shared-cores";
  /**
   * The cluster setting that gives each node's machine this many cores while YARN still offers
   * {@code nodeVcores} containers there: vcores are what a NodeManager advertises, not what its
   * machine has (the seeds' small EC2 VMs ran four task slots on one core). Without it each node
   * has {@code nodeVcores} cores.
   */
  static final String NODE_CORES = "faultbed.sim.node-cores";
  /**
   * The cluster setting that gives a variant random draws of its own (task work, the AM's node, fault
   * times and nodes), keyed by this label as well as the run's seed. Without it the variants of a
   * block share their draws (common random numbers), so a paired difference comes only from what the
   * variants change; with a label on one of two identical variants, their difference is the noise a
   * gate must not take for an effect.
   */
  static final String STREAM = "faultbed.sim.stream";
  /**
   * The cluster setting that says where each run's AM runs, by run index ("2,0,-,3"; "-" leaves it to
   * the draw): to replay a real suite, where the ResourceManager, not the AM, placed it.
   */
  static final String AM_NODES = "faultbed.sim.am-nodes";
  /**
   * The cluster setting that says which node each fault of each run strikes, to replay a real suite:
   * runs separated by commas, a run's steps by slashes, "-" for a step that chooses as the fault
   * driver does ("2/2,0/0,-"). A step that spares the AM's node keeps sparing it: the AM moves off a
   * node such a step strikes.
   */
  static final String FAULT_NODES = "faultbed.sim.fault-nodes";
  /**
   * The cluster setting that puts each run's ResourceManager liveness checks where a real run had
   * them: a time, in milliseconds since the job started, at which one check ran (a node's LOST
   * time), by run index ("53200,-,49800"; "-" leaves the grid's phase to the draw). The monitor
   * runs with the ResourceManager, not the job, so its phase is the cluster's, as the AM's node is.
   */
  static final String LIVENESS_CHECKS = "faultbed.sim.liveness-checks";
  /**
   * The cluster setting that gives each run's job set-up as a real run had it: from the job's start
   * to its first container's launch, in milliseconds, by run index ("3280,-,11118"; "-" takes the
   * model's). Before its first container a job has run nothing of what a scenario varies; the time
   * is the cluster's (the AM's start, the ResourceManager's first grant), and on a shared machine it
   * varies from run to run by more than any policy moves a job.
   */
  static final String SETUPS = "faultbed.sim.setups";
  /** Nodes per rack: a top-of-rack switch's worth, so a large cluster has racks as real ones do. */
  private static final int NODES_PER_RACK = 40;

  private final ClusterSpec spec;
  private final TimeModel model;
  private final String modelSource;
  private final Ledger ledger;
  private final Path workDir;
  private final Path stateDir;
  private final Configuration configuration;
  /** A real suite's placements this cluster replays ({@value #AM_NODES}, {@value #FAULT_NODES}), by run index. */
  private final Map<Integer, Integer> replayedAmNodes;
  private final Map<Integer, List<Integer>> replayedFaultNodes;
  private final Map<Integer, Long> replayedLivenessChecks;
  private final Map<Integer, Long> replayedSetups;
  private RunListener listener = new RunListener() { };

  SimCluster(ClusterSpec spec, Consumer<String> log) {
    this.spec = spec;
    this.model = model(spec);
    this.replayedAmNodes = amNodes(spec);
    this.replayedFaultNodes = faultNodes(spec);
    this.replayedLivenessChecks = livenessChecks(spec);
    this.replayedSetups = setups(spec);
    this.modelSource = spec.hadoop().getOrDefault(MODEL, "the default model");
    // the simulation's only trace on the machine is its working folder (the speculators' state, each
    // run's job files): in the ledger, so a JVM killed mid-suite leaves it to the next start to delete
    for (String healed : Ledger.healOrphans()) {
      log.accept("healed leftover: " + healed);
    }
    this.ledger = Ledger.open();
    try {
      this.workDir = Files.createTempDirectory("faultbed-sim-" + ledger.owner() + "-");
      ledger.record(DirectoryHealer.entry(workDir, "cluster"));
      this.stateDir = Files.createDirectories(workDir.resolve("state"));
    } catch (IOException | RuntimeException e) {
      ledger.close();
      throw e instanceof IOException io ? new UncheckedIOException("a working folder for the simulation", io)
          : (RuntimeException) e;
    }
    this.configuration = new Configuration(false);
    ClusterDefaults.apply(configuration, spec, stateDir);
    log.accept("simulated cluster of " + spec.nodes() + " nodes, times from " + model.name() + " (" + modelSource + ")");
  }

  /** The model {@code spec} names (cluster setting {@value #MODEL}), or the default. */
  static TimeModel model(ClusterSpec spec) {
    String file = spec.hadoop().get(MODEL);
    return file == null ? TimeModel.standard() : TimeModel.read(Path.of(file));
  }

  @Override
  public RunRecord run(RunSpec run) {
    Workload workload = run.workload();
    if (workload.concurrentJobs() > 1) {
      throw new IllegalArgumentException("workload.concurrentJobs: the simulation runs one job at a time; expected 1,"
          + " got " + workload.concurrentJobs());
    }
    TimeModel.WorkloadTimes times = model.workload(workload.type());
    Configuration job = new Configuration(configuration);
    run.speculation().jobSettings(spec, stateDir).forEach(job::set);
    Map<String, String> properties = new LinkedHashMap<>();
    job.forEach(e -> properties.put(e.getKey(), e.getValue()));
    Latencies latencies = ModelTimes.latencies(model, times,
        job.getLong(MRJobConfig.TASK_PROGRESS_REPORT_INTERVAL, 3_000),
        job.getLong(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, MRJobConfig.DEFAULT_MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS),
        job.getLong(YarnConfiguration.RM_NM_EXPIRY_INTERVAL_MS, YarnConfiguration.DEFAULT_RM_NM_EXPIRY_INTERVAL_MS),
        replayedSetups.getOrDefault(run.runIndex(), model.jobSetupMs()));
    long bytes = Long.parseLong(workload.parameters().getOrDefault("bytes", "0"));
    long bytesPerMap = workload.maps() > 0 ? bytes / workload.maps() : 0;
    SimulatedCluster cluster = SimulatedCluster.uniform(spec.nodes(), spec.slots() / spec.nodes(),
        Double.parseDouble(spec.hadoop().getOrDefault(NODE_CORES, Integer.toString(spec.nodeVcores()))), NODES_PER_RACK)
        .withDisks(spec.disks() == null ? 1 : spec.disks().count());
    long seed = seed(run.seed(), spec.hadoop().get(STREAM));
    SimulationSpec simulation = new SimulationSpec(cluster, workload.maps(), workload.reduces(), properties,
        ModelTimes.taskTimes(times, bytesPerMap, workload.maps(), workload.reduces(), seed), latencies, run.timeline(), slowdowns(model),
        Double.parseDouble(spec.hadoop().getOrDefault(SHARED_CORES, "0")),
        applicationMasterNode(run, seed, cluster), seed, run.runIndex(), spec.timeScale(),
        replayedFaultNodes.getOrDefault(run.runIndex(), List.of()), replayedLivenessChecks.get(run.runIndex()),
        bytesPerMap, shuffleBytes(times, bytesPerMap));

    listener.phase("simulating " + run.runId());
    String startedAt = Instant.now().toString();
    long wall = System.nanoTime();
    SimulationResult result = Simulation.run(simulation, workDir);
    long wallMs = (System.nanoTime() - wall) / 1_000_000;
    return record(run, job, cluster, result, startedAt, bytes, simulation.shuffleBytesPerMap(), wallMs,
        simulation.applicationMasterNode());
  }

  /**
   * Where the ResourceManager puts the AM: any node, as far as a job can tell; drawn from the run's
   * seed (a stream of its own), so the variants of a block have it on the same node.
   */
  /** The run's seed, or with a stream label a seed of that stream's own. */
  static long seed(long runSeed, String stream) {
    return stream == null ? runSeed : new java.util.SplittableRandom(runSeed ^ (long) stream.hashCode() << 32).nextLong();
  }

  /** The AM nodes {@value #AM_NODES} sets, by run index; throws IllegalArgumentException naming what is wrong. */
  static Map<Integer, Integer> amNodes(ClusterSpec spec) {
    Map<Integer, Integer> out = new java.util.HashMap<>();
    nodesByRun(spec, AM_NODES, "\"2,0,-,3\"").forEach((run, nodes) -> {
      if (nodes.size() != 1) {
        throw new IllegalArgumentException("expected one node index or \"-\" for each run, e.g. \"2,0,-,3\", got "
            + nodes.size() + " for run " + run);
      }
      if (nodes.get(0) != null) {
        out.put(run, nodes.get(0).intValue());
      }
    });
    return out;
  }

  /** The liveness check times {@value #LIVENESS_CHECKS} sets, by run index; throws IllegalArgumentException naming what is wrong. */
  static Map<Integer, Long> livenessChecks(ClusterSpec spec) {
    return millisByRun(spec, LIVENESS_CHECKS, "\"53200,-,49800\"");
  }

  /** The job set-ups {@value #SETUPS} sets, by run index; throws IllegalArgumentException naming what is wrong. */
  static Map<Integer, Long> setups(ClusterSpec spec) {
    return millisByRun(spec, SETUPS, "\"3280,-,11118\"");
  }

  /** The fault nodes {@value #FAULT_NODES} sets, by run index then step. */
  static Map<Integer, List<Integer>> faultNodes(ClusterSpec spec) {
    Map<Integer, List<Integer>> out = new java.util.HashMap<>();
    nodesByRun(spec, FAULT_NODES, "\"2/2,0/0,-\"").forEach((run, steps) ->
        out.put(run, steps.stream().map(n -> n == null ? null : n.intValue()).toList()));
    return out;
  }

  private static Map<Integer, List<Long>> nodesByRun(ClusterSpec spec, String key, String example) {
    return replayed(spec, key, spec.nodes(), "node indices below " + spec.nodes() + " or \"-\", e.g. " + example);
  }

  /** One time a run, "-" for none. */
  private static Map<Integer, Long> millisByRun(ClusterSpec spec, String key, String example) {
    String expected = "milliseconds since the job started or \"-\" for each run, e.g. " + example;
    Map<Integer, Long> out = new java.util.HashMap<>();
    replayed(spec, key, Long.MAX_VALUE, expected).forEach((run, steps) -> {
      if (steps.size() != 1) {
        throw new IllegalArgumentException("expected " + expected + ", got " + steps.size() + " values for run " + run);
      }
      if (steps.get(0) != null) {
        out.put(run, steps.get(0));
      }
    });
    return out;
  }

  /**
   * A replay setting's values: runs by commas, a run's steps by slashes, each a number below
   * {@code bound} or "-" (null); throws IllegalArgumentException saying what was {@code expected}.
   */
  private static Map<Integer, List<Long>> replayed(ClusterSpec spec, String key, long bound, String expected) {
    String value = spec.hadoop().get(key);
    Map<Integer, List<Long>> out = new java.util.HashMap<>();
    if (value == null) {
      return out;
    }
    String[] runs = value.split(",", -1);
    for (int i = 0; i < runs.length; i++) {
      List<Long> steps = new ArrayList<>();
      for (String entry : runs[i].split("/", -1)) {
        entry = entry.trim();
        if (entry.equals("-")) {
          steps.add(null);
          continue;
        }
        long n;
        try {
          n = Long.parseLong(entry);
        } catch (NumberFormatException e) {
          n = -1;
        }
        if (n < 0 || n >= bound) {
          throw new IllegalArgumentException("expected " + expected + ", got \"" + entry + "\" for run " + i);
        }
        steps.add(n);
      }
      out.put(i, steps);
    }
    return out;
  }

  /**
   * Where the run's AM goes: as {@value #AM_NODES} says, else drawn from the seed; off any node a
   * replayed fault that spares the AM strikes, which cannot have held it.
   */
  private int applicationMasterNode(RunSpec run, long seed, SimulatedCluster cluster) {
    int am = replayedAmNodes.getOrDefault(run.runIndex(), applicationMasterNode(seed, cluster));
    List<Integer> replayed = replayedFaultNodes.getOrDefault(run.runIndex(), List.of());
    java.util.Set<Integer> spared = new java.util.HashSet<>();
    List<faultbed.harness.timeline.Timeline.Step> steps = run.timeline().steps();
    for (int i = 0; i < steps.size() && i < replayed.size(); i++) {
      if (replayed.get(i) != null && steps.get(i).fault().target() instanceof faultbed.harness.timeline.Target.SparingAm) {
        spared.add(replayed.get(i));
      }
    }
    for (int k = 0; k < cluster.nodes().size() && spared.contains(am); k++) {
      am = (am + 1) % cluster.nodes().size();
    }
    return am;
  }

  private static int applicationMasterNode(long seed, SimulatedCluster cluster) {
    return new java.util.SplittableRandom(seed ^ 0x5DEECE66DL).nextInt(cluster.nodes().size());
  }

  /** What a map's output holds for the reduces, as the model knows it per input byte; 0 when it does not. */
  private static long shuffleBytes(TimeModel.WorkloadTimes times, long bytesPerMap) {
    Double ratio = times.shuffleBytesPerInputByte();
    return ratio == null || bytesPerMap <= 0 ? 0 : Math.round(ratio * bytesPerMap);
  }

  private RunRecord record(RunSpec run, Configuration job, SimulatedCluster cluster, SimulationResult result,
      String startedAt, long bytes, long shufflePerMap, long wallMs, int amNode) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < cluster.nodes().size(); i++) {
      int index = i;
      Long lost = result.nodeTransitions().stream().filter(t -> t.node() == index && t.to().equals("LOST"))
          .map(NodeTransition::atMs).findFirst().orElse(null);
      // with disks of their own (cluster.disks), a local folder a disk, named as faultbed's own nodes
      // name theirs, so a fit counts its disks alike
      List<String> localDirs = spec.disks() == null ? List.of() : java.util.stream.IntStream.range(0, cluster.node(i).disks())
          .mapToObj(d -> "/sim/node-" + index + "/disk-" + d + "/local").toList();
      nodes.add(new NodeInfo(i, cluster.node(i).address() + ":" + LiveNode.NM_PORT, 0, localDirs, List.of(), null, lost,
          null));
    }
    Map<String, Integer> byAddress = new LinkedHashMap<>();
    for (int i = 0; i < cluster.nodes().size(); i++) {
      byAddress.put(cluster.node(i).address(), i);
    }
    List<AttemptRecord> attempts = new ArrayList<>();
    int maps = run.workload().maps();
    int reduces = run.workload().reduces();
    for (SimulatedAttempt a : result.attempts()) {
      boolean succeeded = a.state().toString().equals("SUCCEEDED");
      // what it wrote for the reduces or fetched from the maps, as the history's counters have it
      Long shuffled = !succeeded || shufflePerMap <= 0 || reduces <= 0 ? null
          : a.type() == org.apache.hadoop.mapreduce.v2.api.records.TaskType.MAP ? shufflePerMap
          : shufflePerMap / reduces * maps;
      attempts.add(new AttemptRecord(a.attemptId(), a.taskId(), a.type().toString(),
          Integer.parseInt(a.attemptId().substring(a.attemptId().lastIndexOf('_') + 1)),
          a.node() == null ? null : byAddress.get(a.node()), a.node() == null ? null : a.node() + ":" + LiveNode.NM_PORT,
          null, time(a.start()), time(a.finish()), time(a.mapFinish()), time(a.shuffleFinish()), time(a.sortFinish()),
          a.state().toString(), a.speculative(), a.diagnostics(), 1, succeeded ? time(a.finish()) : null, null,
          a.progressClock(), shuffled));
    }
    attempts.sort(Comparator.comparing((AttemptRecord r) -> r.startMs() == null ? Long.MAX_VALUE : r.startMs())
        .thenComparing(AttemptRecord::attemptId));
    boolean succeeded = result.jobState().equals("SUCCEEDED");
    List<String> notes = new ArrayList<>(result.notes());
    notes.add("simulated: Hadoop's ApplicationMaster on a virtual clock, times from the model \"" + model.name()
        + "\" (" + modelSource + "; fitted from " + model.fittedFrom().runs() + " runs of "
        + model.fittedFrom().scenarios() + ")");
    if (spec.hadoop().get(STREAM) != null) {
      notes.add("simulated with random draws of its own: stream \"" + spec.hadoop().get(STREAM) + "\" (" + STREAM + ")");
    }
    RunHistory history = new RunHistory(run.runId(), run.scenario(), run.variant(), run.runIndex(), run.seed(),
        startedAt)
        .append(new RunHistory.ClusterSeen(info(), nodes))
        .append(new RunHistory.Configured(RecordAssembly.settingsInForce(job, spec.hadoop().keySet())))
        .append(new RunHistory.WorkloadMade(new RunRecord.WorkloadInfo(run.workload().type(),
            run.workload().parameters(), bytes, run.dataSeed())));
    result.faults().forEach(f -> history.append(new RunHistory.FaultRecorded(f)));
    result.nodeTransitions().forEach(t -> history.append(new RunHistory.NodeChanged(t)));
    notes.forEach(history::note);
    return history.append(new RunHistory.AttemptsRead(attempts))
        .append(new RunHistory.FetchFailuresRead(result.fetchFailures()))
        .append(new RunHistory.JobEnded(new RunRecord.JobOutcome(result.jobId(), result.jobState(), succeeded,
            Instant.parse(startedAt).toEpochMilli(), result.completionTime() < 0 ? null : result.completionTime(),
            run.workload().maps(), run.workload().reduces(),
            result.diagnostics().isEmpty() ? null : String.join("\n", result.diagnostics()))))
        .append(new RunHistory.Timed("simulate", wallMs))
        .append(new RunHistory.SpeculationRead(speculation(run, result)))
        .append(new RunHistory.AmAttemptsRead(List.of(new RunRecord.AmAttempt(1, amNode, cluster.node(amNode).address(),
            null, 0L))))
        .record();
  }

  private static RunRecord.Speculation speculation(RunSpec run, SimulationResult result) {
    if (run.speculation().kind().equals("off")) {
      return new RunRecord.Speculation("off", null, List.of());
    }
    String speculator = run.speculation().kind().equals("policy")
        ? faultbed.schedulers.yarn.PolicySpeculator.class.getName()
        : org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator.class.getName();
    return new RunRecord.Speculation(speculator, run.speculation().describe(), result.speculation());
  }

  private static Long time(long virtualMs) {
    return virtualMs < 0 ? null : virtualMs;
  }

  @Override
  public ClusterSpec spec() {
    return spec;
  }

  /** A simulated cluster has no node a fault could reach through the OS: its faults act inside the simulation. */
  @Override
  public List<? extends Node> nodes() {
    return List.of();
  }

  @Override
  public Configuration configuration() {
    return new Configuration(configuration);
  }

  @Override
  public Path stateDir() {
    return stateDir;
  }

  @Override
  public Map<String, String> nodeStates() {
    return Map.of();
  }

  @Override
  public String applicationState(String applicationId) {
    throw new UnsupportedOperationException("a simulated cluster has no ResourceManager to ask about " + applicationId);
  }

  @Override
  public FaultContext faultContext(String runId) {
    throw new UnsupportedOperationException("a simulated cluster's faults act inside the simulation, not on the OS");
  }

  @Override
  public RunRecord.ClusterInfo info() {
    return new RunRecord.ClusterInfo("sim", spec.nodes(), spec.nodeMemoryMb(), spec.nodeVcores());
  }

  @Override
  public Cluster listen(RunListener l) {
    this.listener = l;
    return this;
  }

  @Override
  public void reset() {
    // Nothing outlives a run but the speculators' state folder, which is meant to.
  }

  @Override
  public void close() {
    ledger.close(); // deletes the working folder
  }

  private static SimulatedFaults.Slowdowns slowdowns(TimeModel model) {
    return new SimulatedFaults.Slowdowns() {
      @Override
      public double of(java.util.Set<String> kinds) {
        return model.slowdown(kinds);
      }

      @Override
      public List<String> baseline() {
        return model.baseline();
      }
    };
  }
}
