package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands that mount a host's cgroup hierarchies again in a node's fresh mount namespace. */
class CgroupRemountTest {
  @Test
  void aHybridHostsHierarchiesAreMountedAgainWithTheirControllers(@TempDir Path dir) throws Exception {
    Path mountinfo = dir.resolve("mountinfo");
    Files.writeString(mountinfo, String.join("\n",
        "23 1 0:21 / /sys rw,nosuid - sysfs sysfs rw",
        "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
        "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct",
        "40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd",
        "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw,nsdelegate",
        "42 31 0:39 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory",
        "") + "\n");
    assertEquals("{ mount -t tmpfs -o mode=755 tmpfs /sys/fs/cgroup; "
          + "mkdir -p '/sys/fs/cgroup/cpu,cpuacct' && mount -t cgroup -o cpu,cpuacct cgroup '/sys/fs/cgroup/cpu,cpuacct'; "
          + "mkdir -p '/sys/fs/cgroup/systemd' && mount -t cgroup -o xattr,name=systemd cgroup '/sys/fs/cgroup/systemd'; "
          + "mkdir -p '/sys/fs/cgroup/unified' && mount -t cgroup2 cgroup2 '/sys/fs/cgroup/unified'; } 2>/dev/null;",
        remountCommands(mountinfo), "a hierarchy mounted from below its root (memory) is left out");
  }

  @Test
  void nothingMountedNothingToDo(@TempDir Path dir) throws Exception {
    Path mountinfo = dir.resolve("mountinfo");
    Files.writeString(mountinfo, "23 1 0:21 / /sys rw,nosuid - sysfs sysfs rw\n");
    assertEquals("", remountCommands(mountinfo));
  }

  private static String remountCommands(Path mountinfo) {
    String before = System.getProperty("faultbed.mountinfo");
    System.setProperty("faultbed.mountinfo", mountinfo.toString());
    try {
      return CgroupLayout.remountCommands();
    } finally {
      if (before == null) {
        System.clearProperty("faultbed.mountinfo");
      } else {
        System.setProperty("faultbed.mountinfo", before);
      }
    }
  }
}
