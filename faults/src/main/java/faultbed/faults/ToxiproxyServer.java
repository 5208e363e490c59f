package faultbed.faults;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A Toxiproxy server to put proxies on: one the user runs on this machine (its API address), or
 * one in a container Testcontainers starts where a Docker engine is, on the host's network. Proxies
 * front ports of this machine; clients reach them on a port of this machine's loopback too.
 */
public final class ToxiproxyServer implements AutoCloseable {
  /** Where a user's server is found when the scenario names none. */
  public static final String URL_VARIABLE = "FAULTBED_TOXIPROXY_URL";
  static final DockerImageName IMAGE = DockerImageName.parse("ghcr.io/shopify/toxiproxy:2.5.0");
  private static final Duration CONTAINER_START = Duration.ofSeconds(60);

  private final ToxiproxyClient client;
  private final String api;
  private final GenericContainer<?> container; // null for a user's server

  private ToxiproxyServer(ToxiproxyClient client, String api, GenericContainer<?> container) {
    this.client = client;
    this.api = api;
    this.container = container;
  }

  /** The API address to use: the one given, else {@value #URL_VARIABLE}, else none (a container). */
  static String resolve(String url) {
    if (url != null && !url.isBlank()) {
      return url;
    }
    String env = System.getenv(URL_VARIABLE);
    return env == null || env.isBlank() ? null : env;
  }

  /**
   * Empty when a server can be had; otherwise one line saying why not and what to do. Asks the
   * server for its version, or Docker whether it runs.
   */
  public static Optional<String> unavailable(String url) {
    String resolved = resolve(url);
    if (resolved != null) {
      try {
        client(resolved).version();
        return Optional.empty();
      } catch (IOException | RuntimeException e) {
        return Optional.of("the Toxiproxy server at " + resolved + " does not answer (" + e.getMessage()
            + "): start it (toxiproxy-server) or fix the address");
      }
    }
    if (dockerRuns()) {
      return Optional.empty();
    }
    return Optional.of("no Toxiproxy server: give the API address of one running on this machine (cluster.network"
        + " {\"toxiproxy\": \"http://127.0.0.1:8474\"} or " + URL_VARIABLE + "), or run where a Docker engine is"
        + " (Testcontainers found none)");
  }

  private static boolean dockerRuns() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Connects to the user's server, or starts one in a container; fails with one line if neither can be had. */
  public static ToxiproxyServer open(String url) {
    String resolved = resolve(url);
    Optional<String> problem = unavailable(resolved);
    if (problem.isPresent()) {
      throw new PreconditionFailed(problem.get());
    }
    if (resolved != null) {
      return new ToxiproxyServer(client(resolved), resolved, null);
    }
    // On the host's network, so its proxies listen on this machine's loopback as a local server's
    // do: a disabled proxy refuses connections itself. Behind Docker's port publishing, its
    // userland proxy would accept them and then close them, and a crashed node would not look
    // dead; nor would the upstream ports need forwarding into the container.
    int port = freePort();
    GenericContainer<?> c = new GenericContainer<>(IMAGE).withNetworkMode("host")
        .withCommand("-host=127.0.0.1", "-port=" + port);
    c.start();
    String api = "http://127.0.0.1:" + port;
    ToxiproxyClient client = client(api);
    long deadline = System.nanoTime() + CONTAINER_START.toNanos();
    while (true) {
      try {
        client.version();
        return new ToxiproxyServer(client, api, c);
      } catch (IOException | RuntimeException notYet) {
        if (System.nanoTime() > deadline) {
          c.stop();
          throw new IllegalStateException("the Toxiproxy container did not answer at " + api + " within "
              + CONTAINER_START, notYet);
        }
        LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
      }
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port for the Toxiproxy container", e);
    }
  }

  static ToxiproxyClient client(String url) {
    URI u = URI.create(url);
    if (u.getHost() == null || u.getPort() < 0) {
      throw new IllegalArgumentException("cluster.network.toxiproxy: expected an address like http://127.0.0.1:8474,"
          + " got " + url);
    }
    return new ToxiproxyClient(u.getScheme() == null ? "http" : u.getScheme(), u.getHost(), u.getPort());
  }

  public String api() {
    return api;
  }

  /** Whether proxies live in a container this JVM started (and that dies with it). */
  public boolean inContainer() {
    return container != null;
  }

  ToxiproxyClient client() {
    return client;
  }

  /** A proxy in front of local port {@code upstreamPort}, and the local port clients reach it on. */
  record Created(Proxy proxy, int clientPort) {}

  synchronized Created create(String name, int upstreamPort) throws IOException {
    Proxy p = client.createProxy(name, "127.0.0.1:0", "127.0.0.1:" + upstreamPort);
    String listen = p.getListen();
    return new Created(p, Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1)));
  }

  @Override
  public void close() {
    if (container != null) {
      container.stop();
    }
  }

  @Override
  public String toString() {
    return container == null ? "Toxiproxy at " + api : "Toxiproxy in a container (" + api + ")";
  }
}
