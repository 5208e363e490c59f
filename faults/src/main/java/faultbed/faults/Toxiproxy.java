package faultbed.faults;

import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.Toxic;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Network faults as Toxiproxy toxics. A port is reachable once it is fronted: a proxy named
 * {@code faultbed-<owner>-<port>} forwards to it, and its clients are sent to the proxy's port
 * instead (a node advertises that port for its shuffle). Faults then act on the proxy, both ways:
 * bandwidth and latency toxics for caps and delays, a timeout toxic (data held, never delivered)
 * for a blackhole. A proxy answers connects itself, so it cannot hide a live port's RSTs: that
 * fault stays with the kernel backend. A dead host's silence it can make: the proxy holds every
 * connection and byte and keeps listening after the port behind it died.
 */
public final class Toxiproxy implements NetworkFaults, AutoCloseable {
  static final String KIND = "toxiproxy-proxy";

  private final ToxiproxyServer server;
  private final Ledger ledger;
  private final Map<Integer, Front> fronts = new LinkedHashMap<>();
  private final AtomicInteger toxicSeq = new AtomicInteger();
  /** Ports whose proxies hold everything for a dead host: they keep listening when the port dies. */
  private final java.util.Set<Integer> silenced = new java.util.HashSet<>();

  private record Front(ToxiproxyServer.Created created, LedgerEntry entry) {}

  public Toxiproxy(ToxiproxyServer server, Ledger ledger) {
    this.server = server;
    this.ledger = ledger;
  }

  public ToxiproxyServer server() {
    return server;
  }

  @Override
  public String name() {
    return "toxiproxy";
  }

  /** Puts a proxy in front of port {@code upstreamPort}; returns the port its clients should use. */
  public int front(int upstreamPort) {
    return front(upstreamPort, 0);
  }

  /**
   * Puts a proxy listening on {@code listenPort} (0: any free one) in front of port
   * {@code upstreamPort}; returns the port its clients should use.
   */
  public synchronized int front(int upstreamPort, int listenPort) {
    Front f = fronts.get(upstreamPort);
    if (f != null) {
      return f.created().clientPort();
    }
    String name = "faultbed-" + ledger.owner() + "-" + upstreamPort;
    // Recorded first: a user's server outlives this JVM, and the next start deletes what is left.
    LedgerEntry entry = server.startedHere() ? null
        : new LedgerEntry(KIND, name, "cluster", Map.of("api", server.api()));
    if (entry != null) {
      ledger.record(entry);
    }
    try {
      fronts.put(upstreamPort, new Front(server.create(name, upstreamPort, listenPort), entry));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create Toxiproxy proxy " + name + " on " + server, e);
    }
    return fronts.get(upstreamPort).created().clientPort();
  }

  /** The port clients of {@code upstreamPort} are sent to, or -1 when it is not fronted. */
  public synchronized int clientPort(int upstreamPort) {
    Front f = fronts.get(upstreamPort);
    return f == null ? -1 : f.created().clientPort();
  }

  /**
   * Its proxy stops listening: clients are refused, as by the dead port behind it; unless the host
   * was silenced first, whose proxy goes on holding them.
   */
  public synchronized void refuse(int upstreamPort) {
    Front f = fronts.get(upstreamPort);
    if (f != null && !silenced.contains(upstreamPort)) {
      try {
        f.created().proxy().disable();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot disable Toxiproxy proxy " + f.created().proxy().getName(), e);
      }
    }
  }

  /** Deletes the proxy in front of {@code upstreamPort} (the port is gone for good). */
  public synchronized void unfront(int upstreamPort) {
    Front f = fronts.remove(upstreamPort);
    if (f == null) {
      return;
    }
    try {
      f.created().proxy().delete();
    } catch (IOException gone) {
      // already deleted
    }
    if (f.entry() != null) {
      ledger.heal(f.entry());
    }
  }

  @Override
  public synchronized List<Integer> reach(List<Integer> ports) {
    return ports.stream().filter(fronts::containsKey).toList();
  }

