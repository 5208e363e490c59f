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
      node.limitCpu(cpuCores);
      undo.add(() -> whileExists(node, () -> node.limitCpu(null)));
    }
    if (readBytesPerSecond != null || writeBytesPerSecond != null) {
      for (String dev : devicesOf(dirs)) {
        node.throttleIo(dev, readBytesPerSecond, writeBytesPerSecond);
        undo.add(() -> whileExists(node, () -> node.throttleIo(dev, null, null)));
      }
    }
    return Installed.all(undo);
  }

  /**
   * major:minor of the whole disks that hold these folders (throttles apply to disks, not
   * partitions), found from each folder's mount: its device number, or for file systems that show
   * an anonymous one (btrfs), the device they were mounted from.
   */
  public static Set<String> devicesOf(List<Path> dirs) {
    Set<String> devices = new LinkedHashSet<>();
    for (Path d : dirs) {
      String[] mount = Shell.check(List.of("findmnt", "-n", "-o", "MAJ:MIN,FSTYPE,SOURCE", "--target", d.toString()))
          .trim().split("\\s+", 3);
      Path sys = Path.of("/sys/dev/block", mount[0]);
      try {
        if (!Files.exists(sys) && mount.length == 3 && mount[2].startsWith("/dev/")) {
          Path source = Path.of(mount[2].replaceFirst("\\[.*$", "")).toRealPath();
          sys = Path.of("/sys/class/block", source.getFileName().toString()).toRealPath();
        }
        if (!Files.exists(sys)) {
          throw new PreconditionFailed("disk throttle: " + d + " is on " + mount[1] + ", which has no disk to"
              + " throttle; put faultbed's working folder on a disk (faultbed.work.dir)");
        }
        Path disk = Files.exists(sys.resolve("partition")) ? sys.toRealPath().getParent() : sys;
        devices.add(Files.readString(disk.resolve("dev")).trim());
      } catch (IOException e) {
        throw new IllegalStateException("cannot find the disk of " + d, e);
      }
    }
    return devices;
  }

  private static void whileExists(Cgroup g, Runnable undo) {
    if (g.exists()) {
      undo.run();
    }
  }
}
