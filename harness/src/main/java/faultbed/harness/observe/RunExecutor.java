package faultbed.harness.observe;

import faultbed.harness.Cluster;
import faultbed.harness.HarnessException;
import faultbed.harness.Node;
import faultbed.harness.RunSpec;
import faultbed.results.RunHistory;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.NodeInfo;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * Runs one workload under one fault timeline on a cluster and turns what happened into a
 * {@link RunRecord}. It launches the job (and its companions), lets a {@link FaultDriver} fire the
 * timeline while {@link JobWatch} follows the job and a {@link NodeStateWatcher} the RM's node
 * states, each appending what it sees to the run's {@link RunHistory} as it happens, and hands the
 * rest to {@link RecordAssembly}: history files, logs, the output check, appended as they are read.
 * The record is the history's view ({@link RunHistory#record()}).
 */
public final class RunExecutor {
  private static final long POLL_MS = 100;

  private final Cluster cluster;
  private final RunListener listener;

  public RunExecutor(Cluster cluster, RunListener listener) {
    this.cluster = cluster;
    this.listener = listener;
  }

  /** The jobs of a run, created and configured but not yet submitted. */
  private record Launch(Path dataRoot, long inputBytes, Path output, Job job, List<Job> companions,
      boolean keptStaging, faultbed.harness.PinnedNodes pinned) {}

