package faultbed.harness.observe;

import faultbed.harness.HarnessException;
import faultbed.harness.RunSpec;
import faultbed.harness.timescale.TimeScaleAgent;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.NodeInfo;
import faultbed.results.RunRecord.NodeTransition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.conf.ConfigRedactor;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;

/**
 * Assembling a run's record once the job has ended, from what Hadoop kept: the history files of
 * every ApplicationMaster attempt, the NodeManagers' container logs, the job's output read back,
 * and the settings the job ran with.
 */
public final class RecordAssembly {
  private RecordAssembly() {}

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
      "yarn.scheduler.capacity.maximum-am-resource-percent",
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

  /** The job's history as every AM attempt left it: the AM attempts, and the task attempts of all. */
  record History(JobInfo last, List<RunRecord.AmAttempt> amAttempts, List<AttemptRecord> attempts, long lastAmClock) {
    /**
     * The outcome the history file states, over what the client saw (it may have lost the AM); its
     * end, which the last AM wrote on its host's clock, on the harness's. Where a clock fault had
     * moved the AM's clock at the job's end ({@code amAheadAt}, for a time on the harness's epoch; 0
     * where none had), the move is taken off the end the history states if it accounts for the gap
     * to when the harness saw the job end (the end so placed no later than the sighting, and no more
     * than {@link #SIGHTING_LAG_MS} before it), else the harness's sighting is the end; {@code notes}
     * say which.
     */
    RunRecord.JobOutcome outcome(RunRecord.JobOutcome client, long submitEpoch, List<String> notes,
        java.util.function.LongUnaryOperator amAheadAt) {
      if (last == null) {
        return client;
      }
      Long finished = client.finishedMs();
      if (last.getFinishTime() > 0) {
        long written = last.getFinishTime() - lastAmClock - submitEpoch;
        long ahead = finished == null ? 0 : amAheadAt.applyAsLong(submitEpoch + finished);
        if (ahead == 0) {
          finished = written;
        } else {
          long lag = finished - (written - ahead); // the harness sees an end after the AM wrote it
          boolean accounted = lag >= -CLOCK_RESOLUTION_MS && lag <= SIGHTING_LAG_MS;
          notes.add(String.format(java.util.Locale.ROOT, "the AM's history puts the job's end at %.1f s, on a clock"
                  + " %.1f s ahead by a clock fault on its node: %s; its attempts' times are on the AM's clock",
              written / 1000.0, ahead / 1000.0, accounted ? "taken off the job's end"
                  : "the job's end is when the harness saw it, the move not accounting for the gap"));
          finished = accounted ? written - ahead : finished;
        }
      }
      return new RunRecord.JobOutcome(client.jobId(), last.getJobStatus(), "SUCCEEDED".equals(last.getJobStatus()),
          submitEpoch, finished, (int) last.getTotalMaps(), (int) last.getTotalReduces(), client.diagnostics());
    }

    /**
     * How long after the AM wrote the job's end the harness may see it: its polls and the AM's
     * unregistering, a few seconds, 10.2 s once on a machine loaded by a suite beside the tests.
     */
    static final long SIGHTING_LAG_MS = 30_000;
    /** How far the AM's written end, the move taken off, may lie after the sighting: the history's millisecond stamps against the harness's polls. */
    static final long CLOCK_RESOLUTION_MS = 1_000;
  }

