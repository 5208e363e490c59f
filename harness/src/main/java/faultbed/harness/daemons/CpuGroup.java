package faultbed.harness.daemons;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A container's group in cgroup v1's CPU hierarchies (cpu, and cpuacct where it is apart), below the
 * node's. Only there: in every other hierarchy the container stays in the node's group, so what
 * acts on the node (a freeze, a disk throttle, a kill) acts on it as before.
 *
 * @param dirs the group's folder in each hierarchy, the cpu one first
 */
record CpuGroup(List<Path> dirs) {
  static final String PERIOD = "cpu.cfs_period_us";
  static final String QUOTA = "cpu.cfs_quota_us";

  CpuGroup create() throws IOException {
    for (Path d : dirs) {
      Files.createDirectories(d);
    }
    return this;
  }

  boolean exists() {
    return Files.isDirectory(dirs.get(0));
  }

  void limit(double cores) throws IOException {
    Path cpu = dirs.get(0);
    long period = Long.parseLong(Files.readString(cpu.resolve(PERIOD)).trim());
    Files.writeString(cpu.resolve(QUOTA), Long.toString(Math.max(1000, Math.round(cores * period))));
  }

  /** A shell command that makes the shell running it ({@code $$}) a member of the group. */
  String joinCommand() {
    return String.join(" && ", dirs.stream().map(d -> "echo $$ > '" + d.resolve("cgroup.procs") + "'").toList());
  }

  /** Removed once its processes are gone; one that lingers goes with the node's group. */
  void destroy() {
    for (Path d : dirs) {
      try {
        Files.deleteIfExists(d);
      } catch (IOException busy) {
        // still in use: the node's group takes it when it goes
      }
    }
  }
}
