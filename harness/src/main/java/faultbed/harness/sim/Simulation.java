package faultbed.harness.sim;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import faultbed.harness.observe.SpeculationLogReader;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.SpeculationEvent;
import faultbed.schedulers.yarn.PolicySpeculator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.mapreduce.split.JobSplit.TaskSplitMetaInfo;
import org.apache.hadoop.mapreduce.v2.api.records.Avataar;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.TaskHeartbeatHandler;
import org.apache.hadoop.mapreduce.v2.app.commit.CommitterEventType;
import org.apache.hadoop.mapreduce.v2.app.job.JobStateInternal;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobEventType;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobFinishEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobStartEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobTaskAttemptCompletedEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEventType;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskEventType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl;
import org.apache.hadoop.mapreduce.v2.app.launcher.ContainerLauncher;
import org.apache.hadoop.mapreduce.v2.app.metrics.MRAppMetrics;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator;
import org.apache.hadoop.mapreduce.v2.app.speculate.Speculator;
import org.apache.hadoop.mapreduce.v2.app.speculate.SpeculatorEvent;
import org.apache.hadoop.mapreduce.v2.util.MRApps;
import org.apache.hadoop.mapreduce.v2.util.MRBuilderUtils;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.event.EventHandler;

/**
 * Runs one MapReduce job with Hadoop 3.4.3's own ApplicationMaster classes (JobImpl, TaskImpl,
 * TaskAttemptImpl, DefaultSpeculator with the configured estimator, TaskHeartbeatHandler) on a
 * virtual clock in the calling thread. Hadoop decides; the simulated cluster (scheduler, node
 * managers, task processes, committer) only supplies what happens and when. Events are routed as
 * MRAppMaster.serviceInit routes them, and the job is initialised and started as MRAppMaster does.
 */
public final class Simulation {
  /** A fixed start time, so ids and times do not depend on the wall clock. */
  private static final long EPOCH = 1_000_000_000_000L;
  /** A job still running after this much virtual time is taken to be stuck. */
  private static final long VIRTUAL_TIME_LIMIT = 100L * 3_600_000L;
  private static final int REPLICAS = 3;
  private static final long SPLIT_BYTES = 128L << 20;

  private final SimulationSpec spec;
  private final VirtualClock clock = new VirtualClock(EPOCH);
  private final EventLoop loop = new EventLoop(clock);
  private final EventHandler<Event> events = loop.getEventHandler();
  private long jobStart;
  private long jobEnd = -1;

  private Simulation(SimulationSpec spec) {
    this.spec = spec;
  }

  /** Runs the job to its end; Hadoop's job files live in a temporary directory removed afterwards. */
  public static SimulationResult run(SimulationSpec spec) {
    return run(spec, null);
  }

  /** As {@link #run(SimulationSpec)}, the job files in a folder under {@code parent} (null: the temp folder). */
  public static SimulationResult run(SimulationSpec spec, Path parent) {
    Path staging = null;
    try {
      staging = parent == null ? Files.createTempDirectory("faultbed-sim") : Files.createTempDirectory(parent, "job");
      return new Simulation(spec).run(staging);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      deleteTree(staging);
    }
  }

