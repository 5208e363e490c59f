package faultbed.faults;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.Testcontainers;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.ToxiproxyContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A Toxiproxy server to put proxies on: one the user runs on this machine (its API address), or
 * one in a container Testcontainers starts where a Docker engine is. Proxies front ports of this
 * machine; clients reach them on a port of this machine too.
 */
public final class ToxiproxyServer implements AutoCloseable {
  /** Where a user's server is found when the scenario names none. */
  public static final String URL_VARIABLE = "FAULTBED_TOXIPROXY_URL";
  static final DockerImageName IMAGE = DockerImageName.parse("ghcr.io/shopify/toxiproxy:2.5.0");
  private static final int FIRST_CONTAINER_PORT = 8666;
  private static final int CONTAINER_PORTS = 32; // what ToxiproxyContainer exposes

  private final ToxiproxyClient client;
  private final String api;
  private final ToxiproxyContainer container; // null for a user's server
  private final Deque<Integer> freeContainerPorts = new ArrayDeque<>();

  private ToxiproxyServer(ToxiproxyClient client, String api, ToxiproxyContainer container) {
    this.client = client;
    this.api = api;
    this.container = container;
    for (int p = FIRST_CONTAINER_PORT; p < FIRST_CONTAINER_PORT + CONTAINER_PORTS; p++) {
      freeContainerPorts.add(p);
    }
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
    ToxiproxyContainer c = new ToxiproxyContainer(IMAGE).withAccessToHost(true);
    c.start();
    String api = "http://" + c.getHost() + ":" + c.getControlPort();
    return new ToxiproxyServer(new ToxiproxyClient(c.getHost(), c.getControlPort()), api, c);
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
  record Created(Proxy proxy, int clientPort, int containerPort) {}

  synchronized Created create(String name, int upstreamPort) throws IOException {
    if (container == null) {
      Proxy p = client.createProxy(name, "127.0.0.1:0", "127.0.0.1:" + upstreamPort);
      String listen = p.getListen();
      return new Created(p, Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1)), -1);
    }
    Integer port = freeContainerPorts.poll();
    if (port == null) {
      throw new IllegalStateException("the Toxiproxy container has no free proxy port left (it exposes "
          + CONTAINER_PORTS + ")");
    }
    Testcontainers.exposeHostPorts(upstreamPort);
    Proxy p = client.createProxy(name, "0.0.0.0:" + port,
        GenericContainer.INTERNAL_HOST_HOSTNAME + ":" + upstreamPort);
    return new Created(p, container.getMappedPort(port), port);
  }

  synchronized void released(Created created) {
    if (created.containerPort() > 0) {
      freeContainerPorts.add(created.containerPort());
    }
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
