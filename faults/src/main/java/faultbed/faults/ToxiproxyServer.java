package faultbed.faults;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A Toxiproxy server to put proxies on. For nodes in the harness (sharing this machine's address):
 * one the user runs on this machine (its API address), or one in a container Testcontainers starts
 * where a Docker engine is, on the host's network; proxies front ports of this machine's loopback
 * and listen there. For a node with an address of its own: a server of the harness's inside the
 * node's network (a process in its namespace, or a container sharing its container's), whose
 * proxies listen on the node's address and front its ports there, so the addresses clients are
 * given stay the node's.
 */
public final class ToxiproxyServer implements AutoCloseable {
  /** Where a user's server is found when the scenario names none. */
  public static final String URL_VARIABLE = "FAULTBED_TOXIPROXY_URL";
  /** Where the server program is found for a node's namespace when it is not {@value #PROGRAM} on the PATH. */
  public static final String PROGRAM_VARIABLE = "FAULTBED_TOXIPROXY_SERVER";
  static final String PROGRAM = "toxiproxy-server";
  static final DockerImageName IMAGE = DockerImageName.parse("ghcr.io/shopify/toxiproxy:2.5.0");
  /** The API port of a server inside a node's network (the node's address is its own). */
  static final int NODE_API_PORT = 8474;
  private static final Duration CONTAINER_START = Duration.ofSeconds(60);
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(2);

  private final ToxiproxyClient client;
  private final String api;
  private final String host; // where proxies listen and what they front
  private final Runnable stop; // null for a user's server