  private SimulationResult run(Path staging) throws IOException {
    List<LiveNode> nodes = new ArrayList<>();
    Map<String, Integer> nodeIndex = new HashMap<>();
    Machine shared = spec.sharedCores() > 0 ? new Machine(spec.sharedCores()) : null;
    for (SimulatedNode node : spec.cluster().nodes()) {
      nodeIndex.put(node.address() + ":" + LiveNode.NM_PORT, nodes.size());
      LiveNode live = new LiveNode(node, nodes.size());
      (shared != null ? shared : new Machine(node.cores())).add(live);
      nodes.add(live);
      SimulatedRackMapping.place(node);
      // TaskAttemptImpl names a launched attempt's node with NetUtils.createSocketAddr(..).getHostName(),
      // a reverse DNS lookup for an address literal, unless NetUtils has it as a static resolution.
      NetUtils.addStaticResolution(node.address(), node.address());
    }
    // The AM's own container holds a slot on its node for the whole job.
    nodes.get(spec.applicationMasterNode()).freeSlots--;
    ApplicationId appId = ApplicationId.newInstance(EPOCH, 1);
    ApplicationAttemptId appAttemptId = ApplicationAttemptId.newInstance(appId, 1);
    JobId jobId = MRBuilderUtils.newJobId(appId, appId.getId());
    String user = System.getProperty("user.name");
    JobConf conf = jobConf(staging, user);
    writeJobXml(conf, user, jobId);

    SimulatedAppContext context = new SimulatedAppContext(appAttemptId, clock, events, user);
    context.getClusterInfo().setMaxContainerCapability(Resource.newInstance(8192, 8));
    // Lets every simulation in a JVM register the AM's metrics source again.
    DefaultMetricsSystem.setMiniClusterMode(true);
    TaskHeartbeatHandler heartbeats = new TaskHeartbeatHandler(events, clock, 1);
    heartbeats.init(conf);
    String[][] replicas = replicas(conf.getInt("dfs.replication", REPLICAS));
    SimulatedJob job = new SimulatedJob(jobId, appAttemptId, conf, events, new TaskListener(heartbeats), clock,
        MRAppMetrics.create(), new NoOutputCommitter(), user, context, splitsWithoutHosts(), spec.reduces());
    context.addJob(job);

    Containers containers = new Containers(appAttemptId);
    TaskProcesses.Data data = new TaskProcesses.Data(spec.inputBytesPerMap(),
        spec.reduces() > 0 ? spec.shuffleBytesPerMap() / spec.reduces() : 0, inputSource(replicas, nodes),
        outputReplicas(conf.getInt("dfs.replication", REPLICAS), nodes, spec.seed()));
    TaskProcesses processes = new TaskProcesses(loop, events, job, containers, spec.times(), spec.latencies(),
        heartbeats, spec.maps(), FetchRules.of(conf, spec.timeScale()), new Links(loop), data);
    // the liveness monitor started with the ResourceManager, at a phase of its period a job cannot know
    long livenessPhase = new java.util.SplittableRandom(spec.seed() ^ 0x1F3D5B79L)
        .nextLong(Math.max(1, spec.latencies().nodeExpiry() / 3));
    NodeManagers nodeManagers = new NodeManagers(loop, events, jobId, containers, processes, spec.latencies(),
        livenessPhase, conf.getLong(YarnConfiguration.CLIENT_NM_CONNECT_MAX_WAIT_MS,
            YarnConfiguration.DEFAULT_CLIENT_NM_CONNECT_MAX_WAIT_MS));
    context.setFinishingMonitor(nodeManagers.finishingMonitor());
    SlotAllocator allocator = new SlotAllocator(nodes, containers, job, conf, replicas, events, clock::getTime);
    PrivateHadoopCalls hadoop = new PrivateHadoopCalls(heartbeats);
    SpeculatorOnTheClock speculator = speculator(conf, context, hadoop);
    SimulatedFaults faults = new SimulatedFaults(loop, nodes, spec.applicationMasterNode(), processes, nodeManagers,
        job, spec.slowdowns(), spec.timeline(), spec.seed(), spec.runIndex(), spec.replayedFaultNodes());

    route(job, allocator, nodeManagers, new StandInCommitter(loop, events, jobId, spec.latencies()),
        speculator.speculator(), conf);
    List<SpeculationEvent> decisions = new ArrayList<>();
    loop.observe(event -> {
      if (event.getType() == JobEventType.JOB_TASK_ATTEMPT_COMPLETED) {
        processes.completionEvent(((JobTaskAttemptCompletedEvent) event).getCompletionEvent());
      } else if (event.getType() == TaskEventType.T_ADD_SPEC_ATTEMPT && speculator.logsNothing()) {
        decisions.add(backupAsked(job.getTask(((TaskEvent) event).getTaskID()), nodeIndex));
      }
    });

    // MRAppMaster.serviceStart initialises the job synchronously, then startJobs tells the
    // speculator the job exists and starts it.
    job.handle(new JobEvent(jobId, JobEventType.JOB_INIT));
    if (job.getInternalState() != JobStateInternal.INITED) {
      throw new IllegalStateException("the job did not initialise: " + job.getDiagnostics());
    }
    events.handle(new SpeculatorEvent(jobId, clock.getTime()));
    events.handle(new JobStartEvent(jobId, -1L));
    jobStart = clock.getTime();
    if (spec.livenessCheckMs() != null) {
      nodeManagers.livenessCheckAt(jobStart + spec.livenessCheckMs());
    }

    if (speculates(conf, TaskType.MAP) || speculates(conf, TaskType.REDUCE)) {
      loop.after(speculator.firstScanAfter(), () -> speculate(speculator));
    }
    faults.start(jobStart);
    repeat(spec.latencies().heartbeat(), allocator::heartbeat);
    long checkInterval = conf.getLong(MRJobConfig.TASK_TIMEOUT_CHECK_INTERVAL_MS, 30_000);
    repeat(checkInterval, () -> hadoop.checkHeartbeats(clock.getTime()));
    String stuck = loop.runUntil(() -> jobEnd >= 0, jobStart + VIRTUAL_TIME_LIMIT);
    faults.jobEnded();
    List<String> notes = new ArrayList<>();
    if (stuck != null) {
      // a simulation defect, kept in the record with what every unfinished task was doing
      List<String> unfinished = new ArrayList<>();
      for (Task task : job.getTasks().values()) {
        if (!task.isFinished()) {
          unfinished.add(task.getID() + " " + task.getState() + " " + task.getAttempts().values().stream()
              .map(a -> a.getID().getId() + ":" + a.getState()).sorted().toList());
        }
      }
      java.util.Collections.sort(unfinished);
      notes.add("the simulated job did not end: " + stuck + " (" + (clock.getTime() - jobStart) / 1000
          + " virtual s); unfinished: " + String.join("; ", unfinished));
    }
    List<RunRecord.FaultEvent> faultEvents = faults.events(notes);
    decisions.addAll(SpeculationLogReader.policyDecisions(speculator.logsNothing() ? List.of() : speculator.logLines(), nodeIndex, jobStart));
    decisions.sort(Comparator.comparingLong(SpeculationEvent::atMs));
    List<RunRecord.NodeTransition> transitions = nodeManagers.transitions.stream()
        .map(t -> new RunRecord.NodeTransition(t.node(), t.nodeId(), t.from(), t.to(), t.atMs() - jobStart)).toList();
    List<RunRecord.FetchFailureReport> fetchFailures = processes.fetchReports.stream()
        .map(r -> new RunRecord.FetchFailureReport(r.at() - jobStart, TypeConverter.fromYarn(r.reduce()).toString(),
            r.reduceNode(), TypeConverter.fromYarn(r.map()).toString(), r.mapNode())).toList();
    return new SimulationResult(TypeConverter.fromYarn(jobId).toString(), job.getState().toString(), jobEnd < 0 ? -1 : jobEnd - jobStart,
        attempts(job), faultEvents, decisions, transitions, fetchFailures, job.getDiagnostics(), notes);
  }

