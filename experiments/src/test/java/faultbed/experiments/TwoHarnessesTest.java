package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.faults.DockerEngine;
import faultbed.faults.ToxiproxyServer;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code faultbed run} processes at once on one machine, each with its own cluster and the same
 * faults on the same node indexes (a bandwidth cap and CPU spinners on node 0, RST suppression on
 * node 1, from a second in until the run ends): both suites finish with every fault made and healed
 * in every run and every job done, neither harness touching the other's rules, qdisc classes,
 * cgroups, namespaces, containers, networks, proxies or ports, and nothing of either is left on the
 * machine after. On mini both shape loopback under faultbed's one {@code fb:} root; on the namespace
 * backend each has its own bridge and /24, chosen under the machine's lock; on the containers
 * backend each its own Docker network and /24, chosen under the same lock. Behind Toxiproxy both
 * harnesses' proxies are on one server (a user's, shared), each named after its harness, with a
 * delay on node 1 instead of RST suppression, which a proxy cannot make.
 */
@Tag("extended")
class TwoHarnessesTest {
  @ParameterizedTest(name = "backend {0}, network {1}")
  @CsvSource({"mini, kernel", "namespace, kernel", "containers, kernel", "mini, toxiproxy"})
  void twoSuitesAtOnceEachMakeAndHealTheirOwnFaults(String backend, String network, @TempDir Path dir)
      throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "the kernel's network faults and cgroups need root");
    if ("containers".equals(backend)) {
      assumeTrue(DockerEngine.unavailable().isEmpty(), () -> "no Docker engine: " + DockerEngine.unavailable().orElse(""));
    }
    String shared = System.getenv(ToxiproxyServer.URL_VARIABLE);
    if ("toxiproxy".equals(network)) {
      assumeTrue(shared != null, "no Toxiproxy server to share: " + ToxiproxyServer.URL_VARIABLE + " is not set");
    }
    boolean proxied = "toxiproxy".equals(network);
    Path scenario = Files.writeString(dir.resolve("beside.json"), """
        { "name": "beside", "cluster": { "nodes": 2, "backend": "%s"%s },
          "workload": { "type": "synthetic", "maps": 2, "reduces": 1, "mapTime": "4s", "reduceTime": "1s" },
          "faults": [ { "kind": "bandwidth-cap", "node": 0, "at": "1s", "rate": "20MB/s" },
                      { "kind": "cpu-hog", "node": 0, "at": "1s", "spinners": 1 },
                      %s ],
          "seed": 5, "runs": 2 }
        """.formatted(backend, proxied ? ", \"network\": { \"toxiproxy\": \"" + shared + "\" }" : "",
        proxied ? "{ \"kind\": \"latency\", \"node\": 1, \"at\": \"1s\", \"delay\": \"20ms\" }"
            : "{ \"kind\": \"rst-suppression\", \"node\": 1, \"at\": \"1s\" }"));
    List<Process> harnesses = new ArrayList<>();
    for (String name : List.of("a", "b")) {
      harnesses.add(new ProcessBuilder(java(FaultbedCli.class.getName(), "run", scenario.toString(), "--out",
          dir.resolve(name).toString())).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile())
          .start());
    }
    try {
      Awaitility.await("both suites").atMost(Duration.ofMinutes(8)).pollInterval(Duration.ofMillis(500))
          .until(() -> harnesses.stream().noneMatch(Process::isAlive));
    } finally {
      harnesses.forEach(Process::destroyForcibly);
    }
    for (int h = 0; h < 2; h++) {
      String name = List.of("a", "b").get(h);
      String log = Files.readString(dir.resolve(name + ".log"), StandardCharsets.UTF_8);
      assertEquals(0, harnesses.get(h).exitValue(), name + ": " + log);
      List<RunRecord> runs = new RecordStore(dir.resolve(name)).readAll();
      assertEquals(2, runs.size(), name + ": " + log);
      for (RunRecord r : runs) {
        assertTrue(r.job().succeeded(), name + " " + r.runId() + ": " + r.job());
        assertEquals(3, r.faults().size(), r.faults().toString());
        assertTrue(r.faults().stream().allMatch(f -> f.injectedMs() != null && f.healedMs() != null),
            name + " " + r.runId() + ": every fault made and healed: " + r.faults());
      }
    }
    if (proxied) {
      String proxies = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
          java.net.URI.create(shared + "/proxies")).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
      assertTrue(!proxies.contains("faultbed-"), "no proxy of either harness is left on the shared server: " + proxies);
    }
    ScenarioValidationTest.Result doctor = ScenarioValidationTest.cli("doctor");
    assertEquals(0, doctor.code(), "nothing of either harness left: " + doctor.out() + doctor.err());
    assertTrue(doctor.out().contains("no leftovers"), doctor.out());
  }

  private static List<String> java(String... mainAndArgs) {
    List<String> args = new ArrayList<>(List.of("-Xmx1g", "-Dlog4j.configuration=faultbed-log4j.properties",
        "-Dfaultbed.log.file=" + Path.of("target", "two-harnesses.log").toAbsolutePath()));
    args.addAll(List.of(mainAndArgs));
    return ClusterUpTest.java(System.getProperty("java.class.path"), args.toArray(String[]::new));
  }
}
