package faultbed.experiments;

import static faultbed.experiments.ScenarioValidationTest.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import faultbed.faults.Cgroup;
import faultbed.faults.Ledger;
import faultbed.results.RecordStore;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.jar.JarFile;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faultbed cluster up} as a user meets it: a cluster kept up in its own process, the stock
 * Hadoop examples jar's pi and wordcount run against it by a client that holds Hadoop's jars and
 * the written configuration folder and nothing of faultbed, each on the first try; a crash and a
 * heal from other commands; and {@code cluster down} leaving nothing on the machine.
 */
class ClusterUpTest {
  private static final Path EXAMPLES = Path.of("target", "stock", "hadoop-mapreduce-examples-3.4.2.jar");

  @Test
  void stockExamplesRunFirstTimeAndFaultsComeFromAnotherCommand(@TempDir Path tmp) throws Exception {
    assumeTrue(Files.isRegularFile(EXAMPLES), "the stock examples jar is copied by the build (mvn test)");
    Path dir = tmp.resolve("cluster");
    Process up = new ProcessBuilder(java(System.getProperty("java.class.path"), "faultbed.experiments.cli.FaultbedCli",
        "cluster", "up", "--dir", dir.toString(), "--nodes", "3"))
        .redirectErrorStream(true).redirectOutput(tmp.resolve("up.log").toFile()).start();
    String owner = "h" + up.pid() + "-";
    try {
      Awaitility.await("cluster up").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
          .until(() -> Files.exists(dir.resolve("cluster.json")) || !up.isAlive());
      assertTrue(up.isAlive(), () -> "cluster up ended: " + read(tmp.resolve("up.log")));
      String said = read(tmp.resolve("up.log"));
      Path conf = dir.resolve("conf");
      for (Path own : List.of(dir, conf, dir.resolve("requests"))) {
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(own)), own + " is its owner's alone");
      }
      assertTrue(said.contains("HADOOP_CONF_DIR=" + conf + " hadoop jar hadoop-mapreduce-examples-*.jar pi 4 100"), said);
      // the daemons' RPC and web ports (the ResourceManager's, NameNode's, NodeManagers', history
      // server's UIs among them) are on loopback only: nothing of the cluster is reachable from outside
      List<ListeningSockets.Listener> listening = ListeningSockets.of(up.pid());
      assertTrue(listening.size() >= 10, "the daemons' ports: " + listening);
      assertEquals(List.of(), listening.stream().filter(l -> !l.ownNetworkOnly()).toList(),
          "listening beyond loopback: " + listening);

      String client = conf + File.pathSeparator + stockHadoopClasspath();
      Run pi = run(tmp, "pi", client, "org.apache.hadoop.util.RunJar", EXAMPLES.toString(), "pi", "4", "100");
      assertEquals(0, pi.code(), pi.out());
      assertTrue(pi.out().contains("Estimated value of Pi is 3.1"), pi.out());

      Path input = tmp.resolve("words.txt");
      Map<String, Integer> expected = writeWords(input);
      assertEquals(0, run(tmp, "put", client, "org.apache.hadoop.fs.FsShell", "-put", input.toString(), "/words.txt").code());
      Run wc = run(tmp, "wordcount", client, "org.apache.hadoop.util.RunJar", EXAMPLES.toString(), "wordcount",
          "/words.txt", "/counts");
      assertEquals(0, wc.code(), wc.out());
      Run cat = run(tmp, "cat", client, "org.apache.hadoop.fs.FsShell", "-cat", "/counts/part-r-*");
      assertEquals(0, cat.code(), cat.out());
      Map<String, Integer> counted = new TreeMap<>();
      for (String line : cat.out().split("\n")) {
        String[] kv = line.split("\t");
        if (kv.length == 2 && expected.containsKey(kv[0])) {
          counted.put(kv[0], Integer.parseInt(kv[1].trim()));
        }
      }
      assertEquals(expected, counted, "wordcount's output against counts made here from the input");

      var crash = cli("cluster", "fault", "--dir", dir.toString(), "{\"kind\": \"crash\", \"node\": 1}");
      assertEquals(0, crash.code(), crash.out() + crash.err());
      assertTrue(crash.out().contains("crash on node 1"), crash.out());
      assertFalse(nodes(dir).get(1).get("up").asBoolean(), "node 1 is down after the crash");
      var again = cli("cluster", "fault", "--dir", dir.toString(), "{\"kind\": \"freeze\", \"node\": 1, \"for\": \"5s\"}");
      assertEquals(2, again.code(), again.err());
      assertTrue(again.err().contains("node 1 is down"), again.err());

      var heal = cli("cluster", "heal", "--dir", dir.toString());
      assertEquals(0, heal.code(), heal.out() + heal.err());
      for (JsonNode n : nodes(dir)) {
        assertTrue(n.get("up").asBoolean() && n.get("state").asText().equals("RUNNING"), () -> "after heal: " + n);
      }

