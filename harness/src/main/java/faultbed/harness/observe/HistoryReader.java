package faultbed.harness.observe;

import faultbed.harness.HarnessException;
import faultbed.results.RunRecord.AmAttempt;
import faultbed.results.RunRecord.AttemptRecord;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.HistoryEvent;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.jobhistory.MapAttemptFinishedEvent;
import org.apache.hadoop.mapreduce.jobhistory.ReduceAttemptFinishedEvent;
import org.apache.hadoop.mapreduce.jobhistory.TaskAttemptStartedEvent;
import org.apache.hadoop.mapreduce.jobhistory.TaskAttemptUnsuccessfulCompletionEvent;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.AMInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskAttemptInfo;
import org.apache.hadoop.mapreduce.v2.jobhistory.JHAdminConfig;
import org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils;
import org.awaitility.Awaitility;

/** Reads a finished job's history file: the authoritative list of task attempts and their times. */
public final class HistoryReader {
  private HistoryReader() {}

  /**
   * One AM attempt's history as Hadoop's parser reads it, with what the parser overwrites: when each
   * task attempt reported success, by attempt id. A map attempt killed after it succeeded (its node
   * lost while the AM waited for its container to exit) has its end times set to the kill's. And
   * what the parser drops: where each map attempt ran relative to its input (its locality), and
   * how long each attempt took over each twelfth of its progress (the progress splits' wall clock).
   */
  record Parsed(JobInfo info, Map<String, Long> succeeded, Map<String, String> locality,
      Map<String, List<Integer>> progressClock) {}

  /** Hadoop's parser, noting each attempt-finished event before the parser files it, and each map's locality. */
  private static final class Parser extends JobHistoryParser {
    private final Map<String, Long> succeeded = new HashMap<>();
    private final Map<String, String> locality = new HashMap<>();
    private final Map<String, List<Integer>> progressClock = new HashMap<>();

    Parser(FileSystem fs, Path file) throws IOException {
      super(fs, file);
    }

    @Override
    public void handleEvent(HistoryEvent event) {
      if (event instanceof MapAttemptFinishedEvent m) {
        noteProgress(m.getAttemptId().toString(), m.getClockSplits());
        if (SUCCEEDED.equals(m.getTaskStatus())) {
          succeeded.put(m.getAttemptId().toString(), m.getFinishTime());
        }
      } else if (event instanceof ReduceAttemptFinishedEvent r) {
        noteProgress(r.getAttemptId().toString(), r.getClockSplits());
        if (SUCCEEDED.equals(r.getTaskStatus())) {
          succeeded.put(r.getAttemptId().toString(), r.getFinishTime());
        }
      } else if (event instanceof TaskAttemptUnsuccessfulCompletionEvent u) {
        noteProgress(u.getTaskAttemptId().toString(), u.getClockSplits());
      } else if (event instanceof TaskAttemptStartedEvent t && t.getTaskType() == TaskType.MAP
          && t.getLocality() != null) {
        locality.put(t.getTaskAttemptId().toString(), t.getLocality());
      }
      super.handleEvent(event);
    }

    /**
     * Hadoop writes -1 for the twelfths an attempt never reached; an attempt that succeeded and was
     * then killed has both events, the kill's no shorter.
     */
    private void noteProgress(String attemptId, int[] clockSplits) {
      if (clockSplits == null) {
        return;
      }
      List<Integer> reached = new ArrayList<>();
      for (int ms : clockSplits) {
        if (ms < 0) {
          break;
        }
        reached.add(ms);
      }
      progressClock.merge(attemptId, List.copyOf(reached), (a, b) -> b.size() >= a.size() ? b : a);
    }

    Parsed parsed() throws IOException {
      return new Parsed(parse(), Map.copyOf(succeeded), Map.copyOf(locality), Map.copyOf(progressClock));
    }
  }

  private static final String SUCCEEDED = "SUCCEEDED";

  /** One history file as Hadoop's parser reads it; the parser's complaint, if it stopped early, in {@code notes}. */
  static Parsed parse(FileSystem fs, Path file, List<String> notes) throws IOException {
    Parser parser = new Parser(fs, file);
    Parsed parsed = parser.parsed();
    if (parser.getParseException() != null) {
      notes.add("the history file ends mid-event (its AM died writing it); read up to there: "
          + parser.getParseException().getMessage());
    }
    return parsed;
  }

