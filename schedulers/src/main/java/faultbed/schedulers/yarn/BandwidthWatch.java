package faultbed.schedulers.yarn;

import faultbed.schedulers.placement.Bandwidths;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The ApplicationMaster's view of the nodes' bandwidth probes: every second it asks the probe on its
 * own node for that node's measurements and the list of peers, then asks every peer for its own,
 * and keeps the latest matrix. Asking keeps the probes measuring while the job runs.
 */
final class BandwidthWatch implements Runnable {
  private static final long PERIOD_MS = 1000;
  /** How often the matrix goes to the AM's log (and so to the run's record). */
  private static final long LOG_EVERY_MS = 5000;
  private long lastLogged;
  private final String ownHost;
  private final int port;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
  private volatile Bandwidths latest = Bandwidths.none();
  private volatile List<String> peers = List.of();

  BandwidthWatch(String ownHost, int port) {
    this.ownHost = ownHost;
    this.port = port;
  }

  /** Starts asking in a daemon thread. */
  static BandwidthWatch start(String ownHost, int port) {
    BandwidthWatch w = new BandwidthWatch(ownHost, port);
    Thread t = new Thread(w, "faultbed-bandwidth-watch");
    t.setDaemon(true);
    t.start();
    return w;
  }

  Bandwidths latest() {
    return latest;
  }

  /** The hosts the probes know as nodes, this one included. */
  List<String> nodes() {
    return peers;
  }

  @Override
  public void run() {
    while (!Thread.currentThread().isInterrupted()) {
      refresh();
      try {
        Thread.sleep(PERIOD_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  void refresh() {
    Bandwidths.Builder all = Bandwidths.builder();
    Set<String> hosts = new LinkedHashSet<>();
    hosts.add(ownHost);
    List<String> asked = new ArrayList<>();
    List<String> toAsk = new ArrayList<>(List.of(ownHost));
    while (!toAsk.isEmpty()) {
      String host = toAsk.remove(0);
      asked.add(host);
      String rows = ask(host);
      if (rows == null) {
        continue;
      }
      StringBuilder measured = new StringBuilder();
      for (String line : rows.split("\n")) {
        if (line.startsWith("peer ")) {
          String peer = line.substring(5).trim();
          if (hosts.add(peer) && !asked.contains(peer)) {
            toAsk.add(peer);
          }
        } else {
          measured.append(line).append('\n');
        }
      }
      Bandwidths.parse(measured.toString(), all);
    }
    latest = all.build();
    peers = List.copyOf(hosts);
    long now = System.currentTimeMillis();
    if (!latest.isEmpty() && now - lastLogged >= LOG_EVERY_MS) {
      lastLogged = now;
      List<Object> rates = new ArrayList<>();
      for (String line : latest.toText().split("\n")) {
        String[] f = line.split(" ");
        if (f.length == 3) {
          rates.add(List.of(f[0], f[1], Long.parseLong(f[2])));
        }
      }
      java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
      out.put("event", "bandwidth");
      out.put("atEpochMs", now);
      out.put("rates", rates);
      System.err.println(PlacementAgent.MARK + " " + Json.write(out));
    }
  }

  private String ask(String host) {
    try {
      HttpRequest r = HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/bandwidth"))
          .timeout(Duration.ofSeconds(1)).build();
      HttpResponse<String> response = client.send(r, HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? response.body() : null;
    } catch (java.io.IOException | IllegalArgumentException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
