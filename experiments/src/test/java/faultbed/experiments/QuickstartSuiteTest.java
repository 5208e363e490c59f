package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.SuiteSummary;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's main command, shortened to one run per variant, in a JVM of its own started as the
 * faultbed launcher starts it (its logging settings and log file): what a new user sees on the
 * terminal, progress and the summary with no stack trace of a crashed node's threads, and what the
 * records hold.
 */
class QuickstartSuiteTest {
  @Test
  void quickstartRecordsTheCrashAndItsCost(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("out");
    Path log = dir.resolve("faultbed.log");
    List<String> command = new ArrayList<>(List.of(
        ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"), "-Xmx2g"));
    // the launcher's --add-opens, which the test JVM was given too
    List<String> jvm = ManagementFactory.getRuntimeMXBean().getInputArguments();
    for (int i = 0; i < jvm.size(); i++) {
      if (jvm.get(i).equals("--add-opens") && i + 1 < jvm.size()) {
        command.add("--add-opens");
        command.add(jvm.get(++i));
      } else if (jvm.get(i).startsWith("--add-opens=")) {
        command.add(jvm.get(i));
      }
    }
    command.addAll(List.of("-Djava.util.logging.config.file=target/classes/faultbed-jul.properties",
        "-Dlog4j.configuration=faultbed-log4j.properties", "-Dfaultbed.log.file=" + log,
        "-Djava.io.tmpdir=" + dir, "-cp", System.getProperty("java.class.path"), FaultbedCli.class.getName(),
        "run", "scenarios/quickstart.json", "--runs", "1", "--out", out.toString()));
    Path screen = dir.resolve("terminal.txt");
    Process cli = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(screen.toFile()).start();
    if (!cli.waitFor(15, java.util.concurrent.TimeUnit.MINUTES)) {
      cli.destroyForcibly().waitFor();
    }
    String terminal = Files.readString(screen);
    System.out.println(terminal);
    assertEquals(0, cli.exitValue(), terminal);
    assertTrue(terminal.contains("records: ") && terminal.contains("log:     " + log), terminal);
    List<String> traces = terminal.lines().filter(l -> l.matches("\\s+at [a-zA-Z_$][\\w.$]*\\(.*\\)")
        || l.contains("Exception in thread") || l.matches(".*\\b[A-Z]\\w*(Exception|Error)\\b.*")).toList();
    assertTrue(traces.isEmpty(), "the terminal shows a stack trace or an exception: " + traces);

    RecordStore store = new RecordStore(out);
    List<RunRecord> records = store.readAll();
    assertEquals(2, records.size(), "one record per run");
    assertTrue(Files.exists(out.resolve(RecordStore.SUMMARY)));
    SuiteSummary summary = RecordStore.json().readValue(out.resolve(RecordStore.SUMMARY).toFile(), SuiteSummary.class);
    assertEquals(2, summary.variants().size());

    for (RunRecord r : records) {
      assertTrue(r.job().succeeded(), r.runId() + ": " + r.job());
      assertTrue(r.outputCheck().correct() && r.outputCheck().method().startsWith("sort"),
          r.runId() + ": " + r.outputCheck());
      assertFalse(r.hadoop().isEmpty());
      assertEquals("20000", r.hadoop().get("yarn.nm.liveness-monitor.expiry-interval-ms"));
      assertFalse(r.attempts().isEmpty());
      if (!r.variant().equals("crash")) {
        assertTrue(r.faults().isEmpty());
        continue;
      }
      RunRecord.FaultEvent crash = r.faults().get(0);
      assertNotNull(crash.scheduledMs());
      assertNotNull(crash.injectedMs(), r.runId() + ": " + r.notes());
      assertTrue(crash.injectedMs() - crash.scheduledMs() < 1000, "injected on time: " + crash);
      long lost = r.node(crash.node()).lostAt().orElseThrow(() -> new AssertionError(r.runId() + " no LOST"));
      assertTrue(lost > crash.injectedMs());
      assertFalse(r.amAttempts().isEmpty(), r.runId() + " records its AM attempts");
      if (Objects.equals(r.amAttempts().get(0).node(), crash.node())) {
        // The AM died with the node: a second AM ran the job's unfinished work after the crash.
        assertEquals(2, r.amAttempts().size(), r.runId() + ": the AM's node crashed, so a second AM ran");
        assertTrue(r.attempts().stream().anyMatch(a -> Integer.valueOf(2).equals(a.amAttempt())
            && a.attempt() >= 1000 && a.startMs() > crash.injectedMs()), r.runId() + ": " + r.attempts());
        continue;
      }
      // The crash's cost is work done again: a task that had an attempt on the crashed node ran
      // again after the crash. Wall time against the baseline is not asserted: one run against
      // another is within the run-to-run noise of a loaded machine.
      List<String> lostTasks = r.attempts().stream().filter(a -> Objects.equals(a.node(), crash.node()))
          .map(RunRecord.AttemptRecord::taskId).toList();
      if (lostTasks.isEmpty()) {
        // the crash (8-16 s) came before the node was given any task, as on a loaded machine whose job
        // starts late: nothing to run again (the node's LOST and the job's success are checked above)
        continue;
      }
      assertTrue(r.reexecutedAttempts().stream().anyMatch(a -> lostTasks.contains(a.taskId())
              && a.startMs() != null && a.startMs() > crash.injectedMs()),
          r.runId() + " re-ran no task of node " + crash.node() + " after the crash: " + r.attempts());
    }
  }
}
