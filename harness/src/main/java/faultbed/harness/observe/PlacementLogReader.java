package faultbed.harness.observe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import faultbed.results.RunHistory;
import faultbed.results.RunRecord.LinkRate;
import faultbed.results.RunRecord.PlacementEvent;
import faultbed.schedulers.yarn.PlacementAgent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what a network-aware placement policy decided, and the link rates it saw, from the
 * ApplicationMaster's stderr, where {@link PlacementAgent} writes them as lines of JSON.
 */
final class PlacementLogReader {
  private static final ObjectMapper JSON = new ObjectMapper();

  private PlacementLogReader() {}

  /**
   * The policy's decisions and rates in every AM container of the application, times from
   * {@code epochZero} on the clock of the AM's node; hosts named by node index.
   */
  static RunHistory.PlacementRead read(Map<Integer, List<String>> logDirsByNode, String appId,
      Map<String, Integer> nodeById, long epochZero, Map<Integer, Long> clocks) {
    Map<String, Integer> nodeByHost = new HashMap<>();
    nodeById.forEach((id, index) -> nodeByHost.put(id.contains(":") ? id.substring(0, id.lastIndexOf(':')) : id, index));
    List<PlacementEvent> events = new ArrayList<>();
    List<LinkRate> rates = new ArrayList<>();
    for (AmLogs.AmFolder am : AmLogs.amFolders(logDirsByNode, appId)) {
      long zero = epochZero + clocks.getOrDefault(am.node(), 0L); // the AM logs on its host's clock
      try {
        parse(am.lines("stderr"), nodeByHost, zero, events, rates);
      } catch (IOException e) {
        throw new UncheckedIOException("a placement line in " + am.folder() + " that is not JSON", e);
      }
    }
    events.sort(Comparator.comparingLong(PlacementEvent::atMs));
    rates.sort(Comparator.comparingLong(LinkRate::atMs));
    return new RunHistory.PlacementRead(events, rates);
  }

  static void parse(List<String> lines, Map<String, Integer> nodeByHost, long zero, List<PlacementEvent> events,
      List<LinkRate> rates) throws IOException {
    String mark = PlacementAgent.MARK + " {";
    for (String line : lines) {
      int at = line.indexOf(mark);
      if (at < 0) {
        continue;
      }
      JsonNode j = JSON.readTree(line.substring(at + mark.length() - 1));
      long atMs = j.path("atEpochMs").asLong() - zero;
      if (j.path("event").asText().equals("bandwidth")) {
        for (JsonNode r : j.path("rates")) {
          Integer from = nodeByHost.get(r.path(0).asText());
          Integer to = nodeByHost.get(r.path(1).asText());
          if (from != null && to != null) {
            rates.add(new LinkRate(atMs, from, to, r.path(2).asDouble()));
          }
        }
        continue;
      }
      events.add(new PlacementEvent(atMs, j.path("event").asText(), j.path("type").asText(),
          nodeByHost.get(j.path("host").asText()), text(j, "attempt"), number(j, "expectedMs"),
          j.hasNonNull("candidates") ? j.path("candidates").asInt() : null,
          j.hasNonNull("preferred") ? nodeByHost.get(j.path("preferred").asText()) : null, text(j, "reason")));
    }
  }

  private static String text(JsonNode j, String field) {
    return j.hasNonNull(field) ? j.path(field).asText() : null;
  }

  private static Double number(JsonNode j, String field) {
    return j.hasNonNull(field) ? j.path(field).asDouble() : null;
  }
}
