package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import faultbed.experiments.scenario.Scenario;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.faults.Ledger;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.SuiteSummary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * faultbed under its own load: the soak scenario (short synthetic jobs, every fault kind the kernel
 * backend makes on mini, interleaved) run by one SuiteRunner in this JVM, which on mini also hosts
 * the ResourceManager, NameNode, DataNodes, NodeManagers and history server. After every tenth run,
 * once the cluster is reset for the next, it samples what a long suite could pile up: heap after a
 * full GC, threads, open files, child processes, the cluster's working folder on disk, and the things
 * faultbed made on the OS (rules, qdisc classes, cgroups; {@link Ledger#present}), its own only, so
 * that another faultbed running beside it counts for nothing. The last sample must
 * be within 10 % of the one at a tenth of the suite (at least run 20, once every variant ran twice),
 * and the OS things no more.
 *
 * <p>{@code ci/extended} runs it short ({@value #GUARD_RUNS} runs of each variant); {@code ci/soak}
 * runs the published length, {@code -Dfaultbed.soak.runs=91} (1,001 runs), writing each sample to
 * {@code target/soak/vitals.csv} as it goes.
 */
@Tag("extended")
class SoakTest {
  private static final int GUARD_RUNS = 6;
  private static final int EVERY = 10;

  /** One sample of the harness JVM and the machine, after {@code runs} runs. */
  record Vitals(int runs, Instant at, long heapAfterGc, int threads, long openFiles, long children,
      long workBytes, Map<String, Long> workFolders, Map<String, Integer> osThings) {
    static String header() {
      return "runs,at,heapAfterGcBytes,threads,openFiles,childProcesses,clusterWorkBytes,faultbedThingsOnTheOs";
    }

    String csv() {
      return runs + "," + at + "," + heapAfterGc + "," + threads + "," + openFiles + "," + children + "," + workBytes
          + "," + osThings.toString().replace(",", ";");
    }

    int osThingsInAll() {
      return osThings.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  @Test
  void aThousandRunsLeaveWhatAHundredLeft(@TempDir Path dir) throws Exception {
    int runsEach = Integer.getInteger("faultbed.soak.runs", GUARD_RUNS);
    Path file = Path.of("scenarios/soak.json");
    ObjectNode tree = (ObjectNode) RecordStore.json().readTree(file.toFile());
    tree.put("runs", runsEach);
    Scenario scenario = ScenarioParser.parse(RecordStore.json().writeValueAsString(tree), "soak");
    int total = RunOrder.of(scenario).size();
    Path vitalsFile = Files.createDirectories(Path.of("target/soak")).resolve("vitals.csv");
    Files.writeString(vitalsFile, Vitals.header() + "\n");
    Path work = workRoot();
    List<Vitals> samples = new ArrayList<>();
    Instant start = Instant.now();

    SuiteSummary summary = new SuiteRunner(scenario, RunOrder.of(scenario), new RecordStore(dir.resolve("out")),
        new SuiteRunner.Progress() {
          @Override
          public void runStarting(int done, int all, String runId) {
            if (done > 0 && done % EVERY == 0) {
              Vitals v = sample(done, work);
              samples.add(v);
              try {
                Files.writeString(vitalsFile, v.csv() + "\n", java.nio.file.StandardOpenOption.APPEND);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
              System.out.printf("soak: %d of %d runs in %s: %s%n", done, all,
                  Duration.between(start, Instant.now()).withNanos(0), v.csv());
            }
          }
        }, Map.of(), Provenances.here(file)).run();

    List<RunRecord> records = new RecordStore(dir.resolve("out")).readAll();
    assertEquals(total, records.size(), "one record per run");
    List<String> unfinished = records.stream().filter(r -> !r.job().succeeded()).map(RunRecord::runId).toList();
    assertTrue(unfinished.isEmpty(), "every soak job succeeds (faults of a second or two): " + unfinished);
    assertEquals(scenario.variants().size(), summary.variants().size());
    // the scenario's settings are the jobs' (MiniMRYarnCluster sets its own over some: small jobs
    // never inside their AM, for one)
    assertTrue(records.stream().allMatch(r -> "true".equals(r.hadoop().get("mapreduce.job.ubertask.enable"))),
        "every job ran with the scenario's mapreduce.job.ubertask.enable");

    int referenceRun = Math.max(2 * scenario.variants().size() / EVERY * EVERY + EVERY, total / 10 / EVERY * EVERY);
    Vitals reference = samples.stream().filter(v -> v.runs() == referenceRun).findFirst().orElseThrow();
    Vitals last = samples.get(samples.size() - 1);
    assertTrue(last.runs() > reference.runs(), "samples after the reference: " + samples.size());
    List<String> grown = new ArrayList<>();
    within("heap after a full GC (bytes)", reference.heapAfterGc(), last.heapAfterGc(), grown);
    within("threads", reference.threads(), last.threads(), grown);
    within("open files", reference.openFiles(), last.openFiles(), grown);
    within("child processes", reference.children(), last.children(), grown);
    within("the cluster's working folder (bytes)", reference.workBytes(), last.workBytes(), grown);
    if (last.workBytes() > reference.workBytes() * 1.1) {
      grown.add("by folder " + reference.workFolders() + " -> " + last.workFolders());
    }
    if (last.osThingsInAll() > reference.osThingsInAll()) {
      grown.add("faultbed's things on the OS: " + reference.osThings() + " after run " + reference.runs() + ", "
          + last.osThings() + " after run " + last.runs());
    }
    assertTrue(grown.isEmpty(), "grew from run " + reference.runs() + " to run " + last.runs() + ": " + grown
        + " (every sample: " + vitalsFile.toAbsolutePath() + ")");
  }

  private static void within(String what, long reference, long last, List<String> grown) {
    if (last > reference * 1.1) {
      grown.add(what + " " + reference + " -> " + last);
    }
  }

  static Vitals sample(int runs, Path work) {
    // twice: the first full collection may leave what finalizers and cleaners free only after it
    ManagementFactory.getMemoryMXBean().gc();
    ManagementFactory.getMemoryMXBean().gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    int threads = ManagementFactory.getThreadMXBean().getThreadCount();
    long files;
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      files = fds.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long children = ProcessHandle.current().descendants().count();
    Map<String, Long> folders = new java.util.TreeMap<>();
    try (Stream<Path> clusters = Files.isDirectory(work) ? Files.list(work) : Stream.empty()) {
      // this harness's clusters only: another faultbed may run beside the soak
      for (Path cluster : clusters.filter(c -> c.getFileName().toString().startsWith(OWN)).toList()) {
        try (Stream<Path> parts = Files.isDirectory(cluster) ? Files.list(cluster) : Stream.empty()) {
          for (Path part : parts.toList()) {
            String key = part.getFileName().toString().replaceFirst("^nm-\\d+-g\\d+-.*", "nm-*");
            folders.merge(key, bytesUnder(part), Long::sum);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long all = folders.values().stream().mapToLong(Long::longValue).sum();
    return new Vitals(runs, Instant.now(), heap, threads, files, children, all, folders,
        Ledger.present(owner -> owner == null || owner.startsWith(OWN)));
  }

  private static long bytesUnder(Path root) {
    long[] bytes = {0};
    try {
      Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
        @Override
        public java.nio.file.FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes a) {
          bytes[0] += a.isRegularFile() ? a.size() : 0;
          return java.nio.file.FileVisitResult.CONTINUE;
        }

        @Override
        public java.nio.file.FileVisitResult visitFileFailed(Path f, IOException gone) {
          return java.nio.file.FileVisitResult.CONTINUE; // deleted while walked: a NodeManager cleaning up
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes[0];
  }

  /** The start of the names this JVM's harnesses give what they make (their ledger owners). */
  private static final String OWN = "h" + ProcessHandle.current().pid() + "-";

  /** Every cluster working folder of this machine's faultbed processes; the soak's start with {@link #OWN}. */
  private static Path workRoot() {
    String own = faultbed.faults.Capability.isRoot() ? "faultbed" : "faultbed-" + System.getProperty("user.name");
    return Path.of(System.getProperty("faultbed.work.dir", "/var/tmp/" + own));
  }
}
