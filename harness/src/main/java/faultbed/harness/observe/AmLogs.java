package faultbed.harness.observe;

import faultbed.results.RunRecord.AmAttempt;
import faultbed.results.RunRecord.AttemptRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The ApplicationMaster attempts the NodeManagers' log folders show, and the task attempts their logs
 * show. An AM that died before any of its task attempts finished wrote no history, and the next AM
 * then cannot name it; but every AM ran as container 000001 of its application attempt, in a log
 * folder on the node that ran it. Hadoop's {@code JobHistoryEventHandler} writes an attempt's start
 * to the history at once but flushes it to HDFS only with the next attempt's end (a completion event),
 * so an AM that died before any of its attempts finished left a history its successor reads as empty,
 * and one that died later lacks the attempts started since its last flush. Its log has them: {@code
 * TaskAttemptImpl} logs each launch (attempt, container, NodeManager) and each change of state.
 */
final class AmLogs {
  /** container_[e&lt;epoch&gt;_]&lt;cluster ts&gt;_&lt;app&gt;_&lt;attempt&gt;_000001 */
  private static final Pattern AM_CONTAINER = Pattern.compile("container_(?:e\\d+_)?\\d+_\\d+_(\\d+)_000001");

  private AmLogs() {}

  /** An AM's container folder: the node whose log folders hold it, and its application attempt. */
  record AmFolder(int node, int attempt, Path folder) {
    Path syslog() {
      return folder.resolve("syslog");
    }

    /** The log's lines, none when the file is not there. */
    List<String> lines(String log) {
      Path file = folder.resolve(log);
      try {
        return Files.isRegularFile(file) ? Files.readAllLines(file) : List.of();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the AM log " + file, e);
      }
    }
  }

  /** Every AM container folder of the application in the nodes' log folders. */
  static List<AmFolder> amFolders(Map<Integer, List<String>> logDirsByNode, String appId) {
    List<AmFolder> out = new ArrayList<>();
    logDirsByNode.forEach((node, dirs) -> {
      for (String dir : dirs) {
        Path app = Path.of(dir, appId);
        if (!Files.isDirectory(app)) {
          continue;
        }
        try (Stream<Path> containers = Files.list(app)) {
          for (Path c : containers.toList()) {
            Matcher m = AM_CONTAINER.matcher(c.getFileName().toString());
            if (m.matches()) {
              out.add(new AmFolder(node, Integer.parseInt(m.group(1)), c));
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException("cannot list the containers under " + app, e);
        }
      }
    });
    return out;
  }

  /**
   * The AM attempts from the history, with those it lacks (or the nodes it could not place) taken
   * from the log folders; the start of one found only there is its log's first line.
   */
  static List<AmAttempt> complete(List<AmAttempt> fromHistory, Map<Integer, List<String>> logDirsByNode, String appId,
      long epochZero, Map<Integer, Long> clocks) {
    Map<Integer, AmAttempt> byAttempt = new TreeMap<>();
    fromHistory.forEach(a -> byAttempt.put(a.attempt(), a));
    for (AmFolder f : amFolders(logDirsByNode, appId)) {
      AmAttempt known = byAttempt.get(f.attempt());
      if (known == null) {
        byAttempt.put(f.attempt(), new AmAttempt(f.attempt(), f.node(), null, f.folder().getFileName().toString(),
            firstLogTime(f.syslog(), epochZero + clocks.getOrDefault(f.node(), 0L))));
      } else if (known.node() == null) {
        byAttempt.put(f.attempt(), new AmAttempt(f.attempt(), f.node(), known.host(), known.container(), known.startMs()));
      }
    }
    return new ArrayList<>(byAttempt.values());
  }

  /** TaskAttemptImpl at launch: {@code TaskAttempt: [attempt] using containerId: [container on NM: [host:port]}. */
  private static final Pattern LAUNCHED = Pattern.compile(
      "TaskAttempt: \\[(attempt_\\S+)\\] using containerId: \\[(container_\\S+) on NM: \\[([^\\]:]+):(\\d+)\\]");
  /** TaskAttemptImpl's change of state: to SUCCEEDED, KILLED, or (worded apart) FAILED. */
  private static final Pattern ENDED = Pattern.compile(
      "(attempt_\\S+) (?:TaskAttempt Transitioned from \\S+ to (SUCCEEDED|KILLED)$|transitioned from state \\S+ to (FAILED),)");

  /**
   * The task attempts earlier AM attempts (before {@code lastAm}) launched that {@code known} lacks,
   * read from those AMs' logs: node, container, launch and, where the log has it, end and final
   * state; times relative to {@code epochZero} on the harness's clock ({@code clocks}: each node's
   * host clock against it). Their locality, phases and progress are not in a log.
   */
  static List<AttemptRecord> attemptsHistoryLacks(List<AttemptRecord> known, Map<Integer, List<String>> logDirsByNode,
      String appId, int lastAm, long epochZero, Map<Integer, Long> clocks, NodeLocator locator) {
    java.util.Set<String> have = new java.util.HashSet<>();
    known.forEach(a -> have.add(a.attemptId()));
    Map<String, AttemptRecord> found = new TreeMap<>();
    for (AmFolder f : amFolders(logDirsByNode, appId)) {
      if (f.attempt() < lastAm && Files.isRegularFile(f.syslog())) {
        long zero = epochZero + clocks.getOrDefault(f.node(), 0L); // the AM logs on its host's clock
        try {
          read(f.syslog(), f.attempt(), zero, locator, have, found);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read " + f.syslog(), e);
        }
      }
    }
    return new ArrayList<>(found.values());
  }

  private static void read(Path syslog, int am, long zero, NodeLocator locator, java.util.Set<String> have,
      Map<String, AttemptRecord> found) throws IOException {
    try (BufferedReader r = Files.newBufferedReader(syslog, StandardCharsets.UTF_8)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        Long epoch = SpeculationLogReader.logTime(line);
        if (epoch == null) {
          continue;
        }
        Matcher launched = LAUNCHED.matcher(line);
        if (launched.find() && !have.contains(launched.group(1))) {
          String id = launched.group(1);
          String host = launched.group(3);
          int port = Integer.parseInt(launched.group(4));
          String type = id.contains("_m_") ? "MAP" : "REDUCE";
          found.put(id, new AttemptRecord(id, id.replaceFirst("^attempt_", "task_").replaceFirst("_\\d+$", ""), type,
              Integer.parseInt(id.substring(id.lastIndexOf('_') + 1)), locator.find(host, port), host + ":" + port,
              launched.group(2), epoch - zero, null, null, null, null, null, false, null, am, null, null, null));
          continue;
        }
        Matcher ended = ENDED.matcher(line);
        if (ended.find() && found.containsKey(ended.group(1))) {
          AttemptRecord a = found.get(ended.group(1));
          String state = ended.group(2) != null ? ended.group(2) : ended.group(3);
          found.put(a.attemptId(), new AttemptRecord(a.attemptId(), a.taskId(), a.type(), a.attempt(), a.node(), a.host(),
              a.container(), a.startMs(), epoch - zero, null, null, null, state, false, null, am,
              state.equals("SUCCEEDED") ? epoch - zero : null, null, null));
        }
      }
    }
  }

  private static Long firstLogTime(Path syslog, long epochZero) {
    if (!Files.isRegularFile(syslog)) {
      return null;
    }
    try (BufferedReader r = Files.newBufferedReader(syslog, StandardCharsets.UTF_8)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        Long epoch = SpeculationLogReader.logTime(line);
        if (epoch != null) {
          return epoch - epochZero;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + syslog, e);
    }
    return null;
  }
}
