package faultbed.experiments.scenario;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this machine can hold, so a scenario asking for far more is refused before anything starts
 * rather than failing an hour in. Generous: the aim is to catch typos (100000 nodes, 999999TB), not
 * to predict performance.
 */
public final class HostLimits {
  /** A NodeManager's share plus one container JVM, as the mini and namespace backends size them. */
  static final long MB_PER_NODE = 512;

  private HostLimits() {}

  public static long memoryMb() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getTotalMemorySize() >> 20;
    }
    return Long.MAX_VALUE >> 20;
  }

  static long nodes() {
    return Math.max(1, memoryMb() / MB_PER_NODE);
  }

  /** A quarter of the free space where the nodes keep their data: the input, map outputs and output. */
  static long inputBytes() {
    Path work = Path.of(System.getProperty("faultbed.work.dir", "/var/tmp"));
    while (work != null && !Files.exists(work)) {
      work = work.getParent();
    }
    try {
      return Files.getFileStore(work == null ? Path.of(".") : work).getUsableSpace() / 4;
    } catch (IOException e) {
      return Long.MAX_VALUE;
    }
  }
}
