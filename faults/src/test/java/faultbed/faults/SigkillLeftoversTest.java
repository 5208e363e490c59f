package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL of a process while a fault of every kernel kind is active, then one heal at start:
 * nothing left on the OS. Checks the OS itself (iptables, tc, cgroupfs, /proc), not the ledger.
 */
class SigkillLeftoversTest {
  private static String iptables() {
    return Shell.run(List.of("iptables", "-w", "-S")).out();
  }

  private static String qdiscs() {
    return Shell.run(List.of("tc", "qdisc", "show", "dev", "lo")).out() + Shell.run(List.of("tc", "class", "show", "dev", "lo")).out();
  }

  /** Live processes whose cgroup path names this owner (a zombie is dead, waiting for init to reap it). */
  private static List<Long> processesOf(String owner) {
    List<Long> pids = new ArrayList<>();
    ProcessHandle.allProcesses().forEach(p -> {
      try {
        String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
        boolean zombie = stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        if (!zombie && Files.readString(Path.of("/proc", Long.toString(p.pid()), "cgroup")).contains("/" + owner)) {
          pids.add(p.pid());
        }
      } catch (IOException gone) {
        // exited
      }
    });
    return pids;
  }

  /** Network namespaces named after this owner, and links whose alias says this owner made them. */
  private static List<String> namespacesAndLinksOf(String owner) throws IOException {
    List<String> found = new ArrayList<>();
    for (String ns : Shell.run(List.of("ip", "netns", "list")).out().split("\n")) {
      if (ns.contains(owner)) {
        found.add("netns " + ns);
      }
    }
    try (var links = Files.list(Path.of("/sys/class/net"))) {
      for (Path l : links.toList()) {
        Path alias = l.resolve("ifalias");
        if (Files.isReadable(alias) && Files.readString(alias).strip().equals("faultbed " + owner)) {
          found.add("link " + l.getFileName());
        }
      }
    }
    return found;
  }

  /** Devices of the owner's node disks throttled in the root blkio group. */
  private static List<String> slowOf(String owner) {
    return new NodeDisk.SlowHealer().findAll().stream().filter(f -> f.owner().equals(owner))
        .map(f -> f.entry().detail().get("device")).toList();
  }

  /** Mounts of the owner's node disks. */
  private static List<String> disksOf(String owner) {
    return new NodeDisk.MountHealer().findAll().stream().filter(f -> f.owner().equals(owner))
        .map(f -> f.entry().id()).toList();
  }

