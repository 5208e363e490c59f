package faultbed.harness.observe;

import faultbed.harness.Cluster;
import faultbed.harness.HarnessException;
import faultbed.harness.Node;
import faultbed.harness.RunSpec;
import faultbed.harness.timeline.Injection;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.NodeStop;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline.Step;
import faultbed.harness.timeline.Trigger;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.FaultEvent;
import faultbed.results.RunRecord.NodeInfo;
import faultbed.results.RunRecord.NodeTransition;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.apache.hadoop.mapred.TIPStatus;

/**
 * Runs one workload under one fault timeline on a cluster and turns what happened into a
 * {@link RunRecord}: submit, fire each fault when its trigger and target are ready, watch the
 * job and the RM's node states, then read the history file and the reducers' shuffle logs.
 */
public final class RunExecutor {
  private static final long POLL_MS = 100;

  /** Settings recorded in every run whether the scenario set them or not: the ones faults interact with. */
  static final List<String> RECORDED_SETTINGS = List.of(
      "yarn.nm.liveness-monitor.expiry-interval-ms",
      "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms",
      "yarn.client.nodemanager-connect.max-wait-ms",
      "yarn.client.nodemanager-connect.retry-interval-ms",
      "yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms",
      "mapreduce.reduce.shuffle.connect.timeout",
      "mapreduce.reduce.shuffle.read.timeout",
      "mapreduce.reduce.shuffle.retry-delay.max.ms",
      "mapreduce.reduce.shuffle.maxfetchfailures",
      "mapreduce.reduce.shuffle.max-host-failures",
      "mapreduce.reduce.shuffle.max-fetch-failures-notifications",
      "mapreduce.reduce.shuffle.max-fetch-failures-fraction",
      "mapreduce.reduce.shuffle.notify.readerror",
      "mapreduce.task.timeout",
      "mapreduce.map.maxattempts",
      "mapreduce.reduce.maxattempts",
      "mapreduce.am.max-attempts",
      "mapreduce.map.speculative",
      "mapreduce.reduce.speculative",
      "yarn.app.mapreduce.am.job.speculator.class",
      "yarn.app.mapreduce.am.job.task.estimator.class",
      "mapreduce.job.speculative.retry-after-no-speculate",
      "mapreduce.job.speculative.retry-after-speculate",
      "mapreduce.job.reduce.slowstart.completedmaps",
      "yarn.app.mapreduce.am.job.node-blacklisting.enable",
      "mapreduce.job.reducer.unconditional-preempt.delay.sec",
      "mapreduce.map.memory.mb",
      "mapreduce.reduce.memory.mb",
      "yarn.app.mapreduce.am.resource.mb",
      "yarn.nodemanager.resource.memory-mb",
      "dfs.replication");

  /** Values Hadoop uses in code when a key is in no default file, so the record shows what was in force. */
  private static final Map<String, String> BUILT_IN = Map.of(
      "mapreduce.reduce.shuffle.maxfetchfailures", "10",
      "mapreduce.reduce.shuffle.max-host-failures", "5",
      "mapreduce.reduce.shuffle.max-fetch-failures-notifications", "3",
      "mapreduce.reduce.shuffle.max-fetch-failures-fraction", "0.5",
      "mapreduce.reduce.shuffle.notify.readerror", "true",
      "yarn.app.mapreduce.am.job.speculator.class",
      "org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator",
      "yarn.app.mapreduce.am.job.task.estimator.class",
      "org.apache.hadoop.mapreduce.v2.app.speculate.LegacyTaskRuntimeEstimator");

  private final Cluster cluster;
  private final RunListener listener;
  private ScheduledExecutorService injector;
  private String runId;

  public RunExecutor(Cluster cluster, RunListener listener) {
    this.cluster = cluster;
    this.listener = listener;
  }

  /** One armed step of the timeline and what became of it. */
  private static final class Armed {
    final int order;
    final Step step;
    final Long scheduledMs;
    volatile boolean queued;
    volatile Integer node;
    volatile Long injectedMs;
    volatile Long healedMs;
    volatile faultbed.faults.Installed healer;
    volatile Map<String, String> detail = Map.of();
    volatile String error;

