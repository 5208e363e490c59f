package faultbed.harness.daemons;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import faultbed.schedulers.placement.Bandwidths;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NodeManager auxiliary service that measures the bandwidth from every other node to this one,
 * as the Network Weather Service does for a grid: every {@link #INTERVAL} it fetches a blob from
 * each peer's probe over the nodes' own links (so shaped links and faults act on it as on HDFS and
 * shuffle traffic) and forecasts each link from its measurements ({@link BandwidthForecast}). The
 * peers are the NodeManagers the ResourceManager lists as running.
 *
 * <p>A blob is sized to take about {@link #PROBE_MS} at the link's forecast rate, from
 * {@link #MIN_PROBE_BYTES} to {@link #MAX_PROBE_BYTES}: a fixed small blob measures a fast link's
 * connection and request costs more than its bandwidth (64 KiB read the bridge's links at a few
 * percent of their rate), while a slow link is probed with little of its capacity.
 *
 * <p>It serves {@code /blob} to its peers and {@code /bandwidth} to ApplicationMasters: the
 * forecasts into this node, as lines of "from to bytesPerSecond", then "peer host" lines. It is
 * dormant until asked for {@code /bandwidth}, and probes for {@link #ACTIVE_MS} after each ask, so
 * a cluster whose jobs do not place by bandwidth carries none of its traffic.
 */
public class BandwidthProbe extends AuxiliaryService {
  public static final String NAME = "faultbed_bandwidth";
  /** The probe's port on every node (each node has an address of its own). */
  public static final String PORT = "faultbed.bandwidth.port";
  public static final int DEFAULT_PORT = 13564;
  /** How often each link is measured, in ms. */
  public static final String INTERVAL = "faultbed.bandwidth.interval-ms";
  static final int MIN_PROBE_BYTES = 64 << 10;
  static final int MAX_PROBE_BYTES = 8 << 20;
  static final long PROBE_MS = 100;
  static final long ACTIVE_MS = 30_000;
  /** The log line's mark for each measurement. */
  public static final String LOG_MARK = "faultbed-bandwidth";
  private static final Logger LOG = LoggerFactory.getLogger(BandwidthProbe.class);
  private static final byte[] BLOB = new byte[MAX_PROBE_BYTES];

  private final Map<String, BandwidthForecast> forecasts = new ConcurrentHashMap<>();
  private volatile List<String> peers = List.of();
  private volatile long activeUntil;
  private String host;
  private int port;
  private long intervalMs;
  private HttpServer server;
  private HttpClient client;
  private YarnClient yarn;
  private ScheduledExecutorService rounds;

  public BandwidthProbe() {
    super(NAME);
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    host = conf.get("yarn.nodemanager.hostname", "localhost");
    port = conf.getInt(PORT, DEFAULT_PORT);
    intervalMs = conf.getLong(INTERVAL, 2000);
    yarn = YarnClient.createYarnClient();
    yarn.init(conf);
    super.serviceInit(conf);
  }

  @Override
  protected void serviceStart() throws Exception {
    yarn.start();
    server = HttpServer.create(new InetSocketAddress(host, port), 16);
    server.createContext("/blob", this::blob);
    server.createContext("/bandwidth", this::bandwidth);
    server.setExecutor(Executors.newFixedThreadPool(4, daemon("faultbed-bandwidth-serve")));
    server.start();
    client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
        .executor(Executors.newSingleThreadExecutor(daemon("faultbed-bandwidth-client"))).build();
    // two threads: a round blocked on a slow link's read, and the guard that cuts it at its deadline
    rounds = Executors.newScheduledThreadPool(2, daemon("faultbed-bandwidth-probe"));
    rounds.scheduleWithFixedDelay(this::round, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    LOG.info("{} serving on {}:{}, probing every {} ms when asked", LOG_MARK, host, port, intervalMs);
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    if (rounds != null) {
      rounds.shutdownNow();
    }
    if (server != null) {
      server.stop(0);
      ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
    if (yarn != null) {
      yarn.stop();
    }
    super.serviceStop();
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {}

  @Override
  public void stopApplication(ApplicationTerminationContext context) {}

  @Override
  public ByteBuffer getMetaData() {
    return ByteBuffer.allocate(0);
  }

  /** What this node serves ApplicationMasters, for tests. */
  String rows() {
    Bandwidths.Builder b = Bandwidths.builder();
    forecasts.forEach((from, f) -> {
      double r = f.forecast();
      if (r > 0 && !Double.isInfinite(r)) {
        b.rate(from, host, r);
      }
    });
    StringBuilder out = new StringBuilder(b.build().toText());
    peers.forEach(p -> out.append("peer ").append(p).append('\n'));
    return out.toString();
  }

  private void round() {
    if (System.currentTimeMillis() > activeUntil) {
      return;
    }
    try {
      peers = yarn.getNodeReports(NodeState.RUNNING).stream().map(NodeReport::getNodeId)
          .map(n -> n.getHost()).filter(h -> !h.equals(host)).sorted().distinct().toList();
    } catch (Exception e) {
      LOG.warn("{} cannot list the nodes: {}", LOG_MARK, e.toString());
    }
    for (String peer : peers) {
      measure(peer);
    }
  }

  private void measure(String peer) {
    BandwidthForecast known = forecasts.get(peer);
    int size = probeBytes(known == null ? Double.NaN : known.forecast());
    long deadlineMs = Math.max(1000, intervalMs);
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + peer + ":" + port + "/blob?bytes=" + size))
        .timeout(Duration.ofMillis(deadlineMs)).build();
    long start = System.nanoTime();
    long bytes = 0;
    ScheduledFuture<?> guard = null;
    try (InputStream in = client.send(request, HttpResponse.BodyHandlers.ofInputStream()).body()) {
      // the request's timeout covers the headers only: a link that stalls mid-body is cut at the deadline
      guard = rounds.schedule(() -> closeQuietly(in), deadlineMs - (System.nanoTime() - start) / 1_000_000,
          TimeUnit.MILLISECONDS);
      byte[] buf = new byte[65536];
      for (int n; (n = in.read(buf)) >= 0; ) {
        bytes += n;
      }
    } catch (IOException e) {
      // a link that cannot carry the blob in time is as slow as what it carried says, or slower
      LOG.info("{} {} -> {}: {} after {} bytes", LOG_MARK, peer, host, e.toString(), bytes);
      bytes = Math.max(bytes, 1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } finally {
      if (guard != null) {
        guard.cancel(false);
      }
    }
    double seconds = Math.max(1e-6, (System.nanoTime() - start) / 1e9);
    double rate = bytes / seconds;
    BandwidthForecast f = forecasts.computeIfAbsent(peer, k -> new BandwidthForecast());
    f.add(rate);
    LOG.info("{} {} -> {} measured {} B/s, forecast {} B/s", LOG_MARK, peer, host, Math.round(rate),
        Math.round(f.forecast()));
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException e) {
      // closing is all that was wanted
    }
  }

  /** The blob to ask a link for: about {@link #PROBE_MS} of its forecast rate, within the bounds. */
  static int probeBytes(double forecastBytesPerSecond) {
    if (!(forecastBytesPerSecond > 0)) {
      return MIN_PROBE_BYTES;
    }
    double bytes = forecastBytesPerSecond * PROBE_MS / 1000.0;
    return (int) Math.max(MIN_PROBE_BYTES, Math.min(MAX_PROBE_BYTES, bytes));
  }

  private void blob(HttpExchange exchange) throws IOException {
    int size = MIN_PROBE_BYTES;
    String query = exchange.getRequestURI().getQuery();
    if (query != null && query.startsWith("bytes=")) {
      try {
        size = Math.max(1, Math.min(MAX_PROBE_BYTES, Integer.parseInt(query.substring(6))));
      } catch (NumberFormatException e) {
        size = MIN_PROBE_BYTES;
      }
    }
    try (exchange) {
      exchange.sendResponseHeaders(200, size);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(BLOB, 0, size);
      }
    }
  }

  private void bandwidth(HttpExchange exchange) throws IOException {
    activeUntil = System.currentTimeMillis() + ACTIVE_MS;
    byte[] body = rows().getBytes(StandardCharsets.UTF_8);
    try (exchange) {
      exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