  /** Hadoop's DefaultSpeculator asked for a backup of {@code task}: the original is its attempt still running. */
  private SpeculationEvent backupAsked(Task task, Map<String, Integer> nodeIndex) {
    TaskAttempt original = task.getAttempts().values().stream().filter(a -> !a.isFinished())
        .min(Comparator.comparingInt(a -> a.getID().getId())).orElse(null);
    Map<String, Double> evidence = original == null || original.getLaunchTime() <= 0 ? Map.of()
        : Map.of("originalRunMs", (double) (clock.getTime() - original.getLaunchTime()));
    return new SpeculationEvent(clock.getTime() - jobStart, "backup", task.getID().toString(),
        original == null ? null : original.getID().toString(),
        original == null || original.getNodeId() == null ? null : nodeIndex.get(original.getNodeId().toString()),
        null, null, "DefaultSpeculator asked for a backup", evidence);
  }

  private JobConf jobConf(Path staging, String user) {
    JobConf conf = new JobConf();
    conf.set(MRJobConfig.MR_AM_STAGING_DIR, staging.toAbsolutePath().toString());
    conf.set(MRJobConfig.USER_NAME, user);
    conf.set(MRJobConfig.JOB_NAME, "simulated");
    conf.setInt(MRJobConfig.NUM_REDUCES, spec.reduces());
    conf.set("net.topology.node.switch.mapping.impl", SimulatedRackMapping.class.getName());
    spec.jobProperties().forEach(conf::set);
    return conf;
  }

