package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.faults.remote.RemoteHost;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * faultbed's host helper, the only thing a remote host's sudo rule need allow, run here as root the
 * way faultbed runs it on a host whose login may sudo anything ({@code sh -s -- VERB ...}, its text
 * on standard input). What it refuses is refused with one line and exit 2 before anything runs, in
 * particular every way its programs can start another (iptables --modprobe, tc exec); what faultbed
 * asks of it works on the real OS.
 */
class HostHelperTest {
  private static final String NODE_MANAGER = "org.apache.hadoop.yarn.server.nodemanager.NodeManager";

  @TempDir
  Path dir;
  private Ledger ledger;
  private final List<Process> started = new ArrayList<>();

  @BeforeEach
  void root() {
    assumeTrue("root".equals(System.getProperty("user.name")), "the helper runs as root");
    ledger = Ledger.open();
  }

  @AfterEach
  void close() {
    started.forEach(p -> p.descendants().forEach(ProcessHandle::destroyForcibly));
    started.forEach(Process::destroyForcibly);
    if (ledger != null) {
      ledger.close();
    }
  }

  /** The helper's answer: exit code, standard output and error. */
  private record Answer(int code, byte[] out, String err) {
    String text() {
      return new String(out, StandardCharsets.UTF_8);
    }
  }

  private static Answer helper(String... args) throws IOException, InterruptedException {
    List<String> argv = new ArrayList<>(List.of("sh", "-s", "--"));
    argv.addAll(List.of(args));
    Process p = new ProcessBuilder(argv).start();
    try (var in = p.getOutputStream()) {
      in.write(RemoteHost.HELPER);
    }
    byte[] out = p.getInputStream().readAllBytes();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the helper ended");
    return new Answer(p.exitValue(), out, err);
  }

  private static void refused(String expected, String... args) throws Exception {
    Answer a = helper(args);
    assertEquals(2, a.code(), String.join(" ", args) + ": " + a.err());
    assertTrue(a.err().startsWith("faultbed-host: ") && a.err().strip().lines().count() == 1 && a.err().contains(expected),
        String.join(" ", args) + ": " + a.err());
  }

