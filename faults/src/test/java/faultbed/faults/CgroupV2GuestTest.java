package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cgroup v2 mechanisms a hybrid or v1 host cannot show (cpu.max, io.max on a real disk, and
 * the heal after a SIGKILL during a v2 freeze, CPU cap and I/O throttle), measured inside a Linux
 * guest whose only hierarchy is v2. The guest is a command named by {@code FAULTBED_V2_GUEST}
 * ({@code ci/test} sets it where the CI machine provides one); it runs its arguments in the guest,
 * with this machine's files visible and a scratch disk at {@code /scratch}. A host that is itself
 * cgroup v2 only, with cpu and io, runs the probe directly. Elsewhere the test is skipped and says so. The guest is emulated, so the probe measures rates over seconds.
 */
class CgroupV2GuestTest {
  private static final Map<String, String> results = new LinkedHashMap<>();
  private static String output = "";

  @BeforeAll
  static void probeInTheGuest() throws Exception {
    String guest = System.getenv("FAULTBED_V2_GUEST");
    CgroupLayout here = CgroupLayout.current();
    boolean hostIsV2 = here.kind().equals("v2") && here.cpu() == CgroupLayout.Mechanism.V2
        && here.io() == CgroupLayout.Mechanism.V2;
    List<String> argv = new java.util.ArrayList<>();
    String disk;
    if (guest != null && !guest.isBlank() && Files.isExecutable(Path.of(guest))) {
      assumeTrue(Capability.isRoot(), "the v2 guest needs root");
      argv.addAll(List.of(guest, "--"));
      disk = "/scratch/faultbed-probe";
    } else {
      // a cgroup-v2-only host (a hosted CI runner) is its own guest
      assumeTrue(hostIsV2, () -> "no cgroup-v2-only guest to run in (FAULTBED_V2_GUEST names none) and this host"
          + " is not one with cpu and io: " + here.describe());
      disk = Path.of("target", "v2-probe").toAbsolutePath().toString();
    }
    argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (guest != null && !guest.isBlank()) {
      // the guest's CPU is emulated: HotSpot re-patching compiled code that another virtual CPU was
      // running crashed the probe with SIGILL now and then; the interpreter patches no code
      argv.add("-Xint");
    }
    argv.addAll(List.of("-cp", System.getProperty("java.class.path"), V2Probe.class.getName(), disk));
    Path log = Files.createTempFile("faultbed-v2-guest", ".log");
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean done = p.waitFor(15, TimeUnit.MINUTES);
    if (!done) {
      p.destroyForcibly();
    }
    output = Files.readString(log, StandardCharsets.UTF_8);
    Files.deleteIfExists(log);
    assumeTrue(done && p.exitValue() != 125, () -> "the v2 guest did not run (" + (done ? "exit 125" : "timed out")
        + "): " + tail(output));
    for (String line : output.split("\n")) {
      if (line.startsWith("RESULT ")) {
        String[] w = line.trim().split(" ", 3);
        results.put(w[1], w.length > 2 ? w[2] : "");
        System.out.println(line.trim()); // the figures, in the test's report
      }
    }
    assertEquals(0, p.exitValue(), () -> "the probe failed in the guest:\n" + tail(output));
  }

  private static String get(String name) {
    String v = results.get(name);
    assertTrue(v != null, () -> "the probe did not report " + name + ":\n" + tail(output));
    return v;
  }

  private static String tail(String s) {
    List<String> lines = s.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }

  @Test
  void theGuestIsFoundToBePureV2AndEveryConcernGoesThroughIt() {
    assertEquals("v2/cgroup v2/cgroup v2/cgroup v2", get("layout"));
  }

  @Test
  void cpuMaxHoldsTwoSpinnersToTheCapWithinTenPercent() {
    assertEquals("20000/100000", get("cpuMax"));
    double used = Double.parseDouble(get("cpuCoresUsed"));
    assertTrue(Math.abs(used - V2Probe.CPU_CAP) <= 0.1 * V2Probe.CPU_CAP, "cap 0.2 cores, used " + used);
    assertEquals("max/100000", get("cpuMaxAfterHeal"));
  }

  @Test
  void freezingStopsTheNodesProcesses() {
    assertEquals("true", get("frozen"));
    assertTrue(Double.parseDouble(get("cpuCoresUsedFrozen")) < 0.01, "frozen spinners used " + get("cpuCoresUsedFrozen"));
  }

  @Test
  void ioMaxHoldsDdToTheThrottleWithinTenPercentOnTheDiskThatHoldsTheFolder() {
    String dev = get("device");
    assertTrue(get("ioMax").startsWith(dev + "/rbps=max/wbps=" + V2Probe.WRITE_CAP), get("ioMax"));
    long rate = Long.parseLong(get("writeBytesPerSecond"));
    assertTrue(Math.abs(rate - V2Probe.WRITE_CAP) <= 0.1 * V2Probe.WRITE_CAP, "throttle 10 MiB/s, wrote " + rate + " B/s");
    assertEquals("true", get("healed"));
  }

  @Test
  void oneStartAfterASigkillDuringFreezeCpuCapAndThrottleLeavesNothing() {
    assertTrue(Integer.parseInt(get("leftBeforeKill")) >= 3, "spinner, dd loop and frozen sleep: " + get("leftBeforeKill"));
    assertEquals("true", get("frozenBeforeKill"));
    assertTrue(Integer.parseInt(get("leftAfterKill")) >= 3, "the load outlives the killed harness");
    assertTrue(Integer.parseInt(get("healedLines")) >= 1);
    assertEquals("0/false", get("leftAfterStart"), "no process and no group left");
    assertEquals("0", get("liveProcessesOfOwner"));
    assertEquals("0", get("ddFilesLeft"));
  }

}
