package faultbed.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Something of the host a fault kind may need. Each says, one line each, why this host lacks it and
 * how to get it, so the scenario check, {@code doctor} and the fault itself agree. Holding, killing
 * and freezing a node's processes needs nothing: cgroups where the host offers them, signals to the
 * process tree where it does not.
 */
public enum Capability {
  CPU_LIMIT("cpu limit", "a cgroup CPU controller (v2 cpu.max or v1 cpu)"),
  IO_LIMIT("disk throttle", "a cgroup I/O controller (v2 io.max or v1 blkio)"),
  MEMORY_LIMIT("memory limit", "a cgroup memory controller (v2 memory.max or v1 memory)"),
  IPTABLES("iptables", "iptables rules on loopback"),
  TC("tc", "tc classes on loopback"),
  NETEM("netem", "tc's netem queue on loopback"),
  NETNS("netns", "network namespaces and veth links"),
  NODE_DISK("node disks", "loop devices and ext4 (losetup, mkfs.ext4, e2fsck) for disks of a node's own"),
  SLOW_DISK("slow disks", "cgroup v1's root blkio group, which throttles a node's disk for the kernel's writeback too");

  private final String label;
  private final String what;

  Capability(String label, String what) {
    this.label = label;
    this.what = what;
  }

  public String label() {
    return label;
  }

  public String what() {
    return what;
  }

  /** Why this host lacks it, one line each with how to get it; empty when it has it. */
  public List<String> problems() {
    CgroupLayout cgroups = CgroupLayout.current();
    List<String> p = new ArrayList<>();
    switch (this) {
      case CPU_LIMIT -> {
        if (cgroups.cpu() == CgroupLayout.Mechanism.NONE) {
          p.addAll(cgroups.problems().stream().filter(s -> s.contains("CPU")).toList());
        }
      }
      case IO_LIMIT -> {
        if (cgroups.io() == CgroupLayout.Mechanism.NONE) {
          p.addAll(cgroups.problems().stream().filter(s -> s.contains("I/O")).toList());
        }
      }
      case MEMORY_LIMIT -> cgroups.memoryProblem().ifPresent(p::add);
      case IPTABLES -> {
        p.addAll(Iptables.problems());
        needRoot(p, "iptables rules");
      }
      case TC -> {
        p.addAll(TrafficControl.problems());
        needRoot(p, "tc classes");
      }
      case NETEM -> {
        p.addAll(TrafficControl.latencyProblems());
        needRoot(p, "tc's netem");
      }
      case NETNS -> {
        p.addAll(NodeNetwork.problems());
        needRoot(p, "network namespaces");
      }
      case NODE_DISK -> p.addAll(NodeDisk.problems());
      case SLOW_DISK -> p.addAll(NodeDisk.slowProblems());
      default -> throw new IllegalStateException(name());
    }
    return p;
  }

  private static void needRoot(List<String> p, String what) {
    if (p.isEmpty() && !isRoot()) {
      p.add(what + " need root (CAP_NET_ADMIN): run as root, e.g. with sudo");
    }
  }

  /** Whether this process runs as uid 0 (the user name can lie under sudo -E). */
  public static boolean isRoot() {
    try {
      return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return "root".equals(System.getProperty("user.name"));
    }
  }
}
