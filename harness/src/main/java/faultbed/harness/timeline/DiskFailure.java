package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.faults.NodeDisk;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The node's disks of its own ({@code cluster.disks}) failed: each filesystem shut down, so every
 * read, write and open on it returns EIO, as a disk that stopped answering. A task reading or
 * writing there fails (its attempt FAILED, re-run elsewhere) and a container cannot be launched
 * there. Hadoop 3.4's own checkers do not notice: the NodeManager's default "basic" disk validator
 * and the DataNode's volume check ({@code DiskChecker.checkDir}) test that a folder exists and may be
 * read and written, which a failed disk's cached metadata still answers; so the node stays RUNNING,
 * its DataNode live, until the MR AM blacklists the node after
 * {@code mapreduce.job.maxtaskfailures.per.tracker} failures there and write pipelines go around it.
 * The heal is a replaced disk: each image checked and mounted again with what its log had committed.
 */
public record DiskFailure(Target target, List<Integer> disks, Duration duration) implements DiskFault {
  public static final FaultKind KIND = FaultKind.kind("disk-failure", FaultEffect.NONE)
      .does("the node's disks failed: every I/O on them returns EIO", "the node's disks of its own (`cluster.disks`)"
          + " failed: each ext4 filesystem shut down, so every read, write and open returns EIO. Tasks there fail and"
          + " containers cannot be launched there; Hadoop 3.4's disk checks (NodeManager and DataNode) test only that"
          + " folders exist and may be used, which cached metadata answers, so the node stays RUNNING until the MR AM"
          + " blacklists it after `mapreduce.job.maxtaskfailures.per.tracker` failures. Healed as a replaced disk:"
          + " checked and mounted again. namespace backend")
      .param(FaultKind.Param.optional("disks", FaultKind.Form.INDICES, "`disks` (disk indices; all)")
          .noted("which of the node's disks, by index (default: all of them)"))
      .made((target, lasts, p) -> new DiskFailure(target, p.indices("disks").orElse(List.of()), lasts),
          FaultKind.example("disk-failure", t -> new DiskFailure(t, List.of(), null)));

  public DiskFailure {
    disks = List.copyOf(disks);
  }

  /** Disks {@code disks} of the node failed (empty: all of them). */
  public static DiskFailure of(Target target, List<Integer> disks, Duration lasts) {
    return new DiskFailure(target, disks, lasts);
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public Installed strike(NodeDisk disk, int index, FaultContext context, Map<String, String> detail) {
    detail.put("disk" + index + "Failed", "true");
    return disk.fail(context.runId());
  }
}