    /**
     * The node indices in the order this step prefers them when several play its role: drawn from
     * the run's seed and the step's place, so every variant of a block prefers the same node, and
     * a role target's choice differs between variants only when the preferred node does not play
     * the role in one of them (for "random" sparing the AM: when the AM landed on it).
     */
    final List<Integer> preference;

    Armed(int order, Step step, Long scheduledMs, List<Integer> preference) {
      this.order = order;
      this.step = step;
      this.scheduledMs = scheduledMs;
      this.preference = List.copyOf(preference);
    }
  }

  public RunRecord execute(RunSpec spec) {
    String startedAt = Instant.now().toString();
    long began = System.nanoTime();
    Map<String, Long> harnessMs = new LinkedHashMap<>();
    Configuration conf = cluster.configuration();
    try {
      listener.phase("preparing data");
      FileSystem fs = FileSystem.get(conf);
      org.apache.hadoop.fs.Path dataRoot = new org.apache.hadoop.fs.Path("/faultbed/data");
      long inputBytes = spec.workload().prepare(fs, dataRoot, spec.dataSeed());
      harnessMs.put("prepare", (System.nanoTime() - began) / 1_000_000);
      org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(
          "/faultbed/out/" + spec.runId() + "-" + System.nanoTime());
      Job job = spec.workload().createJob(conf, dataRoot, spec.dataSeed(), output);
      job.setJobName(job.getJobName() + " " + spec.scenario() + "/" + spec.runId());
      spec.speculation().jobSettings(cluster.spec(), cluster.stateDir())
          .forEach(job.getConfiguration()::set);
      // The AM deletes the staging folder when the job ends, and with it the history of any AM
      // attempt that died: keep it (unless the user already keeps files) and read it afterwards.
      boolean keptStaging = job.getConfiguration().get(HistoryReader.KEEP_STAGING) == null;
      if (keptStaging) {
        job.getConfiguration().set(HistoryReader.KEEP_STAGING, "^job_");
      }
      List<Job> companions = new ArrayList<>();
      for (int c = 1; c < spec.workload().concurrentJobs(); c++) {
        Job companion = spec.workload().createJob(conf, dataRoot, spec.dataSeed(), output.suffix("-companion-" + c));
        companion.setJobName(job.getJobName() + " companion " + c);
        spec.speculation().jobSettings(cluster.spec(), cluster.stateDir())
            .forEach(companion.getConfiguration()::set);
        companions.add(companion);
      }

      List<Node> nodes = List.copyOf(cluster.nodes());
      NodeLocator locator = new NodeLocator(nodes);
      Map<String, Integer> nodeById = new HashMap<>();
      Map<Integer, List<String>> logDirs = new TreeMap<>();
      List<NodeInfo> nodeInfos = new ArrayList<>();
      for (Node n : nodes) {
        nodeById.put(n.nodeId(), n.index());
        logDirs.put(n.index(), n.logDirs());
        nodeInfos.add(new NodeInfo(n.index(), n.nodeId(), n.shufflePort(), n.localDirs(), n.logDirs(),
            n.cgroup(), null));
      }

      Random rng = new Random(spec.seed());
      SplittableRandom nodeChoices = new SplittableRandom(spec.seed());
      List<Armed> armed = new ArrayList<>();
      for (Step s : spec.timeline().steps()) {
        Long scheduled = null;
        if (s.trigger() instanceof Trigger.At at) {
          scheduled = at.offset().toMillis();
        } else if (s.trigger() instanceof Trigger.Uniform u) {
          scheduled = u.pickMs(spec.runIndex(), rng.nextDouble());
        }
        List<Integer> preference = new ArrayList<>();
        cluster.nodes().forEach(n -> preference.add(n.index()));
        Collections.shuffle(preference, new Random(nodeChoices.split().nextLong()));
        armed.add(new Armed(armed.size(), s, scheduled, preference));
      }

      Observed observed = new Observed();
      runId = spec.runId();
      // A thread per step: a step waiting for its target (a role no node plays yet, or "same" as a
      // step not yet fired) must not hold up the others.
      var pool = new java.util.concurrent.ScheduledThreadPoolExecutor(armed.size() + 1, r -> {
        Thread t = new Thread(r, "faultbed-injector");
        t.setDaemon(true);
        return t;
      });
      // Threads started now, not when a fault falls due: starting one then costs milliseconds.
      pool.prestartAllCoreThreads();
      injector = pool;
      long t0 = System.nanoTime();
      long submitEpoch = System.currentTimeMillis();
      java.util.function.LongSupplier nowMs = () -> (System.nanoTime() - t0) / 1_000_000;
      RunRecord.JobOutcome outcome;
      List<RunRecord.JobOutcome> companionOutcomes = new ArrayList<>();
      List<NodeTransition> transitions;
      List<String> notes = new ArrayList<>();
      try (NodeStateWatcher watcher = new NodeStateWatcher(cluster::nodeStates, nodeById, nowMs)) {
        listener.phase("running");
        job.submit();
        harnessMs.put("submit", nowMs.getAsLong());
        for (Job companion : companions) {
          companion.submit(); // after the measured job, which is the first scheduled
        }
        // One reading of the clock for all steps, so steps due at the same time keep their order.
        long sinceStart = System.nanoTime() - t0;
        for (Armed a : armed) {
          if (a.scheduledMs != null) {
            a.queued = true;
            long delayNanos = a.scheduledMs * 1_000_000 - sinceStart;
            injector.schedule(() -> fire(a, armed, observed, nowMs, job, appIdOf(job)), Math.max(0, delayNanos),
                TimeUnit.NANOSECONDS);
          }
        }
        boolean needReducers = armed.stream().anyMatch(a -> a.step.trigger() instanceof Trigger.On on
            && on.event() instanceof JobEvent.ReducerInShuffle);
        String appId = appIdOf(job);
        JobDeadline deadline = new JobDeadline(job, nowMs, notes);
        while (!finished(cluster.applicationState(appId))) {
          deadline.check();
          try {
            observe(job, observed, locator, needReducers);
            listener.progress(job.mapProgress(), job.reduceProgress());
          } catch (IOException e) {
            // the AM may be on a crashed node; its restart is part of what is measured
            listener.phase("job client: " + e.getMessage());
          }
          for (Armed a : armed) {
            if (!a.queued && a.step.trigger() instanceof Trigger.On on && happened(on.event(), observed)) {
              a.queued = true;
              injector.execute(() -> fire(a, armed, observed, nowMs, job, appId));
            }
          }
          Thread.sleep(POLL_MS);
        }
        long observedEnd = nowMs.getAsLong();
        harnessMs.put("observedEnd", observedEnd);
        injector.shutdownNow();
        injector.awaitTermination(30, TimeUnit.SECONDS);
        for (Armed a : armed) {
          heal(a, nowMs); // what lasts "until the job ends" ends here
        }
        listener.phase("collecting");
        awaitNodeVerdicts(armed, nodeInfos, watcher, conf, nowMs);
        transitions = watcher.transitions();
        outcome = outcome(job, conf, submitEpoch, observedEnd, notes);
        for (Job companion : companions) {
          String companionApp = appIdOf(companion);
          listener.phase("waiting for companion job " + companion.getJobID());
          JobDeadline companionDeadline = new JobDeadline(companion, nowMs, notes);
          while (!finished(cluster.applicationState(companionApp))) {
            companionDeadline.check();
            Thread.sleep(POLL_MS);
          }
          companionOutcomes.add(outcome(companion, conf, submitEpoch, nowMs.getAsLong(), notes));
        }
      } finally {
        injector.shutdownNow();
      }

      JobInfo history = HistoryReader.read(conf, job.getJobID(), Duration.ofSeconds(60));
      List<RunRecord.AmAttempt> amAttempts = AmLogs.complete(HistoryReader.amAttempts(history, submitEpoch, locator),
          logDirs, appIdOf(job), submitEpoch);
      int lastAm = amAttempts.isEmpty() ? 1 : amAttempts.get(amAttempts.size() - 1).attempt();
      SortedMap<Integer, JobInfo> histories = HistoryReader.earlierAttempts(conf,
          job.getConfiguration().get(MRJobConfig.MAPREDUCE_JOB_DIR), job.getJobID(), lastAm, keptStaging, notes);
      histories.put(lastAm, history);
      List<AttemptRecord> attempts = HistoryReader.attempts(histories, submitEpoch, locator);
      outcome = new RunRecord.JobOutcome(outcome.jobId(), history.getJobStatus(),
          "SUCCEEDED".equals(history.getJobStatus()), submitEpoch,
          history.getFinishTime() > 0 ? history.getFinishTime() - submitEpoch : outcome.finishedMs(),
          (int) history.getTotalMaps(), (int) history.getTotalReduces(), outcome.diagnostics());

      RunRecord.OutputCheck outputCheck = checkOutput(spec, fs, dataRoot, output, job, outcome, harnessMs);
      if (outcome.succeeded() && !outputCheck.correct()) {
        notes.add("the job succeeded but its output is wrong: " + outputCheck.detail());
        outcome = new RunRecord.JobOutcome(outcome.jobId(), WRONG_OUTPUT, false, outcome.submittedEpochMs(),
            outcome.finishedMs(), outcome.maps(), outcome.reduces(), "output check: " + outputCheck.detail());
      }

      Map<String, String> attemptByContainer = new HashMap<>();
      Map<String, Integer> nodeOfAttempt = new HashMap<>();
      for (AttemptRecord a : attempts) {
        if (a.container() != null) {
          attemptByContainer.put(a.container(), a.attemptId());
        }
        if (a.node() != null) {
          nodeOfAttempt.put(a.attemptId(), a.node());
        }
      }
      String appId = appIdOf(job);
      var fetchFailures = ShuffleLogReader.read(logDirs, appId, attemptByContainer, nodeOfAttempt, submitEpoch);
      var speculation = SpeculationEvidence.complete(
          SpeculationLogReader.read(logDirs, appId, spec.speculation(), nodeById, submitEpoch), attempts);

      List<FaultEvent> faults = new ArrayList<>();
      for (Armed a : armed) {
        Map<String, String> detail = new LinkedHashMap<>(a.detail);
        if (a.error != null) {
          detail.put("error", a.error);
        }
        if (a.injectedMs == null) {
          notes.add("fault " + a.order + " (" + a.step.fault().kind() + ") was not injected: "
              + (a.error != null ? a.error : "the job finished first"));
        }
        faults.add(new FaultEvent(a.step.fault().kind(), a.node == null ? -1 : a.node,
            a.step.fault().target().describe(), a.step.trigger().describe(), a.scheduledMs, a.injectedMs,
            a.step.fault() instanceof NodeCrash || a.step.fault() instanceof NodeStop ? null : a.healedMs, detail));
      }
      List<NodeInfo> withLost = nodeInfos.stream().map(n -> new NodeInfo(n.index(), n.nodeId(),
          n.shufflePort(), n.localDirs(), n.logDirs(), n.cgroup(),
          transitions.stream().filter(t -> t.nodeId().equals(n.nodeId()) && "LOST".equals(t.to()))
              .map(NodeTransition::atMs).findFirst().orElse(null))).toList();

      fs.delete(output, true);
      for (int c = 1; c <= companions.size(); c++) {
        fs.delete(output.suffix("-companion-" + c), true);
      }
      harnessMs.put("total", (System.nanoTime() - began) / 1_000_000);
      return new RunRecord(RunRecord.SCHEMA_VERSION, spec.runId(), spec.scenario(), spec.variant(),
          spec.runIndex(), spec.seed(), startedAt, cluster.info(), settingsInForce(job.getConfiguration(), cluster.spec().hadoop().keySet()),
          new RunRecord.WorkloadInfo(spec.workload().type(), spec.workload().parameters(), inputBytes,
              spec.dataSeed()),
          withLost, faults, transitions, attempts, fetchFailures, outcome, harnessMs, notes, speculation,
          timeScale(job.getConfiguration()), companionOutcomes, null, null, amAttempts, outputCheck);
    } catch (IOException | ClassNotFoundException e) {
      throw new HarnessException("run " + spec.runId() + " failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HarnessException("run " + spec.runId() + " interrupted", e);
    }
  }

  /** How long a job may run before the harness kills it, so no wait on a hung job is unbounded. */
  static final Duration JOB_LIMIT = Duration.ofHours(1);
  /** How long a killed job may take to end before the run is given up. */
  static final Duration KILL_GRACE = Duration.ofMinutes(2);

  /** Kills a job that runs past {@link #JOB_LIMIT}, and gives up on one that outlives its kill. */
  private static final class JobDeadline {
    private final Job job;
    private final java.util.function.LongSupplier nowMs;
    private final List<String> notes;
    private final long started;
    private boolean killed;

    JobDeadline(Job job, java.util.function.LongSupplier nowMs, List<String> notes) {
      this.job = job;
      this.nowMs = nowMs;
      this.notes = notes;
      this.started = nowMs.getAsLong();
    }

    void check() {
      long ran = nowMs.getAsLong() - started;
      if (!killed && ran > JOB_LIMIT.toMillis()) {
        killed = true;
        notes.add(job.getJobID() + " ran past faultbed's limit of " + JOB_LIMIT.toMinutes() + " min and was killed");
        try {
          job.killJob();
        } catch (IOException e) {
          notes.add("killing " + job.getJobID() + " failed: " + e.getMessage());
        }
      } else if (killed && ran > JOB_LIMIT.plus(KILL_GRACE).toMillis()) {
        throw new HarnessException(job.getJobID() + " did not end within " + KILL_GRACE.toMinutes()
            + " min of being killed at faultbed's limit of " + JOB_LIMIT.toMinutes() + " min");
      }
    }
  }

  /** The job state of a run whose job succeeded but whose output the check found wrong. */
  public static final String WRONG_OUTPUT = "WRONG_OUTPUT";

  /** Checks a successful job's output against its input; a failed job's output is not checked. */
  private static RunRecord.OutputCheck checkOutput(RunSpec spec, FileSystem fs, org.apache.hadoop.fs.Path dataRoot,
      org.apache.hadoop.fs.Path output, Job job, RunRecord.JobOutcome outcome, Map<String, Long> harnessMs)
      throws InterruptedException {
    if (!outcome.succeeded()) {
      return new RunRecord.OutputCheck("none", false, "not checked: the job did not succeed");
    }
    long began = System.nanoTime();
    try {
      return spec.workload().checkOutput(fs, dataRoot, spec.dataSeed(), output, job);
    } catch (IOException | RuntimeException e) {
      return new RunRecord.OutputCheck(spec.workload().type(), false, "the output could not be read back: " + e);
    } finally {
      harnessMs.put("outputCheck", (System.nanoTime() - began) / 1_000_000);
    }
  }

  /** What the observer has seen of the job so far; read by the injector thread. */
  private static final class Observed {
    volatile int mapsCompleted;
    volatile boolean reducerRunning;
    /** Finished map outputs each node holds, by node index. */
    final Map<Integer, Integer> outputsHeld = new ConcurrentHashMap<>();
    int nextEvent;
  }

  private static void observe(Job job, Observed o, NodeLocator locator, boolean needReducers)
      throws IOException, InterruptedException {
    TaskCompletionEvent[] events;
    do {
      events = job.getTaskCompletionEvents(o.nextEvent, 100);
      for (TaskCompletionEvent e : events) {
        o.nextEvent++;
        if (e.isMapTask() && e.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
          o.mapsCompleted++;
          String http = e.getTaskTrackerHttp();
          Integer node = locator.findUrl(http);
          if (node != null) {
            o.outputsHeld.merge(node, 1, Integer::sum);
          }
        }
      }
    } while (events.length == 100);
    if (needReducers && !o.reducerRunning) {
      for (TaskReport r : job.getTaskReports(TaskType.REDUCE)) {
        if (r.getCurrentStatus() == TIPStatus.RUNNING) {
          o.reducerRunning = true;
        }
      }
    }
  }

  private static boolean happened(JobEvent event, Observed o) {
    if (event instanceof JobEvent.MapsCompleted m) {
      return o.mapsCompleted >= m.count();
    }
    return event instanceof JobEvent.ReducerInShuffle && o.reducerRunning;
  }

  /** Resolves the target (waiting while no node plays the role), injects, and records the times. */
  private void fire(Armed a, List<Armed> all, Observed o, java.util.function.LongSupplier nowMs,
      Job job, String appId) {
    try {
      Node node;
      while ((node = resolve(a, all, o)) == null) {
        if (finished(cluster.applicationState(appId))) {
          a.error = "no node matched '" + a.step.fault().target().describe() + "' before the job finished";
          return;
        }
        Thread.sleep(20);
      }
      if (!node.isUp() && a.step.fault().needsLiveNode()) {
        a.error = "node " + node.index() + " was already down";
        return;
      }
      listener.phase("fault: " + a.step.fault().kind() + " node " + node.index());
      a.node = node.index();
      long before = nowMs.getAsLong();
      Injection injection = a.step.fault().inject(node, cluster.faultContext(runId));
      a.detail = injection.detail();
      a.healer = injection.healer();
      a.injectedMs = before;
      listener.phase(String.format("running, %s node %d at %.1f s", a.step.fault().kind(), node.index(), before / 1000.0));
      Duration lasts = a.step.fault().duration();
      if (lasts != null) {
        injector.schedule(() -> heal(a, nowMs), Math.max(0, before + lasts.toMillis() - nowMs.getAsLong()),
            TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      a.error = e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  /** Takes a fault away (once) and notes when. */
  private static void heal(Armed a, java.util.function.LongSupplier nowMs) {
    synchronized (a) {
      if (a.healer == null || a.healedMs != null) {
        return;
      }
      try {
        a.healer.heal();
      } catch (RuntimeException e) {
        a.error = "heal failed: " + e.getMessage();
      }
      a.healedMs = nowMs.getAsLong();
    }
  }

  private static String appIdOf(Job job) {
    return job.getJobID().toString().replace("job_", "application_");
  }

  /** FINISHING counts: the AM has unregistered and only lingers 5 s for clients before it exits. */
  private static boolean finished(String applicationState) {
    return applicationState.equals("FINISHING") || applicationState.equals("FINISHED")
        || applicationState.equals("FAILED") || applicationState.equals("KILLED");
  }

  private Node resolve(Armed a, List<Armed> all, Observed o) {
    Target target = a.step.fault().target();
    if (target instanceof Target.Index i) {
      return cluster.node(i.index());
    }
    if (target instanceof Target.Same) {
      Integer prev = a.order == 0 ? null : all.get(a.order - 1).node;
      return prev == null ? null : cluster.node(prev);
    }
    List<Node> candidates = candidates(target, o);
    return candidates.stream().min(Comparator.comparingInt(n -> a.preference.indexOf(n.index())))
        .orElse(null);
  }

  /** Nodes that are up and play the target's role now, in index order. */
  private List<Node> candidates(Target target, Observed o) {
    List<Node> up = new ArrayList<>(cluster.nodes().stream().filter(Node::isUp).toList());
    if (target instanceof Target.SparingAm s) {
      List<Node> c = new ArrayList<>(candidates(s.choice(), o));
      c.removeIf(Node::runsApplicationMaster);
      return c;
    }
    if (target instanceof Target.Role role) {
      switch (role) {
        case RANDOM -> { }
        case RUNNING_REDUCER -> up.removeIf(n -> n.runningAttempts().stream().noneMatch(x -> x.contains("_r_")));
        case HOLDING_MAP_OUTPUTS -> up.removeIf(n -> !o.outputsHeld.containsKey(n.index()));
        case APPLICATION_MASTER -> up.removeIf(n -> !n.runsApplicationMaster());
        case IDLE -> up.removeIf(n -> n.runsApplicationMaster() || !n.runningAttempts().isEmpty()
            || o.outputsHeld.containsKey(n.index()));
        case MOST_MAPS -> {
          java.util.function.ToIntFunction<Node> maps = n -> o.outputsHeld.getOrDefault(n.index(), 0)
              + (int) n.runningAttempts().stream().filter(x -> x.contains("_m_")).count();
          int most = up.stream().mapToInt(maps).max().orElse(0);
          up.removeIf(n -> most == 0 || maps.applyAsInt(n) < most);
        }
      }
    }
    return up;
  }

  /**
   * A crashed node goes LOST only at liveness expiry, often after the job is done; a stopped one
   * goes SHUTDOWN at once. Waits (bounded by expiry plus one check interval) so the record holds
   * the RM's verdict on every node a fault hit.
   */
  private void awaitNodeVerdicts(List<Armed> armed, List<NodeInfo> nodes, NodeStateWatcher watcher,
      Configuration conf, java.util.function.LongSupplier nowMs) throws InterruptedException {
    long expiry = conf.getLong("yarn.nm.liveness-monitor.expiry-interval-ms", 600_000);
    for (Armed a : armed) {
      if (a.injectedMs == null || a.node == null) {
        continue;
      }
      String expected = a.step.fault() instanceof NodeCrash ? "LOST"
          : a.step.fault() instanceof NodeStop ? "SHUTDOWN" : null;
      if (expected == null) {
        continue;
      }
      String id = nodes.get(a.node).nodeId();
      long deadline = a.injectedMs + expiry + expiry / 3 + 5_000;
      if (expiry > 120_000) {
        continue; // with Hadoop's 10-minute default, waiting is not worth the run time
      }
      listener.phase("waiting for the RM to mark node " + a.node + " " + expected);
      while (nowMs.getAsLong() < deadline && watcher.transitions().stream()
          .noneMatch(t -> t.nodeId().equals(id) && expected.equals(t.to()))) {
        Thread.sleep(NodeStateWatcher.POLL_MS);
      }
    }
  }

  private static RunRecord.JobOutcome outcome(Job job, Configuration conf, long submitEpoch, long observedEnd,
      List<String> notes) throws InterruptedException {
    try {
      JobStatus status = job.getStatus();
      String diagnostics = status.getFailureInfo();
      return new RunRecord.JobOutcome(job.getJobID().toString(), status.getState().name(),
          status.getState() == JobStatus.State.SUCCEEDED, submitEpoch, observedEnd,
          conf.getInt("mapreduce.job.maps", 0), job.getNumReduceTasks(),
          diagnostics == null || diagnostics.isBlank() ? null : diagnostics);
    } catch (IOException e) {
      notes.add("job status unavailable from the client (" + e.getMessage() + "); outcome from the history file");
      return new RunRecord.JobOutcome(job.getJobID().toString(), "UNKNOWN", false, submitEpoch, observedEnd,
          conf.getInt("mapreduce.job.maps", 0), job.getNumReduceTasks(), null);
    }
  }

  private RunRecord.TimeScale timeScale(Configuration jobConf) {
    var compression = new faultbed.harness.timescale.TimeCompression(cluster.spec().timeScale());
    return new RunRecord.TimeScale(compression.scale(), compression.describe(jobConf::get),
        faultbed.harness.timescale.TimeCompression.UNSCALED);
  }

  private static Map<String, String> settingsInForce(Configuration jobConf, java.util.Set<String> setByScenario) {
    JobConf c = new JobConf(jobConf);
    Map<String, String> out = new TreeMap<>();
    // every key the scenario or -D set, with the value the job saw (time compression may have rescaled it)
    for (String k : setByScenario) {
      String v = c.get(k);
      out.put(k, v != null ? v : "(unset)");
    }
    for (String k : RECORDED_SETTINGS) {
      String v = c.get(k);
      out.put(k, v != null ? v : BUILT_IN.getOrDefault(k, "(unset)"));
    }
    // faultbed's own job settings (speculation policy, its parameters, the time scale) as given.
    out.putAll(c.getPropsWithPrefix("faultbed.").entrySet().stream()
        .collect(java.util.stream.Collectors.toMap(e -> "faultbed." + e.getKey(), Map.Entry::getValue)));
    return out;
  }
}
