package faultbed.harness.observe;

import faultbed.results.RunRecord.FetchFailureReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the fetch-failure reports reducers sent to the AM from their shuffle logs
 * ({@code syslog.shuffle}), which the job history does not keep.
 */
final class ShuffleLogReader {
  private static final Pattern REPORT = Pattern.compile(
      "^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}) .*Reporting fetch failure for (attempt_\\S+) to MRAppMaster");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

  private ShuffleLogReader() {}

  /**
   * @param logDirsByNode every NodeManager log folder of the run, by node index
   * @param attemptByContainer container id to attempt id, from the history file
   * @param nodeOfAttempt node index of each attempt
   * @param clocks each node's host clock ahead of the harness's, in ms, where they differ
   */
  static List<FetchFailureReport> read(Map<Integer, List<String>> logDirsByNode, String appId,
      Map<String, String> attemptByContainer, Map<String, Integer> nodeOfAttempt, long epochZero,
      Map<Integer, Long> clocks) {
    List<FetchFailureReport> reports = new ArrayList<>();
    for (var e : logDirsByNode.entrySet()) {
      long zero = epochZero + clocks.getOrDefault(e.getKey(), 0L); // the log is on its host's clock
      for (String dir : e.getValue()) {
        Path app = Path.of(dir, appId);
        if (!Files.isDirectory(app)) {
          continue;
        }
        try (Stream<Path> containers = Files.list(app)) {
          for (Path c : containers.toList()) {
            Path log = c.resolve("syslog.shuffle");
            if (!Files.isRegularFile(log)) {
              continue;
            }
            String reducer = attemptByContainer.get(c.getFileName().toString());
            for (String line : Files.readAllLines(log)) {
              Matcher m = REPORT.matcher(line);
              if (m.find()) {
                long at = LocalDateTime.parse(m.group(1), TIME).atZone(ZoneId.systemDefault())
                    .toInstant().toEpochMilli() - zero;
                String map = m.group(2).replaceAll("[.,]$", "");
                reports.add(new FetchFailureReport(at, reducer, e.getKey(), map, nodeOfAttempt.get(map)));
              }
            }
          }
        } catch (IOException ex) {
          throw new UncheckedIOException("cannot read shuffle logs under " + app, ex);
        }
      }
    }
    reports.sort(Comparator.comparingLong(FetchFailureReport::atMs));
    return reports;
  }
}
