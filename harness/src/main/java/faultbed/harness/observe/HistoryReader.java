package faultbed.harness.observe;

import faultbed.harness.HarnessException;
import faultbed.results.RunRecord.AttemptRecord;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskAttemptInfo;
import org.apache.hadoop.mapreduce.v2.jobhistory.JHAdminConfig;
import org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils;
import org.awaitility.Awaitility;

/** Reads a finished job's history file: the authoritative list of task attempts and their times. */
final class HistoryReader {
  private HistoryReader() {}

  /** Finds the job's .jhist in the intermediate or final done folders, waiting for the AM to move it there. */
  static JobInfo read(Configuration conf, JobID jobId, Duration wait) {
    try {
      FileSystem fs = FileSystem.get(conf);
      List<Path> roots = List.of(
          new Path(JobHistoryUtils.getConfiguredHistoryIntermediateDoneDirPrefix(conf)),
          new Path(conf.get(JHAdminConfig.MR_HISTORY_DONE_DIR,
              JobHistoryUtils.getConfiguredHistoryServerDoneDirPrefix(conf))));
      Path[] found = new Path[1];
      Awaitility.await("history file of " + jobId).atMost(wait).pollInterval(Duration.ofMillis(200))
          .ignoreExceptions().until(() -> (found[0] = find(fs, roots, jobId.toString()).orElse(null)) != null);
      JobHistoryParser parser = new JobHistoryParser(fs, found[0]);
      JobInfo info = parser.parse();
      if (parser.getParseException() != null) {
        throw new HarnessException("history file " + found[0] + " is incomplete", parser.getParseException());
      }
      return info;
    } catch (IOException e) {
      throw new HarnessException("cannot read the history of " + jobId, e);
    }
  }

  private static Optional<Path> find(FileSystem fs, List<Path> roots, String jobId) throws IOException {
    for (Path root : roots) {
      if (!fs.exists(root)) {
        continue;
      }
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(root, true);
      while (it.hasNext()) {
        Path p = it.next().getPath();
        if (p.getName().startsWith(jobId) && p.getName().endsWith(".jhist")) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Attempts in start order, times relative to {@code epochZero}. A node is found by the
   * attempt's shuffle port or NodeManager port. An attempt is marked speculative when it started
   * while an earlier attempt of its task was still running and had not failed.
   */
  static List<AttemptRecord> attempts(JobInfo info, long epochZero, NodeLocator locator) {
    List<AttemptRecord> out = new ArrayList<>();
    for (var task : info.getAllTasks().values()) {
      List<TaskAttemptInfo> list = new ArrayList<>(task.getAllTaskAttempts().values());
      list.sort(Comparator.comparing(a -> a.getAttemptId().getId()));
      for (TaskAttemptInfo a : list) {
        boolean speculative = false;
        for (TaskAttemptInfo earlier : list) {
          if (earlier.getAttemptId().getId() >= a.getAttemptId().getId()) {
            break;
          }
          long endOfEarlier = earlier.getFinishTime() > 0 ? earlier.getFinishTime() : Long.MAX_VALUE;
          if (a.getStartTime() > 0 && a.getStartTime() < endOfEarlier
              && !"FAILED".equals(earlier.getTaskStatus())) {
            speculative = true;
          }
        }
        Integer node = locator.find(a.getHostname(), a.getShufflePort());
        if (node == null) {
          node = locator.find(a.getHostname(), a.getPort());
        }
        out.add(new AttemptRecord(a.getAttemptId().toString(), a.getAttemptId().getTaskID().toString(),
            a.getTaskType().name(), a.getAttemptId().getId(), node,
            a.getHostname() == null ? null : a.getHostname() + ":" + a.getPort(),
            a.getContainerId() == null ? null : a.getContainerId().toString(),
            rel(a.getStartTime(), epochZero), rel(a.getFinishTime(), epochZero),
            rel(a.getMapFinishTime(), epochZero), rel(a.getShuffleFinishTime(), epochZero),
            rel(a.getSortFinishTime(), epochZero), a.getTaskStatus(), speculative,
            a.getError() == null || a.getError().isBlank() ? null : a.getError()));
      }
    }
    out.sort(Comparator.comparing((AttemptRecord r) -> r.startMs() == null ? Long.MAX_VALUE : r.startMs())
        .thenComparing(AttemptRecord::attemptId));
    return out;
  }

  private static Long rel(long epochMs, long zero) {
    return epochMs <= 0 ? null : epochMs - zero;
  }
}