  private Launch launch(RunSpec spec, Configuration conf, FileSystem fs, Map<String, Long> harnessMs, long began)
      throws IOException {
    listener.phase("preparing data");
    Path dataRoot = new Path("/faultbed/data");
    long inputBytes = spec.workload().prepare(fs, dataRoot, spec.dataSeed());
    harnessMs.put("prepare", (System.nanoTime() - began) / 1_000_000);
    Path output = new Path("/faultbed/out/" + spec.runId() + "-" + System.nanoTime());
    Job job = spec.workload().createJob(conf, dataRoot, spec.dataSeed(), output);
    job.setJobName(job.getJobName() + " " + spec.scenario() + "/" + spec.runId());
    spec.speculation().jobSettings(cluster.spec(), cluster.stateDir()).forEach(job.getConfiguration()::set);
    faultbed.harness.PinnedNodes pinned = cluster.pin(spec.pinned(), spec.seed(), job.getNumReduceTasks());
    pinned.jobSettings().forEach(job.getConfiguration()::set);
    spec.stealingSettings(job.getConfiguration()).forEach(job.getConfiguration()::set);
    spec.placementSettings(job.getConfiguration(), cluster.spec(), cluster.stateDir()).forEach(job.getConfiguration()::set);
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
      spec.speculation().jobSettings(cluster.spec(), cluster.stateDir()).forEach(companion.getConfiguration()::set);
      spec.stealingSettings(companion.getConfiguration()).forEach(companion.getConfiguration()::set);
      spec.placementSettings(companion.getConfiguration(), cluster.spec(), cluster.stateDir())
          .forEach(companion.getConfiguration()::set);
      companions.add(companion);
    }
    return new Launch(dataRoot, inputBytes, output, job, companions, keptStaging, pinned);
  }

  public RunRecord execute(RunSpec spec) {
    try {
      Execution run = new Execution(spec);
      Launch l = launch(spec, run.conf, run.fs, run.harnessMs, run.began);
      return run.assemble(l, run.watch(l));
    } catch (IOException | ClassNotFoundException e) {
      throw new HarnessException("run " + spec.runId() + " failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HarnessException("run " + spec.runId() + " interrupted", e);
    }
  }

  /** What the assembly needs of the job that ran; the rest of what the harness watched is in the history. */
  private record Watched(String appId, long submitEpoch, RunRecord.JobOutcome outcome,
      CompletableFuture<RunRecord.OutputCheck> outputCheck) {}

  /** One run's state: the cluster's nodes as the run began, its clock, its notes and its costs. */
  private final class Execution {
    final RunSpec spec;
    final String startedAt = Instant.now().toString();
    final long began = System.nanoTime();
    final RunHistory history;
    // the output check, read on a thread of its own, writes its time here too
    final Map<String, Long> harnessMs;
    final List<String> notes;
    final Configuration conf = cluster.configuration();
    final FileSystem fs;
    final NodeLocator locator;
    final Map<String, Integer> nodeById = new HashMap<>();
    final Map<Integer, List<String>> logDirs = new TreeMap<>();
    final List<NodeInfo> nodeInfos = new ArrayList<>();

    Execution(RunSpec spec) throws IOException {
      this.spec = spec;
      this.history = new RunHistory(spec.runId(), spec.scenario(), spec.variant(), spec.runIndex(), spec.seed(),
          startedAt);
      this.harnessMs = history.timings();
      this.notes = history.notes();
      this.fs = FileSystem.get(conf);
      List<Node> nodes = List.copyOf(cluster.nodes());
      this.locator = new NodeLocator(nodes);
      for (Node n : nodes) {
        nodeById.put(n.nodeId(), n.index());
        logDirs.put(n.index(), n.logDirs());
        nodeInfos.add(new NodeInfo(n.index(), n.nodeId(), n.shufflePort(), n.localDirs(), n.logDirs(),
            n.cgroup(), null, n.clock()));
      }
      history.append(new RunHistory.ClusterSeen(cluster.info(), nodeInfos));
    }

    /** Submits the jobs, fires the timeline and follows the job and the nodes until every job has ended. */
    Watched watch(Launch l) throws IOException, InterruptedException, ClassNotFoundException {
      Job job = l.job();
      // the run's clock starts at submission; the driver's threads are started before it
      long[] origin = new long[1];
      LongSupplier nowMs = () -> (System.nanoTime() - origin[0]) / 1_000_000;
      FaultDriver faults = new FaultDriver(cluster, listener, spec, nowMs, l.pinned(), history,
          HdfsJobInput.of(job, fs));
      long t0 = System.nanoTime();
      origin[0] = t0;
      long submitEpoch = System.currentTimeMillis();
      JobWatch.Observed observed = new JobWatch.Observed();
      history.append(new RunHistory.Configured(RecordAssembly.settingsInForce(job.getConfiguration(),
          cluster.spec().hadoop().keySet())));
      if (spec.stealing() != null) {
        history.append(new RunHistory.StealingSet(spec.stealing().scenarioName()));
      }
      if (spec.placement() != null) {
        history.append(new RunHistory.MapPlacementSet(spec.placement().scenarioName()));
      }
      history.append(new RunHistory.WorkloadMade(new RunRecord.WorkloadInfo(spec.workload().type(),
          spec.workload().parameters(), l.inputBytes(), spec.dataSeed())));
      java.util.concurrent.atomic.AtomicReference<String> submitted = new java.util.concurrent.atomic.AtomicReference<>();
      // a part gone may have taken the AM with it: the job is killed through the RM at once
      PartWatch.Kill kill = new PartWatch.Kill(conf, submitted);
      try (faults; PartWatch parts = new PartWatch(cluster, kill::run);
          NodeStateWatcher watcher = new NodeStateWatcher(cluster::nodeStates, nodeById, nowMs,
              t -> history.append(new RunHistory.NodeChanged(t)));
          SlowReportWatcher slow = new SlowReportWatcher(cluster::slowReports, SlowReportWatcher.byAddress(cluster.nodes()),
              nowMs, r -> history.append(new RunHistory.SlowSeen(r)));
          ShareWatcher shares = new ShareWatcher(cluster::containerCpu, nowMs,
              s -> history.append(new RunHistory.ShareSeen(s)))) {
        listener.phase("running");
        job.submit();
        harnessMs.put("submit", nowMs.getAsLong());
        String appId = JobWatch.appIdOf(job);
        submitted.set(appId);
        cluster.submitted(appId);
        for (Job companion : l.companions()) {
          companion.submit(); // after the measured job, which is the first scheduled
          cluster.submitted(JobWatch.appIdOf(companion));
        }
        java.util.function.Supplier<String> appState = () -> cluster.applicationState(appId);
        faults.scheduleTimed(t0, observed, appState);
        boolean needReducers = faults.needsReducers();
        boolean needMaps = faults.needsMaps();
        JobWatch.Deadline deadline = new JobWatch.Deadline(job, spec.jobLimit(), nowMs, notes);
        CompletableFuture<RunRecord.OutputCheck> outputCheck = null;
        org.apache.hadoop.fs.Path committed = new org.apache.hadoop.fs.Path(l.output(), "_SUCCESS");
        while (!JobWatch.finished(appState.get())) {
          // The output is whole once the job commits it, a second or so before the AM, having written
          // its history, unregisters: read it back meanwhile, asking the NameNode, not the AM, whether
          // it is there. Nothing of the job is measured any more.
          if (outputCheck == null && committed(committed)) {
            outputCheck = CompletableFuture.supplyAsync(() -> RecordAssembly.checkOutput(spec, fs, l.dataRoot(),
                l.output(), job, harnessMs));
          }
          deadline.check();
          stopIfAPartStopped(parts, kill, nowMs);
          try {
            observed.observe(job, locator, needReducers, needMaps);
            listener.progress(job.mapProgress(), job.reduceProgress());
          } catch (IOException e) {
            // the AM may be on a crashed node; its restart is part of what is measured
            listener.phase("job client: " + e.getMessage());
          }
          faults.onProgress(observed, appState);
          Thread.sleep(POLL_MS);
        }
        stopIfAPartStopped(parts, kill, nowMs); // the application may have ended by that kill
        long observedEnd = nowMs.getAsLong();
        harnessMs.put("observedEnd", observedEnd);
        faults.jobEnded();
        listener.phase("collecting");
        faults.awaitNodeVerdicts(nodeInfos, conf.getLong("yarn.nm.liveness-monitor.expiry-interval-ms", 600_000));
        if (watcher.failures() != null) {
          notes.add(watcher.failures());
        }
        RunRecord.JobOutcome outcome = JobWatch.outcome(job, conf, submitEpoch, observedEnd, notes);
        history.append(new RunHistory.JobEnded(outcome));
        for (Job companion : l.companions()) {
          String companionApp = JobWatch.appIdOf(companion);
          listener.phase("waiting for companion job " + companion.getJobID());
          JobWatch.Deadline companionDeadline = new JobWatch.Deadline(companion, spec.jobLimit(), nowMs, notes);
          while (!JobWatch.finished(cluster.applicationState(companionApp))) {
            companionDeadline.check();
            Thread.sleep(POLL_MS);
          }
          history.append(new RunHistory.CompanionEnded(JobWatch.outcome(companion, conf, submitEpoch, nowMs.getAsLong(),
              notes)));
          cluster.finished(companionApp);
        }
        cluster.finished(appId);
        return new Watched(appId, submitEpoch, outcome, outputCheck);
      }
    }

    /**
     * Ends the run when a part the cluster runs beside its nodes stopped: nothing measured after that
     * would be the fault's doing. The job is killed, the faults healed on the way out, and the
     * suite told why (it records the run as one the harness could not complete).
     */
    private void stopIfAPartStopped(PartWatch parts, PartWatch.Kill kill, LongSupplier nowMs) {
      parts.stopped().ifPresent(why -> {
        throw new HarnessException(why + "; run " + spec.runId() + " ended " + nowMs.getAsLong() / 1000 + " s in, "
            + kill.run());
      });
    }

    /** Whether the job's output is committed; a NameNode that does not answer now is asked again later. */
    private boolean committed(org.apache.hadoop.fs.Path marker) {
      try {
        return fs.exists(marker);
      } catch (IOException e) {
        return false;
      }
    }

    /** The record: the history files of every AM attempt, the nodes' logs, the output read back and checked. */
    RunRecord assemble(Launch l, Watched w) throws IOException, InterruptedException {
      Job job = l.job();
      cluster.gatherLogs(w.appId());
      Map<Integer, Long> clocks = new HashMap<>(); // hosts' clocks ahead of the harness's, where they differ
      nodeInfos.stream().filter(n -> n.clock() != null).forEach(n -> clocks.put(n.index(), n.clock().offsetMs()));
      RecordAssembly.History written = RecordAssembly.history(conf, job, w.outcome(), w.submitEpoch(), locator, logDirs, clocks,
          l.keptStaging(), notes);
      // a clock fault on the AM's node moved the times its history holds
      java.util.function.LongUnaryOperator amAheadAt = t -> written.amAttempts().isEmpty()
          || written.amAttempts().get(written.amAttempts().size() - 1).node() == null ? 0
          : cluster.node(written.amAttempts().get(written.amAttempts().size() - 1).node()).ownClock()
              .map(c -> c.aheadAt(t)).orElse(0L);
      RunRecord.JobOutcome outcome = written.outcome(w.outcome(), w.submitEpoch(), notes, amAheadAt);
      RunRecord.OutputCheck outputCheck;
      if (!outcome.succeeded()) {
        outputCheck = new RunRecord.OutputCheck("none", false, "not checked: the job did not succeed");
      } else if (w.outputCheck() != null) {
        outputCheck = w.outputCheck().join();
      } else {
        outputCheck = RecordAssembly.checkOutput(spec, fs, l.dataRoot(), l.output(), job, harnessMs);
      }
      history.append(new RunHistory.OutputChecked(outputCheck));
      history.append(new RunHistory.JobEnded(RecordAssembly.judged(outcome, outputCheck, notes)));

      List<AttemptRecord> attempts = written.attempts();
      history.append(new RunHistory.AttemptsRead(attempts));
      history.append(new RunHistory.AmAttemptsRead(written.amAttempts()));
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
      history.append(new RunHistory.FetchFailuresRead(ShuffleLogReader.read(logDirs, w.appId(), attemptByContainer,
          nodeOfAttempt, w.submitEpoch(), clocks)));
      history.append(new RunHistory.SpeculationRead(SpeculationEvidence.complete(SpeculationLogReader.read(logDirs,
          w.appId(), spec.speculation(), nodeById, w.submitEpoch(), clocks), attempts)));
      if (spec.placement() != null) {
        history.append(PlacementLogReader.read(logDirs, w.appId(), nodeById, w.submitEpoch(), clocks));
      }
      history.append(new RunHistory.TimeScaleRead(RecordAssembly.timeScale(job.getConfiguration(),
          cluster.spec().timeScale(), logDirs, w.appId())));

      fs.delete(l.output(), true);
      for (int c = 1; c <= l.companions().size(); c++) {
        fs.delete(l.output().suffix("-companion-" + c), true);
      }
      cluster.recorded(w.appId());
      for (Job companion : l.companions()) {
        cluster.recorded(JobWatch.appIdOf(companion));
      }
      // where the parts were pinned, with every move a stopped node made during the run
      history.append(new RunHistory.Pinned(l.pinned().placement()));
      harnessMs.put("total", (System.nanoTime() - began) / 1_000_000);
      return history.record();
    }
  }
}
