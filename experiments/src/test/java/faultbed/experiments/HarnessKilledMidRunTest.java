package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.faults.Cgroup;
import faultbed.faults.Capability;
import faultbed.faults.DockerEngine;
import faultbed.harness.ClusterSpec;
import faultbed.harness.mini.MiniCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness JVM dies by SIGKILL while a job runs: its container JVMs survive as orphans (they
 * are separate processes), and the next harness start must find and end them, and say so.
 */
class HarnessKilledMidRunTest {
  private static final String SCENARIO = """
      { "name": "killed", "cluster": { "nodes": 2, "network": "%s" },
        "workload": { "type": "synthetic", "maps": 2, "reduces": 1, "mapTime": "120s", "reduceTime": "1s" },
        "runs": 1 }
      """;

  /** Container JVMs (task or AM) and node processes living in a cgroup of the given harness owner prefix. */
  static List<Long> containerJvmsOf(String ownerPrefix) {
    List<Long> out = new ArrayList<>();
    ProcessHandle.allProcesses().forEach(p -> {
      String cmd = p.info().commandLine().orElse("");
      if (!cmd.contains("YarnChild") && !cmd.contains("MRAppMaster") && !cmd.contains("NodeProcess")) {
        return;
      }
      try {
        if (Files.readString(Path.of("/proc", Long.toString(p.pid()), "cgroup")).contains("/faultbed/" + ownerPrefix)) {
          out.add(p.pid());
        }
      } catch (IOException gone) {
        // exited meanwhile
      }
    });
    return out;
  }

  @Test
  void nextStartEndsTheContainersADeadHarnessLeft(@TempDir Path dir) throws Exception {
    killMidRunThenStartAgain(dir, "mini");
  }

  /**
   * On the namespace backend the dead harness also leaves node processes, their namespaces, veths
   * and bridge: one new start removes them all.
   */
  @Test
  void nextStartRemovesTheNodesNamespacesAndLinksADeadHarnessLeft(@TempDir Path dir) throws Exception {
    assumeTrue(faultbed.faults.NodeNetwork.problems().isEmpty(), () -> "namespaces unavailable: "
        + faultbed.faults.NodeNetwork.problems());
    String owner = killMidRunThenStartAgain(dir, "namespace");
    assertFalse(sh("ip", "netns", "list").contains(owner), "no namespace of the dead harness");
    try (var links = Files.list(Path.of("/sys/class/net"))) {
      for (Path l : links.toList()) {
        Path alias = l.resolve("ifalias");
        String a = Files.isReadable(alias) ? Files.readString(alias) : "";
        assertFalse(a.contains(owner), "link " + l.getFileName() + " of the dead harness is left");
      }
    }
  }

  private static String sh(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    p.waitFor();
    return out;
  }

  /**
   * On the containers backend the dead harness leaves its node containers (with their processes),
   * each node's Toxiproxy container and its Docker network: one new start removes them.
   */
  @Test
  void nextStartRemovesTheNodeContainersAndNetworkADeadHarnessLeft(@TempDir Path dir) throws Exception {
    assumeTrue(DockerEngine.unavailable().isEmpty(), () -> "no Docker engine: " + DockerEngine.unavailable().orElse(""));
    String owner = killMidRun(dir, SCENARIO.formatted("toxiproxy"), "containers", o -> !containersOf(o, true).isEmpty());
    assertTrue(containersOf(owner, false).stream().filter(n -> n.endsWith("-toxiproxy")).count() == 2,
        "node and proxy containers outlive a SIGKILLed harness: " + containersOf(owner, false));
    List<String> said = new CopyOnWriteArrayList<>();
    try (MiniCluster next = MiniCluster.start(ClusterSpec.nodes(1), said::add)) {
      assertTrue(containersOf(owner, false).isEmpty(), "no container of the dead run survives the next start");
      assertTrue(DockerEngine.client().listNetworksCmd().exec().stream().noneMatch(n -> n.getName().contains(owner)),
          "the dead run's network is removed");
      assertTrue(said.stream().anyMatch(l -> l.contains("removed container") && l.contains(owner)),
          "the start says what it removed: " + said);
    }
  }

