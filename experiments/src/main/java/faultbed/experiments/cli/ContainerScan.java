package faultbed.experiments.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Finds Hadoop container JVMs (task or AM) that are not in a faultbed cgroup, for the doctor's report. */
final class ContainerScan {
  private ContainerScan() {}

  static List<String> foreign() {
    List<String> out = new ArrayList<>();
    ProcessHandle.allProcesses().forEach(p -> {
      String cmd = p.info().commandLine().orElse("");
      if (!cmd.contains("org.apache.hadoop.mapred.YarnChild") && !cmd.contains("MRAppMaster")) {
        return;
      }
      try {
        String cgroups = Files.readString(Path.of("/proc", Long.toString(p.pid()), "cgroup"));
        if (!cgroups.contains("/faultbed/")) {
          out.add(p.pid() + " " + (cmd.length() > 100 ? cmd.substring(cmd.length() - 100) : cmd));
        }
      } catch (IOException gone) {
        // exited meanwhile
      }
    });
    return out;
  }
}
