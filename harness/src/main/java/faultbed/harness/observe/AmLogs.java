package faultbed.harness.observe;

import faultbed.results.RunRecord.AmAttempt;
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
 * The ApplicationMaster attempts the NodeManagers' log folders show. An AM that died before any of
 * its task attempts finished wrote no history, and the next AM then cannot name it; but every AM
 * ran as container 000001 of its application attempt, in a log folder on the node that ran it.
 */
final class AmLogs {
  /** container_[e&lt;epoch&gt;_]&lt;cluster ts&gt;_&lt;app&gt;_&lt;attempt&gt;_000001 */
  private static final Pattern AM_CONTAINER = Pattern.compile("container_(?:e\\d+_)?\\d+_\\d+_(\\d+)_000001");

  private AmLogs() {}

  /**
   * The AM attempts from the history, with those it lacks (or the nodes it could not place) taken
   * from the log folders; the start of one found only there is its log's first line.
   */
  static List<AmAttempt> complete(List<AmAttempt> fromHistory, Map<Integer, List<String>> logDirsByNode, String appId,
      long epochZero, Map<Integer, Long> clocks) {
    Map<Integer, AmAttempt> byAttempt = new TreeMap<>();
    fromHistory.forEach(a -> byAttempt.put(a.attempt(), a));
    logDirsByNode.forEach((node, dirs) -> {
      for (String dir : dirs) {
        Path app = Path.of(dir, appId);
        if (!Files.isDirectory(app)) {
          continue;
        }
        try (Stream<Path> containers = Files.list(app)) {
          for (Path c : containers.toList()) {
            Matcher m = AM_CONTAINER.matcher(c.getFileName().toString());
            if (!m.matches()) {
              continue;
            }
            int attempt = Integer.parseInt(m.group(1));
            AmAttempt known = byAttempt.get(attempt);
            if (known == null) {
              byAttempt.put(attempt, new AmAttempt(attempt, node, null, c.getFileName().toString(),
                  firstLogTime(c.resolve("syslog"), epochZero + clocks.getOrDefault(node, 0L))));
            } else if (known.node() == null) {
              byAttempt.put(attempt, new AmAttempt(attempt, node, known.host(), known.container(), known.startMs()));
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException("cannot list the containers under " + app, e);
        }
      }
    });
    return new ArrayList<>(byAttempt.values());
  }

  private static Long firstLogTime(Path syslog, long epochZero) throws IOException {
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
    }
    return null;
  }
}
