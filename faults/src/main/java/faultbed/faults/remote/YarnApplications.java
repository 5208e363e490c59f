package faultbed.faults.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import faultbed.faults.Healer;
import faultbed.faults.LedgerEntry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Jobs a harness submitted to a cluster that outlives it. Each is in the harness's ledger while it
 * runs, so a job a SIGKILLed harness left behind is killed at the next start, through the
 * ResourceManager's REST API ({@code PUT .../apps/<id>/state} KILLED), rather than holding the
 * user's cluster until it ends on its own.
 */
public final class YarnApplications {
  public static final String KIND = "yarn-application";
  private static final String RM = "resourceManager";
  private static final Set<String> FINISHED = Set.of("FINISHED", "FAILED", "KILLED");
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final ObjectMapper JSON = new ObjectMapper();

  private YarnApplications() {}

  /** The ledger entry for {@code applicationId}, submitted to the ResourceManager whose web address is {@code rmUrl}. */
  public static LedgerEntry entry(String rmUrl, String applicationId, String runId) {
    return new LedgerEntry(KIND, applicationId, runId, Map.of(RM, rmUrl));
  }

  /** Kills the entry's application if it is still running; nothing when it has ended. */
  public static final class KillHealer implements Healer {
    @Override
    public String kind() {
      return KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      String app = entry.detail().get(RM) + "/ws/v1/cluster/apps/" + entry.id() + "/state";
      HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
      try {
        HttpResponse<String> now = http.send(HttpRequest.newBuilder(URI.create(app)).timeout(TIMEOUT)
            .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofString());
        if (now.statusCode() == 404 || now.statusCode() == 200 && FINISHED.contains(state(now.body()))) {
          return null;
        }
        HttpResponse<String> kill = http.send(HttpRequest.newBuilder(URI.create(app)).timeout(TIMEOUT)
            .header("Content-Type", "application/json").header("Accept", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString("{\"state\":\"KILLED\"}")).build(),
            HttpResponse.BodyHandlers.ofString());
        if (kill.statusCode() / 100 != 2) {
          return unkilled(entry, "HTTP " + kill.statusCode() + " " + kill.body().strip());
        }
        return "removed " + KIND + " " + entry.id() + " (killed on " + entry.detail().get(RM) + ", it was "
            + state(now.body()) + ")";
      } catch (IOException e) {
        return unkilled(entry, e.toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while killing " + entry.id(), e);
      }
    }

    /**
     * A job that could not be killed is said, not thrown: a cluster that is gone or refuses must not
     * stop every later start on this machine, local backends included.
     */
    private static String unkilled(LedgerEntry entry, String why) {
      return "could not kill " + KIND + " " + entry.id() + " on " + entry.detail().get(RM) + " (" + why
          + "); it may still be running there";
    }

    private static String state(String body) throws IOException {
      JsonNode n = JSON.readTree(body);
      return n.path("state").asText("?");
    }
  }
}
