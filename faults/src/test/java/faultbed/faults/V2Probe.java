package faultbed.faults;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs inside a host whose only cgroup hierarchy is v2 (see {@link CgroupV2GuestTest}) and measures
 * the v2 mechanisms there, printing one {@code RESULT name value} line per figure for the test to
 * judge: the layout found, the CPU a cpu.max cap lets spinners use, the rate an io.max throttle lets
 * dd write to a real disk, freezing, and what one start heals after the harness was SIGKILLed during
 * a freeze, a CPU cap and an I/O throttle. Arguments: a folder on a real disk; "leftovers" as a
 * second argument makes it the harness that gets killed.
 */
public final class V2Probe {
  static final double CPU_CAP = 0.2;
  static final long WRITE_CAP = 10L << 20;

  public static void main(String[] args) throws Exception {
    Path disk = Path.of(args[0]);
    if (args.length > 1 && args[1].equals("leftovers")) {
      leftovers(disk);
      return;
    }
    CgroupLayout layout = CgroupLayout.current();
    result("layout", layout.kind() + "/" + layout.tasks() + "/" + layout.cpu() + "/" + layout.io());
    Ledger ledger = Ledger.open();
    Cgroup node = Cgroup.of(ledger.owner() + "/node-0").create();
    ledger.record(LedgerEntry.cgroup(Cgroup.of(ledger.owner()), "probe"));

    Installed cap = NodeLimits.apply(node, CPU_CAP, null, null, List.of());
    Installed spinners = Load.cpuSpinners(node, 2);
    result("cpuMax", Files.readString(node.tasksDir().resolve("cpu.max")).trim().replace(' ', '/'));
    result("cpuCoresUsed", String.format("%.4f", coresOver(node, 5_000)));
    node.freeze();
    result("frozen", Boolean.toString(node.isFrozen()));
    result("cpuCoresUsedFrozen", String.format("%.4f", coresOver(node, 1_000)));
    node.thaw();
    spinners.heal();
    cap.heal();
    result("cpuMaxAfterHeal", Files.readString(node.tasksDir().resolve("cpu.max")).trim().replace(' ', '/'));

    Files.createDirectories(disk);
    String dev = NodeLimits.devicesOf(List.of(disk)).iterator().next();
    result("device", dev);
    Installed throttle = NodeLimits.apply(node, null, null, WRITE_CAP, List.of(disk));
    result("ioMax", Files.readString(node.tasksDir().resolve("io.max")).trim().replace(' ', '/'));
    Installed dd = Load.diskWriters(ledger, "probe", node, List.of(disk), 1, 1 << 20, 256L << 20, true);
    Thread.sleep(1_000); // the first writes may pass before the throttle's budget is spent
    long b0 = node.ioBytes(dev)[1];
    long t0 = System.nanoTime();
    Thread.sleep(5_000); // a rate over a fixed window
    result("writeBytesPerSecond", Long.toString(Math.round((node.ioBytes(dev)[1] - b0) / ((System.nanoTime() - t0) / 1e9))));
    dd.heal();
    throttle.heal();
    ledger.close();
    result("healed", Boolean.toString(!Cgroup.of(ledger.owner()).existsAnywhere()));

    // SIGKILL of a harness during a freeze, a CPU cap and an I/O throttle, then one start
    // interpreted like this JVM when the test runs it so (see CgroupV2GuestTest)
    boolean interpreted = System.getProperty("java.vm.info", "").contains("interpreted");
    List<String> makerArgv = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    if (interpreted) {
      makerArgv.add("-Xint");
    }
    makerArgv.addAll(List.of("-cp", System.getProperty("java.class.path"), V2Probe.class.getName(), disk.toString(), "leftovers"));
    Process maker = new ProcessBuilder(makerArgv).redirectErrorStream(true).start();
    String owner;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(maker.getInputStream()))) {
      String line = out.readLine();
      if (line == null || !line.startsWith("READY ")) {
        throw new IllegalStateException("the killed harness said: " + line);
      }
      owner = line.substring(6).trim();
    }
    Cgroup left = Cgroup.of(owner);
    result("leftBeforeKill", Integer.toString(left.pids().size()));
    result("frozenBeforeKill", Boolean.toString(left.child("frozen").isFrozen()));
    maker.destroyForcibly();
    maker.waitFor();
    result("leftAfterKill", Integer.toString(left.pids().size()));
    List<String> healed = Ledger.healOrphans();
    result("healedLines", Integer.toString(healed.size()));
    result("leftAfterStart", Integer.toString(left.pids().size()) + "/" + left.existsAnywhere());
    result("liveProcessesOfOwner", Integer.toString(liveMembers(owner)));
    try (var files = Files.list(disk)) {
      result("ddFilesLeft", Long.toString(files.count()));
    }
  }

  /** The killed harness: a frozen group, a capped node with spinners, a throttled node writing. */
  private static void leftovers(Path disk) throws Exception {
    Ledger ledger = Ledger.open();
    ledger.record(LedgerEntry.cgroup(Cgroup.of(ledger.owner()), "probe"));
    Cgroup node = Cgroup.of(ledger.owner() + "/node-0").create();
    NodeLimits.apply(node, CPU_CAP, null, WRITE_CAP, List.of(disk));
    Load.cpuSpinners(node, 1);
    Load.diskWriters(ledger, "probe", node, List.of(disk), 1, 1 << 20, 64L << 20, true);
    Cgroup frozen = Cgroup.of(ledger.owner() + "/frozen").create();
    frozen.spawn(List.of("sleep", "600"));
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (frozen.pids().isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    frozen.freeze();
    System.out.println("READY " + ledger.owner());
    System.out.flush();
    Thread.sleep(600_000);
  }

  private static double coresOver(Cgroup g, long millis) throws InterruptedException {
    long u0 = g.cpuUsageMicros();
    long t0 = System.nanoTime();
    Thread.sleep(millis); // a rate over a fixed window
    return (g.cpuUsageMicros() - u0) / ((System.nanoTime() - t0) / 1e3);
  }

  /** Processes, not zombies, whose v2 cgroup names the owner. */
  private static int liveMembers(String owner) {
    int[] n = {0};
    ProcessHandle.allProcesses().forEach(p -> {
      try {
        String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
        if (!stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z")
            && Files.readString(Path.of("/proc", Long.toString(p.pid()), "cgroup")).contains("/" + owner)) {
          n[0]++;
        }
      } catch (java.io.IOException gone) {
        // exited
      }
    });
    return n[0];
  }

  private static void result(String name, String value) {
    System.out.println("RESULT " + name + " " + value);
    System.out.flush();
  }
}