  /**
   * The job's history from every AM attempt. {@code clocks}: each node's host clock against the
   * harness's, where they differ (remote hosts); times go on the harness's clock.
   */
  static History history(Configuration conf, Job job, RunRecord.JobOutcome client, long submitEpoch,
      NodeLocator locator, Map<Integer, List<String>> logDirs, Map<Integer, Long> clocks, boolean keptStaging,
      List<String> notes) throws IOException {
    // a job that failed or was killed may have had no AM that wrote a history (none started): it is
    // not waited for long. One the client still calls running ended with its AM's unregistering (the
    // loop waits for that), so that AM is writing its history: it is waited for as a success's.
    boolean amWroteIt = client.succeeded() || "RUNNING".equals(client.state());
    Optional<HistoryReader.Parsed> written = HistoryReader.read(conf, job.getJobID(),
        Duration.ofSeconds(amWroteIt ? 60 : 10));
    if (written.isEmpty()) {
      if (client.succeeded()) {
        throw new HarnessException("job " + job.getJobID() + " succeeded, but no history file of it came within 60 s");
      }
      notes.add("no history file: no ApplicationMaster of the job wrote one (" + client.diagnostics()
          + "); the job's outcome is the ResourceManager's, and no attempt is known");
      // reads no attempt's; deletes the staging folder kept for them
      HistoryReader.earlierAttempts(conf, job.getConfiguration().get(MRJobConfig.MAPREDUCE_JOB_DIR), job.getJobID(), 1,
          keptStaging, notes);
      return new History(null, List.of(), List.of(), 0);
    }
    HistoryReader.Parsed last = written.get();
    java.util.function.Function<Integer, Long> clockOfNode = node -> clocks.getOrDefault(node, 0L);
    List<RunRecord.AmAttempt> amAttempts = AmLogs.complete(HistoryReader.amAttempts(last.info(), submitEpoch, locator,
        clockOfNode), logDirs, JobWatch.appIdOf(job), submitEpoch, clocks);
    int lastAm = amAttempts.isEmpty() ? 1 : amAttempts.get(amAttempts.size() - 1).attempt();
    SortedMap<Integer, HistoryReader.Parsed> histories = HistoryReader.earlierAttempts(conf,
        job.getConfiguration().get(MRJobConfig.MAPREDUCE_JOB_DIR), job.getJobID(), lastAm, keptStaging, notes);
    histories.put(lastAm, last);
    Map<Integer, Long> amClock = new java.util.HashMap<>();
    amAttempts.stream().filter(a -> a.node() != null).forEach(a -> amClock.put(a.attempt(), clockOfNode.apply(a.node())));
    List<AttemptRecord> attempts = new java.util.ArrayList<>(HistoryReader.attempts(histories, submitEpoch, amClock,
        locator));
    List<AttemptRecord> logged = AmLogs.attemptsHistoryLacks(attempts, logDirs, JobWatch.appIdOf(job), lastAm,
        submitEpoch, clocks, locator);
    if (!logged.isEmpty()) {
      notes.add(logged.size() + " task attempts of earlier AM attempts are taken from their AM's log, their history"
          + " lacking them (the AM writes its history out when an attempt ends): node, container, launch, and end where"
          + " logged; no locality, phases or progress: " + logged.stream().map(AttemptRecord::attemptId).toList());
      attempts.addAll(logged);
      attempts.sort(java.util.Comparator.comparing((AttemptRecord r) -> r.startMs() == null ? Long.MAX_VALUE
          : r.startMs()).thenComparing(AttemptRecord::attemptId));
    }
    return new History(last.info(), amAttempts, attempts, amClock.getOrDefault(lastAm, 0L));
  }

  /** A job Hadoop called SUCCEEDED whose output is wrong is a failed run, never a fast one. */
  static RunRecord.JobOutcome judged(RunRecord.JobOutcome outcome, RunRecord.OutputCheck check, List<String> notes) {
    if (!outcome.succeeded() || check.correct()) {
      return outcome;
    }
    notes.add("the job succeeded but its output is wrong: " + check.detail());
    return new RunRecord.JobOutcome(outcome.jobId(), WRONG_OUTPUT, false, outcome.submittedEpochMs(),
        outcome.finishedMs(), outcome.maps(), outcome.reduces(), "output check: " + check.detail());
  }

  /** The job state of a run whose job succeeded but whose output the check found wrong. */
  public static final String WRONG_OUTPUT = "WRONG_OUTPUT";