  private Process sleeper(String... argv0) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("sh", "-c", "sleep 600 & wait"));
    cmd.addAll(List.of(argv0));
    Process p = new ProcessBuilder(cmd).start();
    started.add(p);
    return p;
  }

  private static char state(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    return stat.charAt(stat.lastIndexOf(')') + 2);
  }

  @Test
  void noVerbStartsAProgramOfTheCallersChoosing() throws Exception {
    Path made = dir.resolve("made");
    refused("iptables: --modprobe=/usr/bin/touch runs a program", "iptables", "--modprobe=/usr/bin/touch", "-S");
    refused("iptables: -M runs a program", "iptables", "-M", "/usr/bin/touch", "-S");
    refused("iptables: -wM runs a program", "iptables", "-wM", "/usr/bin/touch", "-S");
    refused("iptables: --modp=/usr/bin/touch runs a program", "iptables", "--modp=/usr/bin/touch", "-S");
    refused("iptables: --mod runs a program", "iptables", "--mod", "/usr/bin/touch", "-S");
    refused("tc: 'exec' is not allowed", "tc", "filter", "exec", "bpf", "run", "/usr/bin/touch", made.toString());
    refused("tc: expected qdisc, class or filter first, got 'exec'", "tc", "exec", "bpf", "run", "touch");
    refused("tc: expected qdisc, class or filter first, got '-batch'", "tc", "-batch", made.toString());
    refused("tc: 'action' is not allowed", "tc", "filter", "add", "dev", "lo", "action", "bpf", "obj", "x");
    refused("ss: expected options of the letters H l t u n p, got '-K'", "ss", "-K");
    refused("expected a verb", "sh", "-c", "touch " + made);
    refused("expected a verb, got none");
    refused("pkill: expected a pattern of faultbed's tag, got 'java'", "pkill", "-KILL", "-f", "java");
    refused("pkill: expected -KILL -f PATTERN", "pkill", "-KILL", "java");
    refused("tag: expected letters", "spin", "a;touch", "1");
    refused("count: expected a whole number, got '1;x'", "spin", "t", "1;x");
    refused("expected an absolute folder, got 'tmp'", "dd-load", "tmp", "t", "1", "4096", "8192", "direct");
    refused("dd-load: expected FILE >= BLOCK, got 100 < 4096", "dd-load", dir.toString(), "t", "1", "4096", "100",
        "synced");
    refused("expected a folder without . or ..", "logs", dir + "/../..", "application_1_1");
    refused("expected an application id", "logs", dir.toString(), "application_1_1/../../etc");
    refused("expected an application id", "has-logs", dir.toString(), "etc");
    assertFalse(Files.exists(made), "nothing ran");
  }

  @Test
  void signalsReachOnlyTheNodeManagerAndWhatItStarted() throws Exception {
    Process other = sleeper("not-a-nodemanager");
    Process nm = sleeper(NODE_MANAGER);
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> nm.descendants().count() == 1
        && other.descendants().count() == 1);
    long container = nm.descendants().findFirst().orElseThrow().pid();
    long stranger = other.descendants().findFirst().orElseThrow().pid();

    refused("kill: process " + stranger + " is not the NodeManager or one of its descendants", "kill", "-KILL",
        Long.toString(container), Long.toString(stranger));
    refused("kill: expected -TERM, -KILL, -STOP, -CONT or -0, got '-9'", "kill", "-9", Long.toString(container));
    assertTrue(ProcessHandle.of(stranger).isPresent() && ProcessHandle.of(container).isPresent(), "nothing signalled");

    assertEquals(0, helper("kill", "-STOP", Long.toString(nm.pid()), Long.toString(container)).code());
    Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> state(container) == 'T');
    // continuing, or asking whether a process exists, harms none: any process
    assertEquals(0, helper("kill", "-CONT", Long.toString(container), Long.toString(nm.pid())).code());
    assertEquals(0, helper("kill", "-0", Long.toString(stranger)).code());
    Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> state(container) != 'T');
    assertEquals(0, helper("kill", "-KILL", Long.toString(container)).code());
    Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> ProcessHandle.of(container).isEmpty()
        || state(container) == 'Z');
    assertTrue(ProcessHandle.of(stranger).isPresent());
  }

  @Test
  void loadProcessesAndTheirFilesGoByTheirTag() throws Exception {
    String tag = ledger.owner() + "-r1-cpu";
    String pattern = "[f]aultbed(=|-dd-)" + tag.replace(".", "[.]");
    ledger.record(Undo.entry("spinners", "r1", List.of("pgrep", "-f", pattern), null,
        List.of("pkill", "-KILL", "-f", pattern)));
    assertEquals(0, helper("spin", tag, "2").code());
    Awaitility.await().atMost(Duration.ofSeconds(10))
        .until(() -> helper("pgrep", "-f", pattern).text().strip().lines().count() == 2);
    assertEquals(0, helper("pkill", "-KILL", "-f", pattern).code());
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> helper("pgrep", "-f", pattern).code() == 1);

    String ddTag = ledger.owner() + "-r1-dd";
    String ddPattern = "[f]aultbed(=|-dd-)" + ddTag.replace(".", "[.]");
    ledger.record(Undo.entry("dd files", "r1", null, null, List.of("find", dir.toString(), "-maxdepth", "1", "-name",
        "faultbed-dd-" + ddTag + "-*", "-delete")));
    ledger.record(Undo.entry("dd writers", "r1", List.of("pgrep", "-f", ddPattern), null,
        List.of("pkill", "-KILL", "-f", ddPattern)));
    assertEquals(0, helper("dd-load", dir.toString(), ddTag, "2", "4096", "1048576", "synced").code());
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
      try (var files = Files.list(dir)) {
        return files.anyMatch(f -> f.getFileName().toString().startsWith("faultbed-dd-" + ddTag + "-"));
      }
    });
    assertEquals(0, helper("pkill", "-KILL", "-f", ddPattern).code());
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> helper("pgrep", "-f", ddPattern).code() == 1);
    assertEquals(0, helper("dd-clean", dir.toString(), ddTag).code());
    try (var files = Files.list(dir)) {
      assertEquals(List.of(), files.map(Path::toString).filter(f -> f.contains("faultbed-dd-")).toList());
    }
    assertEquals(0, helper("dd-clean", dir.resolve("gone").toString(), ddTag).code(), "a folder gone: nothing to clean");
  }

  @Test
  void anApplicationsLogFolderComesAsATarStream() throws Exception {
    Path app = Files.createDirectories(dir.resolve("application_17_0003/container_17_0003_01_000001"));
    Files.writeString(app.resolve("syslog"), "the AM's log\n");
    assertEquals(0, helper("has-logs", dir.toString(), "application_17_0003").code());
    assertEquals(1, helper("has-logs", dir.toString(), "application_17_0004").code());
    Answer tar = helper("logs", dir.toString(), "application_17_0003");
    assertEquals(0, tar.code(), tar.err());
    List<String> names = new ArrayList<>();
    try (var in = new TarArchiveInputStream(new ByteArrayInputStream(tar.out()))) {
      for (var e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        names.add(e.getName());
      }
    }
    assertTrue(names.contains("application_17_0003/container_17_0003_01_000001/syslog"), names.toString());
  }

  @Test
  void thePacketFilterAndTrafficControlAnswer() throws Exception {
    assumeTrue(Shell.exists("iptables") && Shell.exists("tc"), "iptables and tc");
    Answer rules = helper("iptables", "-w", "-S", "OUTPUT");
    assertEquals(0, rules.code(), rules.err());
    assertTrue(rules.text().startsWith("-P OUTPUT"), rules.text());
    Answer qdiscs = helper("tc", "qdisc", "show", "dev", "lo");
    assertEquals(0, qdiscs.code(), qdiscs.err());
    assertEquals(0, helper("ss", "-H", "-l", "-t", "-n", "-p").code());
  }
}