  /** TaskAttemptImpl reads job.xml's status on its first container assignment, as in a submitted job. */
  private static void writeJobXml(JobConf conf, String user, JobId jobId) throws IOException {
    Path jobXml = Path.of(MRApps.getJobFile(conf, user, TypeConverter.fromYarn(jobId)));
    Files.createDirectories(jobXml.getParent());
    try (OutputStream out = Files.newOutputStream(jobXml)) {
      conf.writeXml(out);
    }
  }

  /** Where each map's split has its {@code copies} replicas, drawn from the cluster with the spec's seed. */
  private String[][] replicas(int copies) {
    SplittableRandom random = new SplittableRandom(spec.seed());
    List<SimulatedNode> nodes = spec.cluster().nodes();
    String[][] replicas = new String[spec.maps()][];
    for (int i = 0; i < replicas.length; i++) {
      replicas[i] = new String[Math.max(1, Math.min(copies, nodes.size()))];
      for (int r = 0; r < replicas[i].length; r++) {
        replicas[i][r] = nodes.get(random.nextInt(nodes.size())).address();
      }
    }
    return replicas;
  }

  /**
   * The replica a map's reader takes, as HDFS's client orders them: none when one is on the map's own
   * node (null), else the first in its rack, else the first.
   */
  private static java.util.function.BiFunction<Integer, LiveNode, LiveNode> inputSource(String[][] replicas,
      List<LiveNode> nodes) {
    Map<String, LiveNode> byAddress = new HashMap<>();
    nodes.forEach(n -> byAddress.put(n.node.address(), n));
    return (map, reader) -> {
      LiveNode nearest = null;
      for (String host : replicas[map]) {
        LiveNode replica = byAddress.get(host);
        if (replica == reader) {
          return null;
        }
        boolean inRack = replica.node.rack().equals(reader.node.rack());
        if (nearest == null || inRack && !nearest.node.rack().equals(reader.node.rack())) {
          nearest = replica;
        }
      }
      return nearest;
    };
  }

  /**
   * Where a reduce's output replicas go besides its own node: {@code replication - 1} other nodes,
   * alike likely (HDFS's default placement for a writer on a DataNode, racks aside), drawn per attempt
   * from the run's seed.
   */
  private static java.util.function.BiFunction<org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId, LiveNode,
      List<LiveNode>> outputReplicas(int replication, List<LiveNode> nodes, long seed) {
    return (attempt, writer) -> {
      List<LiveNode> others = new ArrayList<>(nodes);
      others.remove(writer);
      java.util.SplittableRandom random = new java.util.SplittableRandom(seed * 31 + attempt.toString().hashCode());
      List<LiveNode> chosen = new ArrayList<>();
      for (int i = 0; i < replication - 1 && !others.isEmpty(); i++) {
        chosen.add(others.remove(random.nextInt(others.size())));
      }
      return chosen;
    };
  }

