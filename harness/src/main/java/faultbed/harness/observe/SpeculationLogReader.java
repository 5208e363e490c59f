package faultbed.harness.observe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import faultbed.harness.Speculation;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.SpeculationEvent;
import faultbed.schedulers.yarn.PolicySpeculator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what the speculator decided from the ApplicationMaster's own log: {@link PolicySpeculator}'s
 * decision lines for faultbed policies, and for any other speculator (Hadoop's DefaultSpeculator, a
 * user's class) the line TaskImpl writes for every backup it schedules.
 */
public final class SpeculationLogReader {
  private static final Pattern TIME = Pattern.compile("^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}) ");
  private static final Pattern REDUNDANT = Pattern.compile("Scheduling a redundant attempt for task (task_\\S+)");
  private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");
  private static final ObjectMapper JSON = new ObjectMapper();

  private SpeculationLogReader() {}

  /** The epoch milliseconds a Hadoop log line begins with (log4j's default, local time); null if none. */
  static Long logTime(String line) {
    Matcher t = TIME.matcher(line);
    return t.find() ? LocalDateTime.parse(t.group(1), FORMAT).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli()
        : null;
  }

  static RunRecord.Speculation read(Map<Integer, List<String>> logDirsByNode, String appId,
      Speculation speculation, Map<String, Integer> nodeById, long epochZero, Map<Integer, Long> clocks) {
    if (speculation.kind().equals("off")) {
      return new RunRecord.Speculation("off", null, List.of());
    }
    boolean policy = speculation.kind().equals("policy");
    List<SpeculationEvent> events = new ArrayList<>();
    for (AmLogs.AmFolder am : AmLogs.amFolders(logDirsByNode, appId)) {
      long zero = epochZero + clocks.getOrDefault(am.node(), 0L); // the AM logs on its host's clock
      try {
        parse(am.lines("syslog"), policy, speculation, nodeById, zero, events);
      } catch (IOException e) {
        throw new UncheckedIOException("a speculation decision in " + am.folder() + " that is not JSON", e);
      }
    }
    events.sort(Comparator.comparingLong(SpeculationEvent::atMs));
    String speculator = speculation.kind().equals("hadoop3")
        ? "org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator"
        : policy ? PolicySpeculator.class.getName() : speculation.name();
    return new RunRecord.Speculation(speculator, speculation.describe(), events);
  }

  /**
   * A policy speculator's decision lines (as {@link PolicySpeculator} writes them, anywhere in a
   * line) as events, times from {@code epochZero} on the clock the speculator read.
   */
  public static List<SpeculationEvent> policyDecisions(List<String> lines, Map<String, Integer> nodeById,
      long epochZero) {
    List<SpeculationEvent> events = new ArrayList<>();
    try {
      parse(lines, true, null, nodeById, epochZero, events);
    } catch (IOException e) {
      throw new UncheckedIOException("a speculation decision that is not JSON", e);
    }
    return events;
  }

  static void parse(List<String> lines, boolean policy, Speculation speculation, Map<String, Integer> nodeById,
      long epochZero, List<SpeculationEvent> out) throws IOException {
    for (String line : lines) {
      int mark = line.indexOf(PolicySpeculator.LOG_MARK);
      if (policy && mark >= 0) {
        JsonNode j = JSON.readTree(line.substring(mark + PolicySpeculator.LOG_MARK.length()));
        String event = j.path("event").asText();
        if (event.equals("configured")) {
          continue;
        }
        Map<String, Double> evidence = new LinkedHashMap<>();
        j.path("evidence").fields().forEachRemaining(e -> evidence.put(e.getKey(), e.getValue().asDouble()));
        boolean placed = event.equals("placed");
        out.add(new SpeculationEvent(j.path("atEpochMs").asLong() - epochZero, event, j.path("task").asText(),
            j.path(placed ? "attempt" : "original").asText(null),
            nodeById.get(j.path(placed ? "node" : "originalNode").asText("")),
            placed ? j.path("accepted").asBoolean() : null, placed ? j.path("killed").asBoolean() : null,
            j.path("reason").asText(null), evidence));
        continue;
      }
      Matcher m = REDUNDANT.matcher(line);
      Long epoch = logTime(line);
      if (!policy && m.find() && epoch != null) {
        long at = epoch - epochZero;
        out.add(new SpeculationEvent(at, "backup", m.group(1).replaceAll("[.,]$", ""), null, null, null, null,
            speculation.describe() + " asked for a backup", Map.of()));
      }
    }
  }
}
