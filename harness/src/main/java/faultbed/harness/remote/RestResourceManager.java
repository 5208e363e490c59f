package faultbed.harness.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import faultbed.faults.PreconditionFailed;
import faultbed.harness.HarnessException;
import faultbed.harness.ResourceManagerView;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeId;

/**
 * A ResourceManager faultbed did not start, through its REST API (and a daemon's {@code /conf}
 * page): node and application states, and the settings in force there. Every call is bounded.
 */
final class RestResourceManager implements ResourceManagerView {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How long a cluster that is up may leave its ResourceManager unanswering before a run gives up on it. */
  static final Duration OUTAGE = Duration.ofMinutes(2);

  private final String url;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  /** Where an outage ridden out is said; null until the cluster is up (at start, silence is refused at once). */
  private volatile java.util.function.Consumer<String> patientLog;

  /** {@code url}: the RM's web address with its scheme, e.g. http://rm:8088. */
  RestResourceManager(String url) {
    this.url = url;
  }

  /**
   * From now on a ResourceManager that does not answer (restarted, a network between it and the
   * harness down) is asked again for up to {@link #OUTAGE} before a call fails; the outage, once
   * over, is said to {@code log}. The cluster goes on meanwhile, and so does the run.
   */
  void patient(java.util.function.Consumer<String> log) {
    this.patientLog = log;
  }

  String url() {
    return url;
  }

  /** Every node the RM knows, whatever its state, as the REST API gives it. */
  List<JsonNode> nodes() {
    JsonNode body = get(url + "/ws/v1/cluster/nodes");
    List<JsonNode> out = new ArrayList<>();
    JsonNode list = body == null ? null : body.path("nodes").path("node");
    if (list != null && list.isArray()) {
      list.forEach(out::add);
    }
    return out;
  }

  @Override
  public Map<String, String> nodeStates() {
    Map<String, String> states = new HashMap<>();
    for (JsonNode n : nodes()) {
      states.put(n.path("id").asText(), n.path("state").asText());
    }
    return states;
  }

  @Override
  public String applicationState(String applicationId) {
    JsonNode body = get(url + "/ws/v1/cluster/apps/" + applicationId);
    return body == null ? "UNKNOWN" : body.path("app").path("state").asText("UNKNOWN");
  }

  /** The web addresses ({@code http://host:port}) of the NodeManagers running an accepted or running application's AM. */
  java.util.Set<String> applicationMasterWebAddresses() {
    JsonNode body = get(url + "/ws/v1/cluster/apps?states=ACCEPTED,RUNNING");
    java.util.Set<String> out = new java.util.HashSet<>();
    JsonNode list = body == null ? null : body.path("apps").path("app");
    if (list != null && list.isArray()) {
      list.forEach(a -> {
        String am = a.path("amHostHttpAddress").asText("");
        if (!am.isEmpty()) {
          out.add("http://" + am);
        }
      });
    }
    return out;
  }

  @Override
  public boolean runningAndIdle(NodeId id) {
    return nodes().stream().anyMatch(n -> n.path("id").asText().equals(id.toString())
        && n.path("state").asText().equals("RUNNING") && n.path("numContainers").asInt(-1) == 0);
  }

  /** A remote RM cannot be told; the node comes back under its NodeId, or a new one. */
  @Override
  public void expire(NodeId id) {}

  /** The settings in force in the daemon whose web address is {@code webUrl} (its /conf page). */
  Configuration daemonConfiguration(String webUrl) {
    byte[] xml = fetch(webUrl + "/conf", "application/xml");
    if (xml == null) {
      throw new PreconditionFailed(webUrl + "/conf: the daemon does not show its configuration there");
    }
    Configuration c = new Configuration(false);
    c.addResource(new ByteArrayInputStream(xml), webUrl + "/conf");
    c.size(); // read now, while the bytes are here
    return c;
  }

  /** The JSON at {@code url}, or null on 404. */
  private JsonNode get(String address) {
    byte[] body = fetch(address, "application/json");
    try {
      return body == null ? null : JSON.readTree(body);
    } catch (IOException e) {
      throw new HarnessException(address + ": not JSON: " + e.getMessage(), e);
    }
  }

  private byte[] fetch(String address, String type) {
    java.util.function.Consumer<String> log = patientLog;
    long first = 0;
    for (int attempt = 0; ; attempt++) {
      long asked = System.nanoTime();
      try {
        byte[] body = fetchOnce(address, type);
        if (attempt > 0) {
          log.accept("the ResourceManager (" + url + ") did not answer for " + (System.nanoTime() - first) / 1_000_000_000
              + " s; it answers again");
        }
        return body;
      } catch (HarnessException e) {
        if (log == null || !(e.getCause() instanceof IOException)) {
          throw e;
        }
        if (attempt == 0) {
          first = asked; // silent since it was asked, not since the ask timed out
        } else if (System.nanoTime() - first > OUTAGE.toNanos()) {
          throw new HarnessException(address + " did not answer for " + OUTAGE.toMinutes() + " min: "
              + e.getCause().getMessage(), e.getCause());
        }
        try {
          Thread.sleep(1000); // a second between tries: each is itself bounded by TIMEOUT
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new HarnessException(address + ": interrupted", interrupted);
        }
      }
    }
  }

  private byte[] fetchOnce(String address, String type) {
    try {
      HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(address)).timeout(TIMEOUT)
          .header("Accept", type).build(), HttpResponse.BodyHandlers.ofByteArray());
      if (r.statusCode() == 404) {
        return null;
      }
      if (r.statusCode() / 100 != 2) {
        throw new HarnessException(address + " answered " + r.statusCode());
      }
      return r.body();
    } catch (IOException e) {
      throw new HarnessException(address + " did not answer: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HarnessException(address + ": interrupted", e);
    }
  }
}
