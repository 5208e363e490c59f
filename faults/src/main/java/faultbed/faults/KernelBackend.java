package faultbed.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Checks, before anything starts, that the OS mechanisms the kernel fault backend uses are here. */
public final class KernelBackend {
  private KernelBackend() {}

  /** Problems that stop the kernel backend, one line each with how to fix it; empty when all is well. */
  public static List<String> problems() {
    List<String> problems = new ArrayList<>();
    if (!"root".equals(System.getProperty("user.name"))) {
      problems.add("the kernel fault backend needs root (cgroups); run as root");
    }
    for (String c : Cgroup.CONTROLLERS) {
      Path d = Cgroup.defaultRoot().resolve(c);
      if (!Files.isDirectory(d) || !Files.exists(d.resolve("cgroup.procs"))) {
        problems.add("cgroup v1 controller '" + c + "' is not mounted at " + d
            + "; mount it (mount -t cgroup -o " + c + " cgroup " + d + ")");
      }
    }
    return problems;
  }

  /** Throws {@link PreconditionFailed} with the first problem, if any. */
  public static void require() {
    List<String> p = problems();
    if (!p.isEmpty()) {
      throw new PreconditionFailed(p.get(0));
    }
  }
}
