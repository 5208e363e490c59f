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
