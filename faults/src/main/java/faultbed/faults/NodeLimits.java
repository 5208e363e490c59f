package faultbed.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A slow node: CPU and block-I/O limits on its cgroup, as VM co-location slows a machine (seed 000,
 * Tables 2 and 4). CPU is a quota in cores (0.25 = a quarter of one core); disk is a
 * bytes-per-second throttle on the devices that hold the given folders.
 */
public final class NodeLimits {
  private NodeLimits() {}

  /**
   * @param cpuCores cores of CPU time per wall second, or null to leave CPU alone
   * @param readBytesPerSecond null to leave reads alone
   * @param writeBytesPerSecond null to leave writes alone
   */
  public static Installed apply(Cgroup node, Double cpuCores, Long readBytesPerSecond, Long writeBytesPerSecond,
      List<Path> dirs) {
    List<Installed> undo = new ArrayList<>();
    if (cpuCores != null) {
      if (cpuCores <= 0) {
        throw new IllegalArgumentException("cpu: expected a positive number of cores, got " + cpuCores);
      }
      long period = Long.parseLong(node.get("cpu", "cpu.cfs_period_us"));
      node.set("cpu", "cpu.cfs_quota_us", Long.toString(Math.max(1000, Math.round(cpuCores * period))));
      undo.add(() -> setQuietly(node, "cpu", "cpu.cfs_quota_us", "-1"));
    }
    Set<String> devices = (readBytesPerSecond != null || writeBytesPerSecond != null) ? devicesOf(dirs) : Set.of();
    // v1 throttles are not hierarchical: set them on every group of the node (new ones inherit them)
    for (String dev : devices) {
      if (readBytesPerSecond != null) {
        throttle(node, "blkio.throttle.read_bps_device", dev, readBytesPerSecond, undo);
      }
      if (writeBytesPerSecond != null) {
        throttle(node, "blkio.throttle.write_bps_device", dev, writeBytesPerSecond, undo);
      }
    }
    return Installed.all(undo);
  }

  /** major:minor of the whole disks under these folders (throttles apply to disks, not partitions). */
  static Set<String> devicesOf(List<Path> dirs) {
    Set<String> devices = new LinkedHashSet<>();
    for (Path d : dirs) {
      String majMin = Shell.check(List.of("findmnt", "-n", "-o", "MAJ:MIN", "--target", d.toString())).trim();
      Path sys = Path.of("/sys/dev/block", majMin);
      try {
        if (Files.exists(sys.resolve("partition"))) {
          majMin = Files.readString(sys.toRealPath().getParent().resolve("dev")).trim();
        }
      } catch (IOException e) {
        throw new IllegalStateException("cannot find the disk of " + d, e);
      }
      devices.add(majMin);
    }
    return devices;
  }

  private static void throttle(Cgroup node, String file, String dev, long bytesPerSecond, List<Installed> undo) {
    for (Cgroup g : node.subtree()) {
      g.set("blkio", file, dev + " " + bytesPerSecond);
    }
    undo.add(() -> node.subtree().forEach(g -> setQuietly(g, "blkio", file, dev + " 0")));
  }

  private static void setQuietly(Cgroup g, String controller, String file, String value) {
    if (g.exists()) {
      g.set(controller, file, value);
    }
  }
}