  /**
   * Finds the job's .jhist in the intermediate or final done folders, waiting up to {@code wait} for
   * the AM to move it there; empty if none came (an AM that never ran, or died, writes none there).
   */
  static Optional<Parsed> read(Configuration conf, JobID jobId, Duration wait) {
    try {
      FileSystem fs = FileSystem.get(conf);
      List<Path> roots = roots(conf);
      Path[] found = new Path[1];
      try {
        Awaitility.await("history file of " + jobId).atMost(wait).pollInterval(Duration.ofMillis(200))
            .ignoreExceptions().until(() -> (found[0] = find(fs, roots, jobId.toString()).orElse(null)) != null);
      } catch (org.awaitility.core.ConditionTimeoutException none) {
        return Optional.empty();
      }
      Parser parser = new Parser(fs, found[0]);
      Parsed parsed = parser.parsed();
      if (parser.getParseException() != null) {
        throw new HarnessException("history file " + found[0] + " is incomplete", parser.getParseException());
      }
      return Optional.of(parsed);
    } catch (IOException e) {
      throw new HarnessException("cannot read the history of " + jobId, e);
    }
  }

  /** Whether a history folder's file is job {@code jobId}'s (not job_..._10000's for job_..._1000). */
  private static boolean ofJob(String fileName, String jobId) {
    return fileName.startsWith(jobId) && fileName.length() > jobId.length() && !Character.isDigit(fileName.charAt(jobId.length()));
  }

  /**
   * Deletes job {@code jobId}'s files (history, configuration, summary) from the history folders once
   * its record is read, on a cluster of faultbed's own: each job leaves a few hundred kilobytes there
   * that the history server would keep for a week, and {@link #read} lists those folders.
   */
  public static void forget(Configuration conf, String jobId) {
    try {
      FileSystem fs = FileSystem.get(conf);
      for (Path root : roots(conf)) {
        if (!fs.exists(root)) {
          continue;
        }
        List<Path> files = new java.util.ArrayList<>();
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(root, true);
        while (it.hasNext()) {
          Path p = it.next().getPath();
          if (ofJob(p.getName(), jobId)) {
            files.add(p);
          }
        }
        for (Path p : files) {
          fs.delete(p, false);
        }
      }
    } catch (IOException e) {
      throw new HarnessException("cannot delete the history files of " + jobId, e);
    }
  }

  private static List<Path> roots(Configuration conf) {
    return List.of(new Path(JobHistoryUtils.getConfiguredHistoryIntermediateDoneDirPrefix(conf)),
        new Path(conf.get(JHAdminConfig.MR_HISTORY_DONE_DIR, JobHistoryUtils.getConfiguredHistoryServerDoneDirPrefix(conf))));
  }