  /** Names of the containers a harness owner prefix made; with {@code runningTasks}, only those running a task or AM. */
  private static List<String> containersOf(String ownerPrefix, boolean runningTasks) {
    List<String> out = new ArrayList<>();
    var docker = DockerEngine.client();
    for (var c : docker.listContainersCmd().withShowAll(true).withLabelFilter(List.of(DockerEngine.OWNER_LABEL)).exec()) {
      if (!c.getLabels().get(DockerEngine.OWNER_LABEL).startsWith(ownerPrefix)) {
        continue;
      }
      boolean tasks = "running".equals(c.getState()) && java.util.Arrays.stream(
          docker.topContainerCmd(c.getId()).withPsArgs("-eo pid,args").exec().getProcesses())
          .anyMatch(row -> row[1].contains("YarnChild") || row[1].contains("MRAppMaster"));
      if (!runningTasks || tasks) {
        out.add(c.getNames()[0]);
      }
    }
    return out;
  }

  /**
   * The simulation's one trace on the machine, its working folder (the speculators' state, the
   * running job's files), outlives a SIGKILLed harness; the next start of any cluster deletes it.
   */
  @Test
  void nextStartDeletesTheWorkingFolderADeadSimulationLeft(@TempDir Path dir) throws Exception {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    String owner = killMidRun(dir, SIMULATED, "sim", o -> !simFolders(tmp, o).isEmpty());
    List<Path> left = simFolders(tmp, owner);
    assertFalse(left.isEmpty(), "the working folder outlives a SIGKILLed harness (the hazard this guards against)");
    List<String> said = new CopyOnWriteArrayList<>();
    try (var next = faultbed.harness.Clusters.start(ClusterSpec.nodes(2)
        .withBackend(faultbed.harness.Backends.named("sim", "test")), said::add)) {
      assertTrue(left.stream().noneMatch(Files::exists), () -> "left: " + left + "; " + said);
      assertTrue(said.stream().anyMatch(l -> l.contains("deleted folder") && l.contains(owner)),
          "the start says what it deleted: " + said);
    }
  }

  /**
   * Ctrl-C in the middle of a run: the shutdown hooks heal what the harness made (here the
   * simulation's working folder) and the terminal gets one line saying so, exit 130. The JVM ends
   * once its hooks are done, before the run's own thread could say anything.
   */
  @Test
  void aSigintedRunSaysSoInOneLineAndLeavesNothing(@TempDir Path dir) throws Exception {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    Process harness = startMidRun(dir, SIMULATED, "sim");
    String owner = "h" + harness.pid() + "-";
    try {
      Awaitility.await("the child harness's simulation running").atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(200)).until(() -> !simFolders(tmp, owner).isEmpty() || !harness.isAlive());
      assertTrue(harness.isAlive(), () -> "child harness exited early: " + log(dir));
      new ProcessBuilder("kill", "-INT", Long.toString(harness.pid())).start().waitFor();
      assertTrue(harness.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the harness ends after a SIGINT");
    } finally {
      harness.destroyForcibly().waitFor();
    }
    assertEquals(130, harness.exitValue(), log(dir));
    List<String> said = Files.readAllLines(dir.resolve("harness.log")).stream()
        .filter(l -> l.startsWith("faultbed: stopped by a signal")).toList();
    assertEquals(1, said.size(), log(dir));
    assertTrue(said.get(0).contains("continue with --resume"), said.get(0));
    assertTrue(simFolders(tmp, owner).isEmpty(), "the working folder is healed on the way out");
  }

  private static final String SIMULATED = """
      { "name": "killed-sim", "cluster": { "backend": "sim", "nodes": 400 },
        "workload": { "type": "wordcount", "size": "12800MB", "maps": 3200, "reduces": 100 },
        "speculation": "hadoop3", "runs": 500 }
      """;