  @Test
  void oneStartAfterSigkillLeavesNothingOfAnyKind(@TempDir Path dir) throws Exception {
    List<String> problems = new ArrayList<>();
    for (Capability c : Capability.values()) {
      if (c != Capability.NETEM) {
        problems.addAll(c.problems());
      }
    }
    assumeTrue(problems.isEmpty(), () -> "kernel backend unavailable: " + problems);
    int port;
    int other;
    try (ServerSocket a = new ServerSocket(0); ServerSocket b = new ServerSocket(0)) {
      port = a.getLocalPort();
      other = b.getLocalPort();
    }
    Process maker = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), LeftoverMaker.class.getName(), dir.toString(),
        Integer.toString(port), Integer.toString(other)).redirectErrorStream(true).start();
    String owner;
    long stalled;
    List<String> slowDevices = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(maker.getInputStream()))) {
      String line = out.readLine();
      assertTrue(line != null && line.startsWith("READY "), "maker said: " + line);
      String[] said = line.substring(6).trim().split(" ");
      owner = said[0];
      stalled = Long.parseLong(said[1]);
      assertTrue(StoppedProcesses.isStopped(Commands.local(), stalled), "the stopped process is stopped");
      assertTrue(iptables().contains("faultbed " + owner), "rules in place");
      assertTrue(qdiscs().contains("fb:"), "qdisc in place");
      assertTrue(processesOf(owner).size() >= (CgroupLayout.current().memory() != CgroupLayout.Mechanism.NONE ? 6 : 5),
          "dd, spinner, memory hog, frozen and namespaced processes running");
      assertTrue(namespacesAndLinksOf(owner).size() >= 3, "namespace, veth and bridge in place");
      if (NodeDisk.problems().isEmpty()) {
        assertEquals(NodeDisk.slowProblems().isEmpty() ? 3 : 2, disksOf(owner).size(), "node disks mounted: "
            + disksOf(owner));
        if (NodeDisk.slowProblems().isEmpty()) {
          slowDevices.addAll(slowOf(owner));
          assertEquals(1, slowDevices.size(), "a slow disk's throttle in place");
        }
      }
      assertFalse(java.util.Arrays.equals(new byte[4096], Files.readAllBytes(Path.of(dir + ".replica"))),
          "the replica corrupted");
      maker.destroyForcibly(); // SIGKILL: no shutdown hook
      maker.waitFor();
    }
    assertTrue(StoppedProcesses.isStopped(Commands.local(), stalled), "the stopped process outlives its harness stopped");
    List<Long> orphans = processesOf(owner);
    assertFalse(orphans.isEmpty(), "the dead process's load outlives it");

    List<String> healed = Ledger.healOrphans();

    assertFalse(iptables().contains("faultbed " + owner), "no faultbed rule left:\n" + iptables());
    // the fb: root is shared: another live harness on this machine (a suite beside the tests) keeps
    // it, and only the dead one's classes must go (checked below)
    if (Ledger.liveOwners().isEmpty()) {
      assertFalse(qdiscs().contains("fb:"), "no faultbed qdisc or class left:\n" + qdiscs());
    }
    String classes = Shell.run(List.of("tc", "class", "show", "dev", "lo")).out();
    int first = TrafficControl.firstClass(owner);
    assertFalse(java.util.regex.Pattern.compile("class \\S+ fb:([0-9a-f]+)").matcher(classes).results()
        .map(m -> Integer.parseInt(m.group(1), 16)).anyMatch(c -> c >= first && c < first + 256),
        "no tc class of the dead process's left:\n" + classes);
    assertEquals(List.of(), processesOf(owner), "no dd, spinner, memory hog, frozen or namespaced process left");
    assertEquals(List.of(), namespacesAndLinksOf(owner), "no namespace, veth or bridge left");
    assertFalse(Cgroup.recorded(Cgroup.PREFIX + "/" + owner, null).existsAnywhere(), "a group left in some hierarchy");
    try (var files = Files.list(dir)) {
      assertEquals(List.of(), files.toList(), "dd files left");
    }
    assertEquals(List.of(), disksOf(owner), "node disks still mounted");
    for (String file : NodeDisk.THROTTLE_FILES) { // its loop device is gone with the disk: read the rules themselves
      Path rules = CgroupLayout.current().v1Root("blkio").map(r -> r.resolve(file)).orElse(null);
      if (rules != null) {
        String left = Files.readString(rules);
        slowDevices.forEach(d -> assertFalse(left.contains(d + " "), "a slow disk's throttle left in " + file + ":\n" + left));
      }
    }
    assertTrue(java.util.Arrays.equals(new byte[4096], Files.readAllBytes(Path.of(dir + ".replica"))),
        "the corrupted bytes written back");
    Files.delete(Path.of(dir + ".replica"));
    assertFalse(Files.exists(Path.of("/var/tmp/faultbed", owner)), "the disks' folder is left");
    assertFalse(Shell.run(List.of("losetup", "-a")).out().contains(owner), "a loop device of the disks is left:\n"
        + Shell.run(List.of("losetup", "-a")).out());
    assertTrue(healed.size() >= 3, "the heal says what it removed: " + healed);
    try {
      assertTrue(ProcessHandle.of(stalled).isPresent(), "the stopped process lives on");
      assertFalse(StoppedProcesses.isStopped(Commands.local(), stalled), "the stopped process was continued");
      assertTrue(healed.stream().anyMatch(h -> h.contains("continued process " + stalled)), "the heal says so: " + healed);
    } finally {
      ProcessHandle.of(stalled).ifPresent(ProcessHandle::destroyForcibly);
    }
  }
}
