package faultbed.faults;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A stand-in harness for {@link SigkillLeftoversTest}: installs one fault of every kernel kind and a
 * node namespace on its own network with a process in it, a stopped process, and (where loop devices
 * can be had) two disks of a node's own, one full and one failed; says
 * READY (its owner and the stopped pid), then waits to be killed. Arguments: a folder for dd files, two port numbers.
 */
public final class LeftoverMaker {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int port = Integer.parseInt(args[1]);
    int other = Integer.parseInt(args[2]);
    Ledger ledger = Ledger.open();
    Cgroup node = Cgroup.of(ledger.owner() + "/node-0").create();
    ledger.record(LedgerEntry.cgroup(Cgroup.of(ledger.owner()), "probe"));
    Iptables iptables = Iptables.loopback(ledger);
    iptables.dropRst("probe", List.of(port));
    iptables.dropAll("probe", List.of(other));
    TrafficControl.loopback(ledger).cap(List.of(port), 1_000_000);
    NodeLimits.apply(node, 0.5, null, 64L << 20, List.of(dir));
    Load.diskWriters(ledger, "probe", node, List.of(dir), 2, 1 << 20, 64L << 20, true);
    Load.cpuSpinners(node, 1);
    if (CgroupLayout.current().memory() != CgroupLayout.Mechanism.NONE) {
      node.limitMemory(512L << 20); // goes with the node's group
      Load.memoryHog(node, 8L << 20);
    }
    Cgroup frozen = Cgroup.of(ledger.owner() + "/frozen").create();
    frozen.spawn(List.of("sleep", "600"));
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (frozen.pids().isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    frozen.freeze();
    NodeNetwork net = NodeNetwork.create(ledger);
    var inNamespace = net.add(0);
    node.spawn(NodeNetwork.inside(inNamespace, List.of("sleep", "600")));
    // a process of no group of faultbed's, stopped as a paused JVM is: only the ledger knows to continue it
    Process stalled = new ProcessBuilder("sleep", "601").start();
    StoppedProcesses.stop(ledger, "probe", List.of(stalled.pid()));
    if (NodeDisk.problems().isEmpty()) { // a node's two disks: one full, one failed
      Path home = Path.of("/var/tmp/faultbed", ledger.owner());
      java.nio.file.Files.createDirectories(home);
      ledger.record(DirectoryHealer.entry(home, "cluster"));
      NodeDisk.make(ledger, home.resolve("disk-0.img"), home.resolve("disk-0"), 64L << 20).fill("probe", 0);
      NodeDisk.make(ledger, home.resolve("disk-1.img"), home.resolve("disk-1"), 64L << 20).fail("probe");
      if (NodeDisk.slowProblems().isEmpty()) { // and a third that limps
        NodeDisk.make(ledger, home.resolve("disk-2.img"), home.resolve("disk-2"), 64L << 20).slow("probe", 1L << 20);
      }
    }
    // a replica corrupted in place: only the ledger holds the bytes it had
    Path replica = Path.of(args[0] + ".replica");
    java.nio.file.Files.write(replica, new byte[4096]);
    FileCorruption.corrupt(ledger, "probe", replica, 2000, 64);
    System.out.println("READY " + ledger.owner() + " " + stalled.pid());
    System.out.flush();
    Thread.sleep(600_000);
  }
}
