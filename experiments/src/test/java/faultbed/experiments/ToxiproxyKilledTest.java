package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.faults.ToxiproxyServer;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Toxiproxy server a mini cluster's shuffle goes through is killed while a run's job runs: the
 * harness sees it stop within seconds, kills the job, heals what the run made, records the run as one
 * it could not complete with the reason, and the suite stops with one line saying the server does
 * not answer (exit 3), instead of the job hanging until its limit. Nothing is left on the machine.
 * Killed during the cluster's unrecorded warm-up run, the same: the run it was for is recorded as
 * broken by it.
 */
@org.junit.jupiter.api.Tag("extended") // a cluster start and a run of its own, about a minute
class ToxiproxyKilledTest {
  @org.junit.jupiter.params.ParameterizedTest(name = "killed during a warm-up: {0}")
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void aKilledServerEndsTheRunWithItsReasonAndTheSuiteWithOneLine(boolean duringWarmup, @TempDir Path dir)
      throws Exception {
    Path program = ToxiproxyServer.program().orElse(null);
    assumeTrue(program != null, ToxiproxyServer.programMissing());
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    String api = "http://127.0.0.1:" + port;
    Process server = new ProcessBuilder(program.toString(), "-host", "127.0.0.1", "-port", Integer.toString(port))
        .redirectErrorStream(true).redirectOutput(dir.resolve("toxiproxy.log").toFile()).start();
    try {
      HttpClient http = HttpClient.newHttpClient();
      Awaitility.await("the Toxiproxy server").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
          .ignoreExceptions().until(() -> http.send(HttpRequest.newBuilder(URI.create(api + "/version")).build(),
              HttpResponse.BodyHandlers.ofString()).statusCode() == 200);
      // maps of 40 s: the run is certainly under way when the server goes
      Path scenario = Files.writeString(dir.resolve("killed.json"), """
          { "name": "toxiproxy-killed", "cluster": { "nodes": 2, "network": { "toxiproxy": "%s" } },
            "workload": { "type": "synthetic", "maps": 2, "reduces": 1, "mapTime": "40s" },
            "seed": 1, "runs": 2, "warmup": %d }
          """.formatted(api, duringWarmup ? 1 : 0));
      Path out = dir.resolve("out");
      CompletableFuture<ScenarioValidationTest.Result> suite = CompletableFuture.supplyAsync(
          () -> ScenarioValidationTest.cli("run", scenario.toString(), "--out", out.toString()));
      // the cluster's proxies are made once it is up; the job starts seconds later
      Awaitility.await("the cluster's proxies").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
          .ignoreExceptions().until(() -> http.send(HttpRequest.newBuilder(URI.create(api + "/proxies")).build(),
              HttpResponse.BodyHandlers.ofString()).body().contains("listen"));
      Thread.sleep(12_000); // not a wait for cluster state: the moment, within the run, the server is killed
      server.destroyForcibly().waitFor();

      ScenarioValidationTest.Result r = suite.get(3, java.util.concurrent.TimeUnit.MINUTES);
      assertEquals(3, r.code(), r.out() + r.err());
      List<String> lines = r.err().strip().lines().filter(l -> l.startsWith("faultbed:")).toList();
      assertEquals(1, lines.size(), r.err());
      assertTrue(lines.get(0).contains("the Toxiproxy server at " + api + " does not answer")
          && lines.get(0).endsWith("the 1 run(s) recorded before are kept: continue with --resume once it is back"),
          lines.get(0));
      assertTrue(!r.err().contains("\tat ") && !r.err().contains("Exception"), r.err());

      List<RunRecord> runs = new RecordStore(out).readAll();
      assertEquals(1, runs.size(), "the run the server died in is recorded, and no other started");
      RunRecord broken = runs.get(0);
      assertTrue(broken.notes().stream().anyMatch(n -> n.contains("Toxiproxy at " + api + " stopped answering")
          && n.contains("its job killed") && n.contains("its cluster's warm-up run") == duringWarmup),
          broken.notes().toString());

      ScenarioValidationTest.Result doctor = ScenarioValidationTest.cli("doctor");
      assertEquals(0, doctor.code(), "nothing left: " + doctor.out() + doctor.err());
    } finally {
      server.destroyForcibly().waitFor();
    }
  }
}
