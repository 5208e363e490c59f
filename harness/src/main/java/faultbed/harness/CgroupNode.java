package faultbed.harness;

import faultbed.faults.Cgroup;
import faultbed.faults.Installed;
import faultbed.faults.Ledger;
import faultbed.faults.Load;
import faultbed.faults.NodeLimits;
import java.nio.file.Path;
import java.util.List;

/** A node whose processes live in a cgroup of the harness's: freezing, limits and load act on that group. */
public interface CgroupNode extends Node {
  /** The node's cgroup itself. */
  Cgroup group();

  /** A container the node holds to a CPU share: its quota and the CPU time it has used. */
  record ContainerCpu(int node, String container, double cores, long usageMicros) {}

  /**
   * The containers held to a CPU share on this node now, read from their groups below the node's in
   * cgroup v1's cpu and cpuacct hierarchies (see {@link faultbed.harness.daemons.StrictCpuExecutor}).
   */
  default List<ContainerCpu> containerCpu() {
    var layout = faultbed.faults.CgroupLayout.current();
    var cpu = layout.v1Root("cpu");
    if (cpu.isEmpty()) {
      return List.of();
    }
    Path acctRoot = layout.v1Root("cpuacct").orElse(cpu.get());
    Path node = cpu.get().resolve(group().path());
    List<ContainerCpu> out = new java.util.ArrayList<>();
    try (var groups = java.nio.file.Files.list(node)) {
      for (Path g : groups.filter(p -> p.getFileName().toString().startsWith("c-container_")).toList()) {
        try {
          String name = g.getFileName().toString();
          long quota = Long.parseLong(java.nio.file.Files.readString(g.resolve("cpu.cfs_quota_us")).trim());
          long period = Long.parseLong(java.nio.file.Files.readString(g.resolve("cpu.cfs_period_us")).trim());
          long usageNs = Long.parseLong(java.nio.file.Files.readString(
              acctRoot.resolve(group().path()).resolve(name).resolve("cpuacct.usage")).trim());
          if (quota > 0) {
            out.add(new ContainerCpu(index(), name.substring(2), (double) quota / period, usageNs / 1000));
          }
        } catch (java.io.IOException | NumberFormatException gone) {
          // the container ended between the listing and the reading
        }
      }
    } catch (java.io.IOException none) {
      return List.of();
    }
    return out;
  }

  @Override
  default String cgroup() {
    return group().path();
  }

  /** The group's processes as /proc shows them; none is a daemon of the node's own unless a backend says so. */
  @Override
  default List<Proc> processTable() {
    List<Proc> out = new java.util.ArrayList<>();
    for (long pid : group().pids()) {
      String command = commandLine(pid);
      if (command != null) {
        out.add(new Proc(pid, command, false));
      }
    }
    return out;
  }

  /** A process's command line on this machine, its arguments joined by spaces; null once it has ended. */
  static String commandLine(long pid) {
    try {
      byte[] raw = java.nio.file.Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
      return new String(raw, java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ').strip();
    } catch (java.io.IOException gone) {
      return null;
    }
  }

  @Override
  default Installed freeze() {
    Cgroup g = group();
    g.freeze();
    return () -> {
      if (g.exists()) {
        g.thaw();
      }
    };
  }

  @Override
  default Installed limit(Double cpuCores, Long readBytesPerSecond, Long writeBytesPerSecond) {
    return NodeLimits.apply(group(), cpuCores, readBytesPerSecond, writeBytesPerSecond, localFolders());
  }

  /** The group's limit: on mini it holds the node's containers alone, elsewhere its daemons too. */
  @Override
  default Installed limitMemory(long bytes) {
    Cgroup g = group();
    g.limitMemory(bytes);
    return () -> {
      if (g.exists()) {
        g.limitMemory(null);
      }
    };
  }

  @Override
  default long memoryUsage() {
    return group().memoryUsage();
  }

  @Override
  default Installed memoryHog(long bytes) {
    return Load.memoryHog(group(), bytes);
  }

  @Override
  default Installed cpuSpinners(int count) {
    return Load.cpuSpinners(group(), count);
  }

  @Override
  default Installed diskWriters(Ledger ledger, String runId, int count, long blockBytes, long fileBytes,
      boolean direct) {
    return Load.diskWriters(ledger, runId, group(), localFolders(), count, blockBytes, fileBytes, direct);
  }

  private List<Path> localFolders() {
    return localDirs().stream().map(Path::of).toList();
  }
}
