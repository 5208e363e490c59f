package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.faults.NodeDisk;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The node's disks of its own ({@code cluster.disks}) filled until {@code free} bytes are left: a
 * file allocated on each (fallocate), so writes past it get ENOSPC. Hadoop's NodeManager marks a
 * local or log dir bad once its disk is fuller than
 * {@code yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage} (90) or has
 * less than {@code ...min-free-space-per-disk-mb} free, checked every
 * {@code yarn.nodemanager.disk-health-checker.interval-ms} (2 minutes); with fewer good dirs than
 * {@code ...min-healthy-disks} (a quarter) the node reports itself unhealthy and the ResourceManager
 * takes it out of scheduling, its containers with it. Tasks writing spills or map outputs there
 * fail meanwhile; the DataNode refuses new blocks on a volume without room.
 */
public record DiskFull(Target target, List<Integer> disks, long freeBytes, Duration duration) implements DiskFault {
  public static final FaultKind KIND = FaultKind.kind("disk-full", FaultEffect.NONE)
      .does("the node's disks filled: writes get ENOSPC, the disk checker marks them bad", "the node's disks of its own"
          + " (`cluster.disks`) filled until `free` bytes are left, by a file allocated on each: writes past it get"
          + " ENOSPC (spills and map outputs fail, the DataNode places no block there), and the NodeManager's disk"
          + " checker, every `yarn.nodemanager.disk-health-checker.interval-ms`, marks a dir bad above its utilisation"
          + " cut-off (90 %); with too few good dirs the node reports itself unhealthy and the ResourceManager stops"
          + " using it. namespace backend")
      .param(FaultKind.Param.optional("disks", FaultKind.Form.INDICES, "`disks` (disk indices; all)")
          .noted("which of the node's disks, by index (default: all of them)"))
      .param(FaultKind.Param.optional("free", FaultKind.Form.SIZE, "`free` (0)")
          .noted("bytes left free on each disk filled (default: none)"))
      .made((target, lasts, p) -> new DiskFull(target, p.indices("disks").orElse(List.of()),
          p.bytes("free").orElse(0L), lasts), FaultKind.example("disk-full", t -> new DiskFull(t, List.of(), 0, null)));

  public DiskFull {
    disks = List.copyOf(disks);
    if (freeBytes < 0) {
      throw new IllegalArgumentException("free: expected 0 bytes or more, got " + freeBytes);
    }
  }

  /** Every disk of the node filled until {@code freeBytes} are left. */
  public static DiskFull of(Target target, long freeBytes, Duration lasts) {
    return new DiskFull(target, List.of(), freeBytes, lasts);
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public Installed strike(NodeDisk disk, int index, FaultContext context, Map<String, String> detail) {
    NodeDisk.Filled f = disk.fill(context.runId(), freeBytes);
    detail.put("disk" + index + "FilledBytes", Long.toString(f.bytes()));
    return f.installed();
  }
}
