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
