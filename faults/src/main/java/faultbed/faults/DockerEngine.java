package faultbed.faults;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.transport.DockerHttpClient;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;

/**
 * The Docker engine as faultbed uses it, through the client Testcontainers finds: whether one
 * answers, and the two kinds of thing the containers backend puts on it (node containers and their
 * network), each labelled with the harness that made it and recorded in its ledger, so a later
 * start removes what a dead harness left.
 */
public final class DockerEngine {
  /** The label every container and network of faultbed carries: the owning harness. */
  public static final String OWNER_LABEL = "faultbed.owner";
  static final String CONTAINER_KIND = "docker-container";
  static final String NETWORK_KIND = "docker-network";

  private DockerEngine() {}

  /** Empty when an engine answers; otherwise one line saying why not and what to do. */
  public static Optional<String> unavailable() {
    if (!clientOnClassPath()) {
      return Optional.of("no Docker client: add org.testcontainers:testcontainers to the class path (faultbed"
          + " declares it optional, for builds that use the containers backend or a Toxiproxy container)");
    }
    if (!mayBeThere()) {
      return Optional.of("no Docker engine: nothing at /var/run/docker.sock and DOCKER_HOST is not set"
          + " (install and start Docker, or point DOCKER_HOST at an engine)");
    }
    try {
      if (DockerClientFactory.instance().isDockerAvailable()) {
        return Optional.empty();
      }
    } catch (RuntimeException e) {
      return Optional.of("the Docker engine does not answer (" + e.getMessage() + ")");
    }
    return Optional.of("the Docker engine does not answer (Testcontainers found none): start it, or check"
        + " that this user may use its socket");
  }