  @Override
  public Installed cap(String runId, List<Integer> ports, long bytesPerSecond) {
    if (bytesPerSecond < 1000) {
      throw new IllegalArgumentException("rate: Toxiproxy caps in whole kilobytes per second; expected at least"
          + " 1000 bytes/s, got " + bytesPerSecond);
    }
    long kbPerSecond = Math.round(bytesPerSecond / 1000.0); // Toxiproxy's KB is 1000 bytes
    return toxics(runId, ports, "bandwidth", (toxics, name, dir) -> toxics.bandwidth(name, dir, kbPerSecond));
  }

  @Override
  public Installed delay(String runId, List<Integer> ports, Duration delay, Duration jitter) {
    return toxics(runId, ports, "latency",
        (toxics, name, dir) -> toxics.latency(name, dir, delay.toMillis()).setJitter(jitter.toMillis()));
  }

  @Override
  public Installed dropAll(String runId, List<Integer> ports) {
    return toxics(runId, ports, "timeout", (toxics, name, dir) -> toxics.timeout(name, dir, 0));
  }

  /**
   * The host behind these ports stops answering, as a dead machine does: a timeout toxic holds
   * every connection and byte both ways, and the proxy keeps accepting when the port behind it
   * dies. Peers connect, then wait for their read timeout where the kernel's silence leaves them
   * waiting for their connect timeout.
   */
  @Override
  public Installed silence(String runId, List<Integer> ports) {
    Installed held = dropAll(runId, ports);
    List<Integer> reached = reach(ports);
    synchronized (this) {
      silenced.addAll(reached);
    }
    return () -> {
      synchronized (this) {
        silenced.removeAll(reached);
      }
      held.heal();
    };
  }

  @Override
  public Installed dropRst(String runId, List<Integer> ports) {
    throw new PreconditionFailed("rst-suppression: the toxiproxy backend cannot hide RSTs (a proxy answers every"
        + " connect itself); use the kernel backend (cluster.network \"kernel\")");
  }

  @Override
  public Installed dropRandomly(String runId, List<Integer> ports, double probability) {
    throw new PreconditionFailed("packet-loss: the toxiproxy backend sees a stream, not packets (what a toxic drops"
        + " TCP never sends again); use the kernel backend (cluster.network \"kernel\")");
  }

  private interface ToxicMaker {
    Toxic make(eu.rekawek.toxiproxy.model.ToxicList toxics, String name, ToxicDirection direction) throws IOException;
  }

  private synchronized Installed toxics(String runId, List<Integer> ports, String type, ToxicMaker maker) {
    List<Installed> parts = new ArrayList<>();
    try {
      for (int port : reach(ports)) {
        var proxy = fronts.get(port).created().proxy();
        for (ToxicDirection dir : ToxicDirection.values()) {
          String name = "faultbed-" + runId + "-" + type + "-" + toxicSeq.incrementAndGet() + "-"
              + dir.name().toLowerCase();
          Toxic t = maker.make(proxy.toxics(), name, dir);
          parts.add(() -> removeQuietly(t));
        }
      }
    } catch (IOException e) {
      Installed.all(parts).heal();
      throw new UncheckedIOException("cannot add a " + type + " toxic on " + server, e);
    }
    return Installed.all(parts);
  }

  private static void removeQuietly(Toxic t) {
    try {
      t.remove();
    } catch (IOException gone) {
      // removed already, or its proxy deleted
    }
  }

  /** Deletes every proxy this backend made; the server itself goes if this JVM started it. */
  @Override
  public synchronized void close() {
    for (Integer port : new ArrayList<>(fronts.keySet())) {
      unfront(port);
    }
    server.close();
  }

  /** Deletes a proxy a dead harness left on a user's server. */
  static final class ProxyHealer implements Healer {
    @Override
    public String kind() {
      return KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      String api = entry.detail().get("api");
      ToxiproxyClient client = ToxiproxyServer.client(api);
      var proxy = client.getProxyOrNull(entry.id());
      if (proxy == null) {
        return null; // gone, or the server is: either way nothing of ours is left on it
      }
      try {
        proxy.delete();
      } catch (IOException e) {
        return null;
      }
      return "deleted Toxiproxy proxy " + entry.id() + " on " + api;
    }
  }
}