  private static Optional<Path> find(FileSystem fs, List<Path> roots, String jobId) throws IOException {
    for (Path root : roots) {
      if (!fs.exists(root)) {
        continue;
      }
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(root, true);
      while (it.hasNext()) {
        Path p = it.next().getPath();
        if (ofJob(p.getName(), jobId) && p.getName().endsWith(".jhist")) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The history files that earlier AM attempts left in the job's staging folder ({@code
   * <jobId>_<attempt>.jhist}), by AM attempt, oldest first; the last attempt's own file is not
   * among them (its history is the one in the done folder). A file its AM stopped writing mid-event
   * is read up to there. The staging folder is kept for this ({@link #KEEP_STAGING}) and deleted here
   * when {@code delete} (the harness kept it, not the user).
   */
  static SortedMap<Integer, Parsed> earlierAttempts(Configuration conf, String stagingDir, JobID jobId,
      int lastAttempt, boolean delete, List<String> notes) {
    SortedMap<Integer, Parsed> out = new TreeMap<>();
    if (stagingDir == null) {
      return out;
    }
    try {
      Path dir = new Path(stagingDir);
      FileSystem fs = dir.getFileSystem(conf);
      if (!fs.exists(dir)) {
        return out;
      }
      Pattern name = Pattern.compile(Pattern.quote(jobId.toString()) + "_(\\d+)\\.jhist");
      for (FileStatus f : fs.listStatus(dir)) {
        Matcher m = name.matcher(f.getPath().getName());
        if (!m.matches() || Integer.parseInt(m.group(1)) >= lastAttempt) {
          continue;
        }
        try {
          Parser parser = new Parser(fs, f.getPath());
          out.put(Integer.parseInt(m.group(1)), parser.parsed());
          if (parser.getParseException() != null) {
            notes.add("the history of AM attempt " + m.group(1) + " ends mid-event (its AM died writing it): "
                + parser.getParseException().getMessage());
          }
        } catch (IOException e) {
          notes.add("the history of AM attempt " + m.group(1) + " could not be read: " + e.getMessage());
        }
      }
      for (int am = 1; am < lastAttempt; am++) {
        if (out.get(am) == null || out.get(am).info().getAllTasks().isEmpty()) {
          // The AM flushes its history when an attempt finishes; one that died before any did
          // left its started attempts unwritten.
          notes.add("AM attempt " + am + " left no task attempts in its history (it died before any of its"
              + " attempts finished, when the AM first writes its history out)");
        }
      }
    } catch (IOException e) {
      notes.add("the history of earlier AM attempts could not be read: " + e.getMessage());
    } finally {
      if (delete) {
        try {
          new Path(stagingDir).getFileSystem(conf).delete(new Path(stagingDir), true);
        } catch (IOException e) {
          notes.add("the job's staging folder " + stagingDir + " could not be deleted: " + e.getMessage());
        }
      }
    }
    return out;
  }

  /** A job setting that keeps the staging folder after the job, so earlier AM attempts' history survives. */
  static final String KEEP_STAGING = MRJobConfig.PRESERVE_FILES_PATTERN;

  /** The AM attempts the history names, in order, with the node each ran on. */
  static List<AmAttempt> amAttempts(JobInfo info, long epochZero, NodeLocator locator,
      java.util.function.Function<Integer, Long> clockOfNode) {
    List<AmAttempt> out = new ArrayList<>();
    for (AMInfo am : info.getAMInfos() == null ? List.<AMInfo>of() : info.getAMInfos()) {
      Integer node = locator.find(am.getNodeManagerHost(), am.getNodeManagerPort());
      long zero = epochZero + (node == null ? 0 : clockOfNode.apply(node)); // its start is on its host's clock
      out.add(new AmAttempt(am.getAppAttemptId().getAttemptId(), node,
          am.getNodeManagerHost() == null ? null : am.getNodeManagerHost() + ":" + am.getNodeManagerPort(),
          am.getContainerId() == null ? null : am.getContainerId().toString(), rel(am.getStartTime(), zero)));
    }
    out.sort(Comparator.comparingInt(AmAttempt::attempt));
    return out;
  }

  /**
   * Attempts of every AM attempt in start order, times relative to {@code epochZero} on the
   * harness's clock: each AM attempt wrote its tasks' times on its own host's clock, which is
   * {@code amClock} (by AM attempt, ms ahead of the harness's; absent counts as 0). A task attempt
   * in several histories (one a later AM recovered) is taken from the latest. A node is found by
   * the attempt's shuffle port or NodeManager port. An attempt is marked speculative when it started
   * while an earlier attempt of its task was still running, however that attempt ended.
   */
  static List<AttemptRecord> attempts(SortedMap<Integer, Parsed> histories, long epochZero, Map<Integer, Long> amClock,
      NodeLocator locator) {
    Map<String, Map<String, TaskAttemptInfo>> byTask = new TreeMap<>();
    Map<String, Integer> amOf = new HashMap<>();
    Map<String, Long> succeeded = new HashMap<>();
    Map<String, String> locality = new HashMap<>();
    Map<String, List<Integer>> progressClock = new HashMap<>();
    histories.forEach((am, parsed) -> {
      succeeded.putAll(parsed.succeeded());
      locality.putAll(parsed.locality());
      progressClock.putAll(parsed.progressClock());
      for (var task : parsed.info().getAllTasks().values()) {
        for (TaskAttemptInfo a : task.getAllTaskAttempts().values()) {
          byTask.computeIfAbsent(a.getAttemptId().getTaskID().toString(), t -> new HashMap<>())
              .put(a.getAttemptId().toString(), a);
          amOf.put(a.getAttemptId().toString(), am);
        }
      }
    });
    List<AttemptRecord> out = new ArrayList<>();
    for (Map<String, TaskAttemptInfo> task : byTask.values()) {
      List<TaskAttemptInfo> list = new ArrayList<>(task.values());
      list.sort(Comparator.comparing(a -> a.getAttemptId().getId()));
      for (TaskAttemptInfo a : list) {
        boolean speculative = false;
        for (TaskAttemptInfo earlier : list) {
          if (earlier.getAttemptId().getId() >= a.getAttemptId().getId()) {
            break;
          }
          // A failed attempt with no end written is taken to have ended before its task's next attempt (a
          // re-execution); one that failed after a later attempt started was raced by a backup (a
          // straggler the backup overtook, then timed out).
          boolean failedWithoutEnd = "FAILED".equals(earlier.getTaskStatus()) && earlier.getFinishTime() <= 0;
          long endOfEarlier = earlier.getFinishTime() > 0 ? earlier.getFinishTime() : Long.MAX_VALUE;
          // an attempt whose AM died has no end in its history: it ended with that AM
          boolean sameAm = amOf.get(earlier.getAttemptId().toString()).equals(amOf.get(a.getAttemptId().toString()));
          if (a.getStartTime() > 0 && a.getStartTime() < endOfEarlier && sameAm && !failedWithoutEnd) {
            speculative = true;
          }
        }
        Integer node = locator.find(a.getHostname(), a.getShufflePort());
        if (node == null) {
          node = locator.find(a.getHostname(), a.getPort());
        }
        if (node == null && a.getTrackerName() != null && !a.getTrackerName().isEmpty()) {
          // an attempt with no end in the history (still running when its node died and the job ended)
          // has its host only in its start event, as the tracker name
          node = locator.find(a.getTrackerName(), a.getShufflePort());
        }
        long zero = epochZero + amClock.getOrDefault(amOf.get(a.getAttemptId().toString()), 0L);
        out.add(new AttemptRecord(a.getAttemptId().toString(), a.getAttemptId().getTaskID().toString(),
            a.getTaskType().name(), a.getAttemptId().getId(), node,
            a.getHostname() == null ? null : a.getHostname() + ":" + a.getPort(),
            a.getContainerId() == null ? null : a.getContainerId().toString(),
            rel(a.getStartTime(), zero), rel(a.getFinishTime(), zero),
            rel(a.getMapFinishTime(), zero), rel(a.getShuffleFinishTime(), zero),
            rel(a.getSortFinishTime(), zero), a.getTaskStatus(), speculative,
            a.getError() == null || a.getError().isBlank() ? null : a.getError(),
            amOf.get(a.getAttemptId().toString()),
            rel(succeeded.getOrDefault(a.getAttemptId().toString(), 0L), zero),
            locality.get(a.getAttemptId().toString()), progressClock.get(a.getAttemptId().toString()),
            shuffleBytes(a)));
      }
    }
    out.sort(Comparator.comparing((AttemptRecord r) -> r.startMs() == null ? Long.MAX_VALUE : r.startMs())
        .thenComparing(AttemptRecord::attemptId));
    return out;
  }

  /** What the shuffle moved of the attempt, as its counters say; null without counters. */
  private static Long shuffleBytes(TaskAttemptInfo a) {
    org.apache.hadoop.mapreduce.Counters counters = a.getCounters();
    if (counters == null) {
      return null;
    }
    var counter = counters.findCounter(a.getTaskType() == TaskType.MAP
        ? org.apache.hadoop.mapreduce.TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES
        : org.apache.hadoop.mapreduce.TaskCounter.REDUCE_SHUFFLE_BYTES);
    return counter == null ? null : counter.getValue();
  }

  private static Long rel(long epochMs, long zero) {
    return epochMs <= 0 ? null : epochMs - zero;
  }
}