      // a suite run beside the cluster while a cap of the cluster's is in force: both shape loopback
      // under one root, each heals its own rules and classes, and neither touches the other's
      var cap = cli("cluster", "fault", "--dir", dir.toString(), "{\"kind\": \"bandwidth-cap\", \"node\": 0, \"rate\": \"50MB/s\"}");
      assertEquals(0, cap.code(), cap.out() + cap.err());
      Path beside = tmp.resolve("beside.json");
      Files.writeString(beside, """
          { "name": "beside", "cluster": { "nodes": 2 },
            "workload": { "type": "synthetic", "maps": 2, "reduces": 1, "mapTime": "2s", "reduceTime": "1s" },
            "faults": [ { "kind": "bandwidth-cap", "node": 0, "at": "1s", "rate": "20MB/s" },
                        { "kind": "rst-suppression", "node": 1, "at": "1s" } ],
            "runs": 1 }
          """);
      var run = cli("run", beside.toString(), "--out", tmp.resolve("beside").toString());
      assertEquals(0, run.code(), run.out() + run.err());
      var record = new RecordStore(tmp.resolve("beside")).readAll().get(0);
      assertEquals(2, record.faults().stream().filter(f -> f.injectedMs() != null).count(), record.faults().toString());
      assertTrue(record.job().succeeded(), "the run beside the cluster: " + record.job());
      JsonNode inForce = RecordStore.json().readTree(cli("cluster", "status", "--dir", dir.toString(), "--json").out());
      assertEquals(1, inForce.get("faults").size(), "the cluster's cap outlives the run beside it: " + inForce);
      String shaping = faultbed.faults.Commands.local().inspect(List.of("tc", "class", "show", "dev", "lo")).out();
      assertEquals(2, shaping.lines().filter(l -> l.startsWith("class htb fb:")).count(),
          "the root's default class and the cluster's cap, still there: " + shaping);
      assertEquals(0, cli("cluster", "heal", "--dir", dir.toString()).code());

      // a fault still in force when the cluster goes down: down takes it away with the rest
      var hog = cli("cluster", "fault", "--dir", dir.toString(), "{\"kind\": \"cpu-hog\", \"node\": 0, \"spinners\": 1}");
      assertEquals(0, hog.code(), hog.out() + hog.err());
      assertEquals(1, RecordStore.json().readTree(cli("cluster", "status", "--dir", dir.toString(), "--json").out())
          .get("faults").size(), "the hog is in force");

      var down = cli("cluster", "down", "--dir", dir.toString());
      assertEquals(0, down.code(), down.out() + down.err());
      assertTrue(down.out().contains("is down"), down.out());
      assertFalse(up.isAlive(), "down returns once the cluster's process has ended");
      assertEquals(0, up.exitValue(), () -> read(tmp.resolve("up.log")));
      assertFalse(Files.exists(dir.resolve("cluster.json")), "no cluster is said to be up");
      assertTrue(Ledger.orphans().stream().noneMatch(o -> o.contains(owner)), () -> "leftovers: " + Ledger.orphans());
      assertTrue(Cgroup.instances().stream().noneMatch(i -> i.startsWith(owner)), Cgroup.instances().toString());
      var gone = cli("cluster", "status", "--dir", dir.toString());
      assertEquals(2, gone.code());
      assertTrue(gone.err().contains("no cluster is up in"), gone.err());
    } finally {
      up.destroy();
      Awaitility.await("cluster process ended").atMost(Duration.ofMinutes(5)).until(() -> !up.isAlive());
    }
  }

  private static List<JsonNode> nodes(Path dir) throws IOException {
    var status = cli("cluster", "status", "--dir", dir.toString(), "--json");
    assertEquals(0, status.code(), status.err());
    List<JsonNode> out = new ArrayList<>();
    RecordStore.json().readTree(status.out()).get("nodes").forEach(out::add);
    return out;
  }

  /** Skewed words, as a user's text is; returns the counts made here, independently of Hadoop. */
  private static Map<String, Integer> writeWords(Path file) throws IOException {
    Random r = new Random(7);
    Map<String, Integer> counts = new TreeMap<>();
    StringBuilder text = new StringBuilder();
    for (int line = 0; line < 2000; line++) {
      for (int i = 0; i < 10; i++) {
        String w = "w" + (int) Math.floor(Math.pow(r.nextDouble(), 3) * 200);
        counts.merge(w, 1, Integer::sum);
        text.append(w).append(i == 9 ? "\n" : " ");
      }
    }
    Files.writeString(file, text);
    return counts;
  }

  /** This JVM's class path without faultbed's own classes: what a Hadoop install gives its client. */
  private static String stockHadoopClasspath() throws IOException {
    List<String> out = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(e);
      boolean faultbeds;
      if (Files.isDirectory(p)) {
        faultbeds = Files.exists(p.resolve("faultbed"));
      } else {
        try (JarFile jar = new JarFile(p.toFile())) {
          faultbeds = jar.getEntry("faultbed/") != null;
        }
      }
      if (!faultbeds) {
        out.add(e);
      }
    }
    return String.join(File.pathSeparator, out);
  }

  record Run(int code, String out) {}

  private static Run run(Path tmp, String name, String classpath, String... mainAndArgs) throws Exception {
    Path log = tmp.resolve(name + ".log");
    Process p = new ProcessBuilder(java(classpath, mainAndArgs)).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    Awaitility.await(name).atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(200)).until(() -> !p.isAlive());
    return new Run(p.exitValue(), read(log));
  }

  /** A JVM command line as the launcher's: this JVM's module openings, {@code classpath}, then the rest. */
  static List<String> java(String classpath, String... mainAndArgs) {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    // the module openings this JVM was given (Hadoop's daemons need them, as the launcher gives them)
    List<String> own = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments();
    for (int i = 0; i < own.size(); i++) {
      if (own.get(i).equals("--add-opens") && i + 1 < own.size()) {
        cmd.addAll(List.of("--add-opens", own.get(++i)));
      } else if (own.get(i).startsWith("--add-opens=")) {
        cmd.add(own.get(i));
      }
    }
    cmd.addAll(List.of("-cp", classpath));
    cmd.addAll(Arrays.asList(mainAndArgs));
    return cmd;
  }

  private static String read(Path log) {
    try {
      return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e.getMessage() + ")";
    }
  }
}
