package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.faults.DockerEngine;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Docker engine is restarted while a containers run's job runs: the engine stops every node
 * container, and the node processes with them. The harness sees it within seconds, kills the job,
 * records the run as one it could not complete with the reason, waits for the engine to answer
 * again to remove the dead cluster's containers and network, and goes on with a cluster of its own
 * for the next run, whose job succeeds. Nothing is left on the engine or the machine.
 *
 * <p>Restarting an engine stops every container on it, so this test restarts only one the
 * docker-here tool started (ci/test names it in {@code FAULTBED_DOCKER_HERE} when it started it).
 */
@Tag("extended") // two cluster starts and an engine restart, about four minutes
class DockerEngineRestartTest {
  @Test
  void aRunWhoseEngineRestartsIsRecordedWithTheReasonAndTheSuiteGoesOn(@TempDir Path dir) throws Exception {
    String tool = System.getenv("FAULTBED_DOCKER_HERE");
    assumeTrue(tool != null && Files.isExecutable(Path.of(tool)), "restarting a Docker engine stops every container"
        + " on it: this test restarts only one the docker-here tool started (FAULTBED_DOCKER_HERE, set by ci/test)");
    assumeTrue(DockerEngine.unavailable().isEmpty(), () -> "no Docker engine: " + DockerEngine.unavailable().orElse(""));
    Path scenario = Files.writeString(dir.resolve("engine.json"), """
        { "name": "engine-restart", "cluster": { "nodes": 2, "backend": "containers" },
          "workload": { "type": "synthetic", "maps": 2, "reduces": 1, "mapTime": "40s" },
          "seed": 1, "runs": 2 }
        """);
    Path out = dir.resolve("out");
    CompletableFuture<ScenarioValidationTest.Result> suite = CompletableFuture.supplyAsync(
        () -> ScenarioValidationTest.cli("run", scenario.toString(), "--out", out.toString()));
    String owner = "h" + ProcessHandle.current().pid() + "-"; // the suite runs in this JVM
    Awaitility.await("a task running in a node container").atMost(Duration.ofMinutes(4))
        .pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> tasksRunning(owner));

    restartEngine(tool, dir.resolve("docker-here.log"));

    ScenarioValidationTest.Result r = suite.get(6, TimeUnit.MINUTES);
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(!r.err().contains("\tat ") && !r.err().contains("Exception"), r.err());
    List<RunRecord> runs = new RecordStore(out).readAll();
    assertEquals(2, runs.size(), r.out() + r.err());
    RunRecord broken = runs.stream().filter(x -> x.runIndex() == 0).findFirst().orElseThrow();
    System.out.println("the broken run's notes: " + broken.notes());
    assertTrue(broken.notes().stream().anyMatch(n -> n.startsWith("harness error: ") && n.contains("Docker engine")
        && n.contains("its job killed")), broken.notes().toString());
    RunRecord next = runs.stream().filter(x -> x.runIndex() == 1).findFirst().orElseThrow();
    assertTrue(next.job().succeeded(), "the next run, on a cluster started after the restart: " + next.job());

    assertTrue(DockerEngine.client().listContainersCmd().withShowAll(true).exec().stream()
        .noneMatch(c -> Arrays.stream(c.getNames()).anyMatch(n -> n.contains(owner))), "no container of the suite is left");
    assertTrue(DockerEngine.client().listNetworksCmd().exec().stream().noneMatch(n -> n.getName().contains(owner)),
        "no network of the suite is left");
    ScenarioValidationTest.Result doctor = ScenarioValidationTest.cli("doctor");
    assertEquals(0, doctor.code(), "nothing left: " + doctor.out() + doctor.err());
    assertTrue(doctor.out().contains("no leftovers"), doctor.out());
  }

  /** Whether a node container of {@code owner}'s runs a task or an AM: the job is under way. */
  private static boolean tasksRunning(String owner) {
    var docker = DockerEngine.client();
    for (var c : docker.listContainersCmd().withLabelFilter(List.of(DockerEngine.OWNER_LABEL)).exec()) {
      if (c.getLabels().get(DockerEngine.OWNER_LABEL).startsWith(owner) && Arrays.stream(
          docker.topContainerCmd(c.getId()).withPsArgs("-eo pid,args").exec().getProcesses())
          .anyMatch(row -> row[1].contains("YarnChild"))) {
        return true;
      }
    }
    return false;
  }

  /** As an operator's restart: the engine asked to stop (it stops its containers first), then started. */
  private static void restartEngine(String tool, Path log) throws Exception {
    long pid = Long.parseLong(Files.readString(Path.of("/var/run/docker.pid")).strip());
    ProcessHandle engine = ProcessHandle.of(pid).orElseThrow();
    engine.destroy();
    Awaitility.await("the engine stopped").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200))
        .until(() -> !engine.isAlive());
    Process start = new ProcessBuilder(tool).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertTrue(start.waitFor(5, TimeUnit.MINUTES), "docker-here did not end within 5 min");
    assertEquals(0, start.exitValue(), Files.readString(log));
  }
}