  private static List<Path> simFolders(Path tmp, String ownerPrefix) {
    try (var list = Files.list(tmp)) {
      return list.filter(p -> p.getFileName().toString().startsWith("faultbed-sim-" + ownerPrefix)).toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Runs a scenario in a child harness, SIGKILLs it mid-run, starts a mini cluster; returns the dead owner's prefix. */
  private static String killMidRunThenStartAgain(Path dir, String backend) throws Exception {
    assumeTrue(Capability.IPTABLES.problems().isEmpty(), () -> "kernel fault backend unavailable: " + Capability.IPTABLES.problems());
    List<Path> webAppsBefore = deadWebAppFolders();
    String owner = killMidRun(dir, SCENARIO.formatted("kernel"), backend, o -> containerJvmsOf(o).size() >= 2);
    List<Long> orphans = containerJvmsOf(owner);
    assertFalse(orphans.isEmpty(), "container JVMs outlive a SIGKILLed harness (the hazard this guards against)");
    List<Path> webApps = new ArrayList<>(deadWebAppFolders());
    webApps.removeAll(webAppsBefore);
    assertFalse(webApps.isEmpty(), "the daemons' web app folders outlive a SIGKILLed harness");

    List<String> said = new CopyOnWriteArrayList<>();
    try (MiniCluster next = MiniCluster.start(ClusterSpec.nodes(1), said::add)) {
      assertTrue(containerJvmsOf(owner).isEmpty(), "no container JVM of the dead run survives the next start");
      // a SIGKILLed orphan stays a zombie until init reaps it, which the start need not wait for
      for (long pid : orphans) {
        assertTrue(ended(pid), () -> "pid " + pid + " still runs: " + stat(pid));
      }
      assertTrue(said.stream().anyMatch(l -> l.contains(owner) && l.contains("killed")),
          "the start says what it ended: " + said);
      assertTrue(Cgroup.instances().stream().noneMatch(i -> i.startsWith(owner)), Cgroup.instances().toString());
      assertTrue(said.stream().anyMatch(l -> l.contains("deleted folder") && l.contains(owner)),
          "the dead run's working folder is removed: " + said);
      assertTrue(webApps.stream().noneMatch(Files::exists), () -> "web app folders left: " + webApps + "; " + said);
    }
    return owner;
  }

  /**
   * Jetty's folders for Hadoop's web apps in the temp folder whose port nothing listens on: what a
   * killed harness's daemons leave (checked here on its own, not through the healer).
   */
  private static List<Path> deadWebAppFolders() throws IOException {
    java.util.regex.Pattern name = java.util.regex.Pattern.compile("jetty-[^-]+-(\\d+)-hadoop-.*");
    List<Path> dead = new ArrayList<>();
    try (var list = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      for (Path p : list.toList()) {
        var m = name.matcher(p.getFileName().toString());
        if (m.matches()) {
          try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress("127.0.0.1", Integer.parseInt(m.group(1))), 500);
          } catch (IOException refused) {
            dead.add(p);
          }
        }
      }
    }
    return dead;
  }

  /**
   * Runs {@code scenarioText} in a child harness on {@code backend} until {@code running} holds for
   * its owner prefix, then SIGKILLs it; returns that prefix.
   */
  private static String killMidRun(Path dir, String scenarioText, String backend,
      java.util.function.Predicate<String> running) throws Exception {
    Process harness = startMidRun(dir, scenarioText, backend);
    String owner = "h" + harness.pid() + "-";
    try {
      Awaitility.await("tasks of the child harness running").atMost(Duration.ofSeconds(180))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> running.test(owner) || !harness.isAlive());
      assertTrue(harness.isAlive(), () -> "child harness exited early: " + log(dir));
    } finally {
      harness.destroyForcibly(); // SIGKILL: no shutdown hook runs
      harness.waitFor();
    }
    return owner;
  }

  /** A child harness running {@code scenarioText} on {@code backend}, its terminal in harness.log. */
  private static Process startMidRun(Path dir, String scenarioText, String backend) throws IOException {
    Path scenario = dir.resolve("killed.json");
    Files.writeString(scenario, scenarioText);
    // its temporary files (Jetty's, for the daemons' web servers) in this JVM's temp folder, which
    // the next start here sweeps: a SIGKILL gives no shutdown hook the chance to remove them
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), "--add-opens", "java.base/java.lang=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"),
        "faultbed.experiments.cli.FaultbedCli", "run", scenario.toString(), "--out", dir.resolve("out").toString(),
        "--backend", backend));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("harness.log").toFile()).start();
  }

  /** Gone, or a zombie (killed, not yet reaped by its new parent). */
  private static boolean ended(long pid) {
    String stat = stat(pid);
    if (stat.isEmpty()) {
      return true;
    }
    // the state follows the command name, which is in parentheses and may itself hold spaces
    char state = stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
    return state == 'Z' || state == 'X';
  }

  private static String stat(long pid) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    } catch (IOException gone) {
      return "";
    }
  }

  private static String log(Path dir) {
    try {
      List<String> lines = Files.readAllLines(dir.resolve("harness.log"));
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return e.toString();
    }
  }
}