  /** Checks a committed job output against its input, and says how long that took in {@code harnessMs}. */
  static RunRecord.OutputCheck checkOutput(RunSpec spec, FileSystem fs, org.apache.hadoop.fs.Path dataRoot,
      org.apache.hadoop.fs.Path output, Job job, Map<String, Long> harnessMs) {
    long began = System.nanoTime();
    try {
      return spec.workload().checkOutput(fs, dataRoot, spec.dataSeed(), output, job);
    } catch (IOException | RuntimeException e) {
      return new RunRecord.OutputCheck(spec.workload().type(), false, "the output could not be read back: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new RunRecord.OutputCheck(spec.workload().type(), false, "the output check was interrupted");
    } finally {
      harnessMs.put("outputCheck", (System.nanoTime() - began) / 1_000_000);
    }
  }

  static RunRecord.TimeScale timeScale(Configuration jobConf, double scale, Map<Integer, List<String>> logDirs,
      String appId) {
    var compression = new faultbed.harness.timescale.TimeCompression(scale);
    return new RunRecord.TimeScale(compression.scale(), compression.describe(jobConf::get),
        faultbed.harness.timescale.TimeCompression.UNSCALED,
        compression.active() ? agentReports(logDirs, appId) : Map.of());
  }

  /**
   * Each line the time-scale agent wrote to a container's stderr (not its per-back-off lines), with
   * the number of the application's containers that wrote it: the proof that the agent ran where the
   * tasks ran, and found what it rewrites.
   */
  static Map<String, Integer> agentReports(Map<Integer, List<String>> logDirs, String appId) {
    String mark = TimeScaleAgent.MARK;
    Map<String, Integer> seen = new TreeMap<>();
    for (List<String> dirs : logDirs.values()) {
      for (String dir : dirs) {
        Path app = Path.of(dir, appId);
        if (!Files.isDirectory(app)) {
          continue;
        }
        try (var containers = Files.list(app)) {
          for (Path stderr : containers.map(c -> c.resolve("stderr")).filter(Files::isRegularFile).toList()) {
            try (var lines = Files.lines(stderr, StandardCharsets.UTF_8)) {
              lines.filter(l -> l.startsWith(mark) && !l.startsWith(mark + "penalize "))
                  .map(l -> l.substring(mark.length())).distinct().forEach(l -> seen.merge(l, 1, Integer::sum));
            }
          }
        } catch (IOException | UncheckedIOException e) {
          seen.merge("(a container's stderr could not be read: " + e.getMessage() + ")", 1, Integer::sum);
        }
      }
    }
    return seen;
  }

  /**
   * The settings a record keeps: every key the scenario set, the ones every record names, and
   * faultbed's own. A value Hadoop counts as sensitive (its {@code hadoop.security.sensitive-config-keys}:
   * secrets, passwords, keys) is kept as Hadoop's redactor writes it, never in the clear: records
   * are shared and published.
   */
  public static Map<String, String> settingsInForce(Configuration jobConf, java.util.Set<String> setByScenario) {
    JobConf c = new JobConf(jobConf);
    ConfigRedactor redactor = new ConfigRedactor(c);
    Map<String, String> out = new TreeMap<>();
    // every key the scenario or -D set, with the value the job saw (time compression may have rescaled it)
    for (String k : setByScenario) {
      String v = c.get(k);
      out.put(k, v != null ? redactor.redact(k, v) : "(unset)");
    }
    for (String k : RECORDED_SETTINGS) {
      String v = c.get(k);
      out.put(k, v != null ? v : BUILT_IN.getOrDefault(k, "(unset)"));
    }
    // faultbed's own job settings (speculation policy, its parameters, the time scale) as given;
    // not how the cluster is wired (faultbed.shuffle.*: which proxy fronts the shuffle differs by
    // cluster start and is no setting of the job's)
    out.putAll(c.getPropsWithPrefix("faultbed.").entrySet().stream()
        .filter(e -> !e.getKey().startsWith("shuffle."))
        .collect(java.util.stream.Collectors.toMap(e -> "faultbed." + e.getKey(),
            e -> redactor.redact("faultbed." + e.getKey(), e.getValue()))));
    return out;
  }
}