  /**
   * Hadoop's splits carry no hosts: for a host that is an IP literal, TaskAttemptImpl.resolveHost
   * asks DNS for its name (a reverse lookup per replica per attempt, and per container), which
   * costs wall time and needs a resolver. Without hosts Hadoop skips it and records every attempt as
   * off-switch; the stand-in scheduler places maps by replica itself.
   */
  private TaskSplitMetaInfo[] splitsWithoutHosts() {
    TaskSplitMetaInfo[] splits = new TaskSplitMetaInfo[spec.maps()];
    Arrays.fill(splits, new TaskSplitMetaInfo(new String[0], 0L, SPLIT_BYTES));
    return splits;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void route(SimulatedJob job, SlotAllocator allocator, NodeManagers nodeManagers,
      StandInCommitter committer, Speculator speculator, JobConf conf) {
    loop.register(JobEventType.class, (EventHandler<JobEvent>) job::handle);
    loop.register(TaskEventType.class, (EventHandler<TaskEvent>) event ->
        ((EventHandler<TaskEvent>) job.getTask(event.getTaskID())).handle(event));
    loop.register(TaskAttemptEventType.class, (EventHandler<TaskAttemptEvent>) event -> {
      Task task = job.getTask(event.getTaskAttemptID().getTaskId());
      ((EventHandler<TaskAttemptEvent>) task.getAttempt(event.getTaskAttemptID())).handle(event);
    });
    loop.register(CommitterEventType.class, committer);
    loop.register(ContainerAllocator.EventType.class, allocator);
    loop.register(ContainerLauncher.EventType.class, nodeManagers);
    // Job history is not written; the result is read from the job's attempts instead.
    loop.register(org.apache.hadoop.mapreduce.jobhistory.EventType.class, (EventHandler) event -> { });
    loop.register(JobFinishEvent.Type.class, (EventHandler) event -> jobEnd = clock.getTime());
    boolean maps = speculates(conf, TaskType.MAP);
    boolean reduces = speculates(conf, TaskType.REDUCE);
    // As MRAppMaster.SpeculatorEventDispatcher: task events reach the speculator only for the
    // task types that speculate, job-wide events always.
    loop.register(Speculator.EventType.class, (EventHandler<SpeculatorEvent>) event -> {
      TaskType type = event.getTaskID() == null ? null : event.getTaskID().getTaskType();
      if (type == null ? maps || reduces : type == TaskType.MAP ? maps : reduces) {
        speculator.handle(event);
      }
    });
  }

  private static boolean speculates(JobConf conf, TaskType type) {
    return type == TaskType.MAP ? conf.getBoolean(MRJobConfig.MAP_SPECULATIVE, true)
        : conf.getBoolean(MRJobConfig.REDUCE_SPECULATIVE, true);
  }

  /** The speculator's own loop, on virtual time: scan, then wait as its thread would. */
  private void speculate(SpeculatorOnTheClock speculator) {
    if (jobEnd < 0) {
      loop.after(speculator.scan().getAsLong(), () -> speculate(speculator));
    }
  }

  /**
   * The job's speculator (yarn.app.mapreduce.am.job.speculator.class), made as MRAppMaster makes
   * it, with its scanning loop's body called on the virtual clock: Hadoop's DefaultSpeculator, or
   * faultbed's PolicySpeculator (whose decisions it keeps). Another class runs its own thread on the
   * wall clock, which a virtual clock cannot drive.
   */
  private SpeculatorOnTheClock speculator(JobConf conf, SimulatedAppContext context, PrivateHadoopCalls hadoop) {
    String name = conf.get(MRJobConfig.MR_AM_JOB_SPECULATOR, DefaultSpeculator.class.getName());
    if (name.equals(DefaultSpeculator.class.getName())) {
      DefaultSpeculator speculator = new DefaultSpeculator(conf, context, clock);
      speculator.init(conf);
      return new SpeculatorOnTheClock(speculator, speculator.getSoonestRetryAfterNoSpeculate(),
          () -> hadoop.computeSpeculations(speculator) > 0
              ? speculator.getSoonestRetryAfterSpeculate() : speculator.getSoonestRetryAfterNoSpeculate(), null);
    }
    if (name.equals(PolicySpeculator.class.getName())) {
      RecordingPolicySpeculator speculator = new RecordingPolicySpeculator(conf, context);
      speculator.init(conf);
      return new SpeculatorOnTheClock(speculator, speculator.scanIntervalMs(), () -> {
        speculator.scan();
        return speculator.scanIntervalMs();
      }, speculator.lines);
    }
    throw new IllegalArgumentException(MRJobConfig.MR_AM_JOB_SPECULATOR + ": the simulation drives "
        + DefaultSpeculator.class.getName() + " and " + PolicySpeculator.class.getName()
        + " on its clock; expected one of them, got " + name);
  }

  /** Whether the simulation can drive this speculator class on its clock. */
  static boolean drives(String speculatorClass) {
    return speculatorClass.equals(DefaultSpeculator.class.getName())
        || speculatorClass.equals(PolicySpeculator.class.getName());
  }

  /**
   * A speculator and the body of its scanning loop.
   *
   * @param scan     one scan; returns how long the speculator's thread would wait before the next
   * @param logLines the decision lines it writes, or null when its backups are known only from the
   *                 tasks' events (DefaultSpeculator's log says little)
   */
  private record SpeculatorOnTheClock(Speculator speculator, long firstScanAfter, LongSupplier scan,
      List<String> logLines) {
    boolean logsNothing() {
      return logLines == null;
    }
  }

  /** faultbed's PolicySpeculator with its decision lines kept rather than logged. */
  private static final class RecordingPolicySpeculator extends PolicySpeculator {
    private List<String> lines = new ArrayList<>();

    RecordingPolicySpeculator(Configuration conf, AppContext context) {
      super(conf, context);
    }

    @Override
    protected void decided(String line) {
      if (lines != null) { // null while the superclass's constructor runs: its "configured" line is not a decision
        lines.add(line);
      }
    }
  }

  private void repeat(long interval, Runnable action) {
    loop.after(interval, () -> {
      action.run();
      repeat(interval, action);
    });
  }

  private List<SimulatedAttempt> attempts(SimulatedJob job) {
    List<SimulatedAttempt> records = new ArrayList<>();
    List<Task> tasks = new ArrayList<>(job.getTasks().values());
    tasks.sort(Comparator.comparing((Task t) -> t.getID().getTaskType()).thenComparingInt(t -> t.getID().getId()));
    for (Task task : tasks) {
      List<TaskAttempt> attempts = new ArrayList<>(task.getAttempts().values());
      attempts.sort(Comparator.comparingInt(a -> a.getID().getId()));
      for (TaskAttempt attempt : attempts) {
        List<String> diagnostics = attempt.getDiagnostics();
        TaskAttemptImpl impl = (TaskAttemptImpl) attempt;
        records.add(new SimulatedAttempt(task.getID().toString(), attempt.getID().toString(),
            task.getType(), attempt.getNodeId() == null ? null : attempt.getNodeId().getHost(),
            sinceStart(attempt.getLaunchTime()), sinceStart(attempt.getFinishTime()),
            sinceStart(PrivateHadoopCalls.mapFinishTime(impl)),
            sinceStart(attempt.getShuffleFinishTime()), sinceStart(attempt.getSortFinishTime()), attempt.getState(),
            impl.getAvataar() == Avataar.SPECULATIVE,
            diagnostics == null || diagnostics.isEmpty() ? null : String.join("; ", diagnostics),
            PrivateHadoopCalls.progressClock(impl)));
      }
    }
    return records;
  }

  private long sinceStart(long time) {
    return time > 0 ? time - jobStart : -1;
  }

  private static void deleteTree(Path root) {
    if (root == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("removing " + root, e);
    }
  }
}
