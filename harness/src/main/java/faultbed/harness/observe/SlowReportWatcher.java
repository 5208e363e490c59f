package faultbed.harness.observe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import faultbed.results.RunRecord.SlowReport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Polls the NameNode's slow-peer and slow-disk reports every second (they change at most once a
 * DataNode heartbeat) and tells the run's history when a DataNode or one of its disks enters a report
 * and when it leaves it. The reports exist only where HDFS's outlier detection is on
 * ({@code dfs.datanode.peer.stats.enabled}, {@code dfs.datanode.fileio.profiling.sampling.percentage});
 * elsewhere there is nothing to see and the run's record has no slow reports.
 */
public final class SlowReportWatcher implements AutoCloseable {
  static final long POLL_MS = 1000;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The NameNode's two reports as it gives them (JSON, or null when that detection is off). */
  public record Reports(String slowPeers, String slowDisks) {
    public static final Reports NONE = new Reports(null, null);
  }

  /** One DataNode or disk named in a report: what, who, its address, and what the report says of it. */
  record Named(String what, String dataNode, String ip, String detail) {}

  private final Supplier<Reports> reports;
  private final Map<String, Integer> nodeByIp;
  private final LongSupplier nowMs;
  private final Consumer<SlowReport> seen;
  private final Thread thread;
  private volatile boolean running = true;
  private final Map<String, SlowReport> open = new LinkedHashMap<>();

  SlowReportWatcher(Supplier<Reports> reports, Map<String, Integer> nodeByIp, LongSupplier nowMs,
      Consumer<SlowReport> seen) {
    this.reports = reports;
    this.nodeByIp = Map.copyOf(nodeByIp);
    this.nowMs = nowMs;
    this.seen = seen;
    this.thread = new Thread(this::loop, "faultbed-slow-reports");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  private void loop() {
    while (running) {
      Reports now;
      try {
        now = reports.get();
      } catch (RuntimeException e) {
        now = null; // a NameNode stopping under the run: what it said last stands
      }
      if (now != null) {
        update(named(now), nowMs.getAsLong());
      }
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized void update(List<Named> now, long t) {
    Map<String, Named> current = new LinkedHashMap<>();
    now.forEach(n -> current.put(n.what() + " " + n.dataNode(), n));
    for (var e : current.entrySet()) {
      if (!open.containsKey(e.getKey())) {
        Named n = e.getValue();
        SlowReport r = new SlowReport(nodeByIp.getOrDefault(n.ip(), -1), n.what(), n.dataNode(), n.detail(), t, null);
        open.put(e.getKey(), r);
        seen.accept(r);
      }
    }
    for (var it = open.entrySet().iterator(); it.hasNext();) {
      var e = it.next();
      if (!current.containsKey(e.getKey())) {
        SlowReport r = e.getValue();
        seen.accept(new SlowReport(r.node(), r.what(), r.dataNode(), r.detail(), r.atMs(), t));
        it.remove();
      }
    }
  }

  /**
   * What the reports name. A slow peer: {@code [{"SlowNode": "ip:port", "SlowPeerLatencyWithReportingNodes":
   * [{"ReportingNode", "ReportedLatency", "MedianLatency", ...}]}]}; a slow disk: {@code [{"SlowDiskID":
   * "ip:port:/volume/", "Latencies": {...}}]} (HDFS 3.4's SlowPeerTracker and SlowDiskTracker).
   */
  static List<Named> named(Reports r) {
    List<Named> out = new ArrayList<>();
    for (JsonNode peer : parse(r.slowPeers())) {
      String node = peer.path("SlowNode").asText();
      List<String> by = new ArrayList<>();
      for (JsonNode rep : peer.path("SlowPeerLatencyWithReportingNodes")) {
        by.add(rep.path("ReportingNode").asText() + " saw " + ms(rep.path("ReportedLatency")) + " ms (median "
            + ms(rep.path("MedianLatency")) + ")");
      }
      out.add(new Named(SlowReport.PEER, node, ipOf(node), "reported by " + String.join(", ", by)));
    }
    for (JsonNode disk : parse(r.slowDisks())) {
      String id = disk.path("SlowDiskID").asText();
      Map<String, String> latencies = new LinkedHashMap<>();
      disk.path("Latencies").fields().forEachRemaining(f -> latencies.put(f.getKey(), ms(f.getValue()) + " ms"));
      out.add(new Named(SlowReport.DISK, id, ipOf(id), "latencies " + latencies));
    }
    return out;
  }

  private static String ms(JsonNode n) {
    return String.format(java.util.Locale.ROOT, "%.1f", n.asDouble());
  }

  private static String ipOf(String address) {
    int colon = address.indexOf(':');
    return colon < 0 ? address : address.substring(0, colon);
  }

  private static Iterable<JsonNode> parse(String json) {
    if (json == null || json.isBlank()) {
      return List.of();
    }
    try {
      JsonNode n = JSON.readTree(json);
      return n.isArray() ? n : List.of();
    } catch (java.io.IOException e) {
      return List.of(); // a report the NameNode could not finish: the next poll reads it whole
    }
  }

  /** Node index by IP address, for nodes of their own address (others cannot be told apart by a report). */
  static Map<String, Integer> byAddress(List<? extends faultbed.harness.Node> nodes) {
    Map<String, Integer> m = new HashMap<>();
    for (var n : nodes) {
      if (n.address() != null) {
        m.put(n.address(), n.index());
      }
    }
    return m;
  }

  /** Stops polling; a report still open stays open in the record (the run ended with it). */
  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
