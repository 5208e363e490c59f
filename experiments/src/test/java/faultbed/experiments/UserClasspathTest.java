package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's policy in a jar built here, outside every faultbed module, reaches the real AM through
 * {@code --classpath}; {@code -D} and {@code --variant} shape the same run, and its record carries the
 * provenance block. One small cluster run.
 */
class UserClasspathTest {
  private static final String POLICY = """
      package com.example;

      import faultbed.schedulers.Backup;
      import faultbed.schedulers.JobSnapshot;
      import faultbed.schedulers.SpeculationPolicy;
      import faultbed.schedulers.TaskState;
      import faultbed.schedulers.TaskType;
      import java.util.List;

      public final class FirstMapTwice implements SpeculationPolicy {
        public String name() { return "first-map-twice"; }

        public List<Backup> choose(JobSnapshot job) {
          return job.tasks(TaskType.MAP).stream()
              .filter(t -> t.state() == TaskState.RUNNING && t.attempts().size() == 1)
              .limit(1).map(t -> Backup.of(t.id(), "backed up by a policy from a user jar")).toList();
        }
      }
      """;
  private static final String SCENARIO = """
      { "name": "user-policy", "cluster": { "nodes": 2 },
        "workload": { "type": "synthetic", "maps": 2, "reduces": 0, "mapTime": "15s" },
        "seed": 5,
        "variants": {
          "hadoop3": { "speculation": "hadoop3" },
          "mine": { "speculation": { "policy": "com.example.FirstMapTwice" } } } }
      """;

  @TempDir
  static Path tmp;
  static Path jar;
  static Path scenario;

  @BeforeAll
  static void buildTheJar() throws IOException {
    Path src = Files.createDirectories(tmp.resolve("src/com/example")).resolve("FirstMapTwice.java");
    Files.writeString(src, POLICY);
    Path classes = Files.createDirectories(tmp.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertEquals(0, javac.run(null, null, null, "-d", classes.toString(),
        "-cp", System.getProperty("java.class.path"), src.toString()));
    jar = tmp.resolve("my-policy.jar");
    try (OutputStream os = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(os);
        Stream<Path> files = Files.walk(classes)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        j.putNextEntry(new JarEntry(classes.relativize(f).toString()));
        j.write(Files.readAllBytes(f));
        j.closeEntry();
      }
    }
    scenario = Files.writeString(tmp.resolve("user-policy.json"), SCENARIO);
  }

  record Result(int code, String out, String err) {}

  static Result faultbed(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void withoutTheJarThePolicyIsNotFound() {
    Result r = faultbed("validate", scenario.toString());
    assertEquals(2, r.code(), r.out() + r.err());
    assertTrue(r.err().contains("unknown speculation policy \"com.example.FirstMapTwice\""), r.err());
  }

  @Test
  void withTheJarTheScenarioIsValidAndTheClassPathIsAsBefore() {
    String before = System.getProperty("java.class.path");
    Result r = faultbed("validate", scenario.toString(), "--classpath", jar.toString());
    assertEquals(0, r.code(), r.err());
    assertEquals(before, System.getProperty("java.class.path"), "the command took its jars off again");
  }

  @Test
  void aMissingEntryIsBadInputAndStartsNothing() {
    Result r = faultbed("run", scenario.toString(), "--classpath", tmp.resolve("nope.jar").toString(),
        "--out", tmp.resolve("never").toString());
    assertEquals(2, r.code(), r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(r.err().contains("--classpath: expected jars or class folders that exist, got \""), r.err());
    assertTrue(Files.notExists(tmp.resolve("never")));
  }

  @Test
  void badDefinesAndUnknownVariantsAreBadInput() {
    Result d = faultbed("run", scenario.toString(), "--classpath", jar.toString(), "-Dmapreduce.map.speculative",
        "--out", tmp.resolve("d").toString());
    assertEquals(2, d.code(), d.err());
    assertTrue(d.err().contains("-D: expected KEY=VALUE, such as -D mapreduce.map.speculative=true, got \"mapreduce.map.speculative\""), d.err());
    Result v = faultbed("run", scenario.toString(), "--classpath", jar.toString(), "--variant", "yours",
        "--out", tmp.resolve("v").toString());
    assertEquals(2, v.code(), v.err());
    assertTrue(v.err().contains("--variant: expected one of [hadoop3, mine], got \"yours\""), v.err());
    assertTrue(Files.notExists(tmp.resolve("d")) && Files.notExists(tmp.resolve("v")));
  }

  @Test
  void theUsersPolicyRunsInTheApplicationMaster() {
    Path out = tmp.resolve("out");
    Result r = faultbed("run", scenario.toString(), "--classpath", jar.toString(), "--variant", "mine",
        "-D", "mapreduce.job.counters.max=200", "--out", out.toString());
    assertEquals(0, r.code(), r.out() + r.err());

    List<RunRecord> records = new RecordStore(out).readAll();
    assertEquals(1, records.size(), "only the variant asked for");
    RunRecord run = records.get(0);
    assertEquals("mine", run.variant());
    assertEquals("SUCCEEDED", run.job().state());
    assertEquals("200", run.hadoop().get("mapreduce.job.counters.max"), "the -D setting reached the job and its record");
    assertTrue(run.speculation().events().stream().anyMatch(e -> e.event().equals("backup")
        && "backed up by a policy from a user jar".equals(e.reason())), () -> "the policy's decisions: " + run.speculation());
    assertTrue(run.attempts().stream().anyMatch(a -> a.attempt() > 0), "a backup attempt ran");

    RunRecord.Provenance p = run.provenance();
    assertEquals(org.apache.hadoop.util.VersionInfo.getVersion(), p.hadoop());
    assertEquals(Runtime.getRuntime().availableProcessors(), p.cores());
    assertEquals(System.getProperty("java.runtime.version"), p.java().substring(p.java().lastIndexOf(' ') + 1));
    assertTrue(p.faultbed().endsWith("-SNAPSHOT") || p.faultbed().matches("[0-9.]+"), p.faultbed());
    assertTrue(p.commit().matches("[0-9a-f]{40}(-dirty)?|unknown"), p.commit());
    assertTrue(p.memoryMb() > 0 && !p.kernel().isBlank() && !p.cgroups().isBlank(), p.toString());
    assertEquals(sha256(scenario), p.scenarioSha256());
  }

  private static String sha256(Path file) {
    try {
      return java.util.HexFormat.of().formatHex(
          java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    } catch (IOException | java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