  /** Testcontainers is an optional dependency of faultbed's artifacts (a user's build adds it for Docker). */
  static boolean clientOnClassPath() {
    try {
      Class.forName("org.testcontainers.DockerClientFactory", false, DockerEngine.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** Cheap, before asking Testcontainers (which probes for seconds and logs when there is none). */
  private static boolean mayBeThere() {
    String host = System.getenv("DOCKER_HOST");
    return (host != null && !host.isBlank()) || Files.exists(Path.of("/var/run/docker.sock"));
  }

  public static DockerClient client() {
    return DockerClientFactory.instance().client();
  }

  /**
   * Empty when the engine answers a ping now, within seconds; otherwise why not. Unlike
   * {@link #unavailable()}, whose answer Testcontainers keeps once it found an engine, this asks each time.
   */
  public static Optional<String> notAnswering() {
    try {
      Answer a = ask("/_ping");
      return a.status() == 200 ? Optional.empty() : Optional.of("HTTP " + a.status() + " to a ping");
    } catch (RuntimeException e) {
      return Optional.of(String.valueOf(e.getMessage()));
    }
  }

  /** The engine's answer to one request: its HTTP status and body. */
  record Answer(int status, String body) {}

  /**
   * The engine's answer to GET {@code path} within seconds, or an error. Testcontainers' client sets
   * no timeouts: asked of an engine in the middle of a restart, a call of its can wait for ever.
   */
  static Answer ask(String path) {
    return Bounded.get(path);
  }

  /**
   * docker-java's own transport with timeouts, on the engine Testcontainers found. A class of its
   * own: a build without Docker's client (an optional dependency) loads DockerEngine for its
   * healers, and must not need the transport's classes to do so.
   */
  private static final class Bounded {
    private static volatile DockerHttpClient client;

    static Answer get(String path) {
      try (DockerHttpClient.Response r = client().execute(DockerHttpClient.Request.builder()
          .method(DockerHttpClient.Request.Method.GET).path(path).build())) {
        return new Answer(r.getStatusCode(), new String(r.getBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    private static DockerHttpClient client() {
      DockerHttpClient c = client;
      if (c == null) {
        synchronized (Bounded.class) {
          if (client == null) {
            var transport = DockerClientFactory.instance().getTransportConfig();
            client = new ZerodepDockerHttpClient.Builder().dockerHost(transport.getDockerHost())
                .sslConfig(transport.getSslConfig()).maxConnections(4)
                .connectionTimeout(java.time.Duration.ofSeconds(3)).responseTimeout(java.time.Duration.ofSeconds(10)).build();
          }
          c = client;
        }
      }
      return c;
    }
  }

  /**
   * Returns once the engine answers, within {@code within}: an engine being restarted answers
   * again within seconds, and what is on it can be removed only then. Fails with one line if not.
   */
  public static void awaitAnswering(java.time.Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    Optional<String> why;
    while ((why = notAnswering()).isPresent()) {
      if (System.nanoTime() - deadline > 0) {
        throw new PreconditionFailed("the Docker engine has not answered for " + within.toSeconds() + " s ("
            + why.get() + "): what faultbed has on it is removed by the next start once it answers");
      }
      java.util.concurrent.locks.LockSupport.parkNanos(java.time.Duration.ofMillis(500).toNanos());
    }
  }

  /** The client, if an engine answers: healers ask only then, so hosts without Docker are not probed each start. */
  private static Optional<DockerClient> answering() {
    return mayBeThere() && unavailable().isEmpty() ? Optional.of(client()) : Optional.empty();
  }

  /** The ledger entry of a container named {@code name}, recorded before it is created. */
  public static LedgerEntry container(String name) {
    return new LedgerEntry(CONTAINER_KIND, name, "cluster", Map.of());
  }

  /** The ledger entry of a network named {@code name}, recorded before it is created. */
  public static LedgerEntry network(String name) {
    return new LedgerEntry(NETWORK_KIND, name, "cluster", Map.of());
  }

  /** Removes a container with everything in it, running or not. */
  static final class ContainerHealer implements Healer {
    @Override
    public String kind() {
      return CONTAINER_KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      return answering().map(docker -> {
        try {
          docker.removeContainerCmd(entry.id()).withForce(true).withRemoveVolumes(true).exec();
          return "removed container " + entry.id();
        } catch (NotFoundException gone) {
          return null;
        }
      }).orElse(null);
    }

    @Override
    public List<Found> findAll() {
      List<Found> found = new ArrayList<>();
      var docker = answering();
      for (var c : docker.isEmpty() ? List.<com.github.dockerjava.api.model.Container>of()
          : docker.get().listContainersCmd().withShowAll(true).withLabelFilter(List.of(OWNER_LABEL)).exec()) {
        String name = c.getNames().length == 0 ? c.getId() : c.getNames()[0].replaceFirst("^/", "");
        found.add(new Found(container(name), c.getLabels().get(OWNER_LABEL)));
      }
      return found;
    }
  }

  /** Removes a network; its containers go first (a network with endpoints cannot be removed). */
  static final class NetworkHealer implements Healer {
    @Override
    public String kind() {
      return NETWORK_KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      if (answering().isEmpty()) {
        return null;
      }
      try {
        var net = client().inspectNetworkCmd().withNetworkId(entry.id()).exec();
        for (String id : net.getContainers() == null ? List.<String>of() : List.copyOf(net.getContainers().keySet())) {
          try {
            client().removeContainerCmd(id).withForce(true).exec();
          } catch (NotFoundException gone) {
            // removed meanwhile
          }
        }
        client().removeNetworkCmd(entry.id()).exec();
        return "removed Docker network " + entry.id();
      } catch (NotFoundException gone) {
        return null;
      }
    }

    @Override
    public List<Found> findAll() {
      List<Found> found = new ArrayList<>();
      var docker = answering();
      for (var n : docker.isEmpty() ? List.<com.github.dockerjava.api.model.Network>of()
          : docker.get().listNetworksCmd().withFilter("label", List.of(OWNER_LABEL)).exec()) {
        found.add(new Found(network(n.getName()), n.getLabels().get(OWNER_LABEL)));
      }
      return found;
    }
  }
}