  private ToxiproxyServer(ToxiproxyClient client, String api, String host, Runnable stop) {
    this.client = client;
    this.api = api;
    this.host = host;
    this.stop = stop;
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
      return notAnswering(resolved).map(why -> "the Toxiproxy server at " + resolved + " does not answer (" + why
          + "): start it (toxiproxy-server) or fix the address");
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
      return DockerEngine.unavailable().isEmpty() && DockerClientFactory.instance().isDockerAvailable();
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
      return new ToxiproxyServer(client(resolved), resolved, "127.0.0.1", null);
    }
    // On the host's network, so its proxies listen on this machine's loopback as a local server's
    // do: a disabled proxy refuses connections itself. Behind Docker's port publishing, its
    // userland proxy would accept them and then close them, and a crashed node would not look
    // dead; nor would the upstream ports need forwarding into the container.
    int port = freePort();
    GenericContainer<?> c = new GenericContainer<>(IMAGE).withNetworkMode("host")
        .withCommand("-host=127.0.0.1", "-port=" + port);
    c.start();
    return answering("the Toxiproxy container", "http://127.0.0.1:" + port, "127.0.0.1", c::stop);
  }

  /**
   * A server in a container of its own that shares the node container's network namespace (and
   * nothing else: a crash of the node's processes leaves it be), recorded in the ledger first.
   */
  public static ToxiproxyServer besideContainer(NodeContainer node, Ledger ledger) {
    String name = node.name() + "-toxiproxy";
    ledger.record(DockerEngine.container(name));
    GenericContainer<?> c = new GenericContainer<>(IMAGE).withNetworkMode("container:" + node.id())
        .withLabel(DockerEngine.OWNER_LABEL, ledger.owner())
        .withCreateContainerCmdModifier(cmd -> cmd.withName(name))
        .withCommand("-host=0.0.0.0", "-port=" + NODE_API_PORT);
    c.start();
    return answering("the Toxiproxy container of " + node.name(), "http://" + node.address() + ":" + NODE_API_PORT,
        node.address(), c::stop);
  }

  /**
   * A server process inside the node's network namespace, held in {@code group} (not the node's:
   * a crash of the node leaves it be), its output in {@code log}.
   */
  public static ToxiproxyServer inNamespace(NodeNetwork.NodeNamespace node, Cgroup group, java.nio.file.Path log)
      throws IOException {
    java.nio.file.Path program = program().orElseThrow(() -> new PreconditionFailed(programMissing()));
    List<String> command = NodeNetwork.inside(node, List.of("sh", "-c", "exec \"$0\" -host \"$1\" -port \"$2\" > \"$3\" 2>&1",
        program.toString(), node.address(), Integer.toString(NODE_API_PORT), log.toString()));
    Process p = group.spawn(command);
    return answering("the Toxiproxy server of " + node.name(), "http://" + node.address() + ":" + NODE_API_PORT,
        node.address(), () -> {
          p.destroyForcibly();
          group.killAll(Duration.ofSeconds(10));
        });
  }

  /**
   * The {@value #PROGRAM} to run in a node's namespace: {@value #PROGRAM_VARIABLE}, else the one on
   * the PATH.
   */
  public static Optional<java.nio.file.Path> program() {
    String given = System.getenv(PROGRAM_VARIABLE);
    if (given != null && !given.isBlank()) {
      java.nio.file.Path p = java.nio.file.Path.of(given);
      return java.nio.file.Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
    }
    String path = System.getenv("PATH");
    for (String dir : (path == null ? "" : path).split(java.io.File.pathSeparator)) {
      java.nio.file.Path p = java.nio.file.Path.of(dir.isEmpty() ? "." : dir, PROGRAM);
      if (java.nio.file.Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** Why {@link #program()} found none, and what to do. */
  public static String programMissing() {
    String given = System.getenv(PROGRAM_VARIABLE);
    return given != null && !given.isBlank()
        ? PROGRAM_VARIABLE + "=" + given + " is not an executable file: expected the path of Toxiproxy's server program"
        : "no " + PROGRAM + " on the PATH: the namespace backend runs Toxiproxy's server inside each node's namespace;"
            + " install it (github.com/Shopify/toxiproxy releases) or give its path in " + PROGRAM_VARIABLE;
  }

  /** The server at {@code api} once it answers (bounded); stopped, and an error, if it never does. */
  private static ToxiproxyServer answering(String what, String api, String host, Runnable stop) {
    ToxiproxyClient client = client(api);
    long deadline = System.nanoTime() + CONTAINER_START.toNanos();
    while (true) {
      try {
        client.version();
        return new ToxiproxyServer(client, api, host, stop);
      } catch (IOException | RuntimeException notYet) {
        if (System.nanoTime() > deadline) {
          stop.run();
          throw new IllegalStateException(what + " did not answer at " + api + " within " + CONTAINER_START, notYet);
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

  /**
   * Empty while the server answers; otherwise one line saying it stopped. Every proxy, and so every
   * connection the cluster makes through one, went with it.
   */
  public Optional<String> stopped() {
    return notAnswering(api).map(why -> this + " stopped answering (" + why + "): its proxies, and every connection"
        + " through them, went with it");
  }

  /** Empty if the server at {@code api} answers within a bound (the client's calls have none); else why not. */
  private static Optional<String> notAnswering(String api) {
    try {
      java.net.HttpURLConnection c = (java.net.HttpURLConnection) URI.create(api + "/version").toURL().openConnection();
      c.setConnectTimeout((int) ANSWER_WITHIN.toMillis());
      c.setReadTimeout((int) ANSWER_WITHIN.toMillis());
      try {
        int code = c.getResponseCode();
        return code == 200 ? Optional.empty() : Optional.of("HTTP " + code);
      } finally {
        c.disconnect();
      }
    } catch (IOException | RuntimeException e) {
      return Optional.of(String.valueOf(e.getMessage()));
    }
  }

  /** Whether the server is one this JVM started (its proxies die with it), not a user's. */
  public boolean startedHere() {
    return stop != null;
  }

  ToxiproxyClient client() {
    return client;
  }

  /**
   * A proxy in front of port {@code upstreamPort} of its host, listening on {@code listenPort}
   * there (0: any free one), and the port clients reach it on.
   */
  record Created(Proxy proxy, int clientPort) {}

  synchronized Created create(String name, int upstreamPort, int listenPort) throws IOException {
    Proxy p = client.createProxy(name, host + ":" + listenPort, host + ":" + upstreamPort);
    String listen = p.getListen();
    return new Created(p, Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1)));
  }

  @Override
  public void close() {
    if (stop != null) {
      stop.run();
    }
  }

  @Override
  public String toString() {
    return stop == null ? "Toxiproxy at " + api : "Toxiproxy of the harness's (" + api + ")";
  }
}
