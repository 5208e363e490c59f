package faultbed.harness.timeline;

import faultbed.faults.Capability;
import faultbed.faults.Installed;
import faultbed.faults.NodeDisk;
import faultbed.harness.ClusterSpec;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The node's disks of its own ({@code cluster.disks}) limping: every read and write of them, the
 * kernel's writeback of the page cache included, at {@code rate}, and the disk's share of dirty pages
 * capped at a second of it, so writers wait for the disk (a fail-slow disk, not a failed one). The
 * node stays up and healthy to every Hadoop check: the NodeManager's disk checker and the DataNode's
 * volume check only ask whether folders may be used. HDFS's own slow-disk detection
 * ({@code dfs.datanode.fileio.profiling.sampling.percentage}) compares a DataNode's disks with each
 * other, so it can name one slow disk among several, never a node whose disks are all slow.
 */
public record SlowDisk(Target target, List<Integer> disks, long bytesPerSecond, Duration duration)
    implements DiskFault {
  /** 1 MB/s: a disk at about 1 % of what a spinning disk streams. */
  public static final long DEFAULT_RATE = 1L << 20;

  public static final FaultKind KIND = FaultKind.kind("slow-disk", FaultEffect.SLOWS)
      .does("the node's disks limp: every read and write of them at `rate`", "the node's disks of its own"
          + " (`cluster.disks`) limping: each device throttled to `rate` for every reader and writer, the kernel's"
          + " writeback of the page cache included (cgroup v1's root blkio group), its dirty pages capped at a second"
          + " of that so writers wait for it, and its files' pages dropped from the cache at the start. Nothing in"
          + " YARN notices; HDFS's slow-disk report compares a DataNode's disks with each other. namespace backend,"
          + " cgroup v1 blkio")
      .param(FaultKind.Param.optional("disks", FaultKind.Form.INDICES, "`disks` (disk indices; all)")
          .noted("which of the node's disks, by index (default: all of them)"))
      .param(FaultKind.Param.optional("rate", FaultKind.Form.RATE, "`rate` (`\"1MB/s\"`)")
          .noted("bytes a second each disk reads and writes (default 1MB/s)"))
      .made((target, lasts, p) -> new SlowDisk(target, p.indices("disks").orElse(List.of()),
          p.rate("rate").orElse(DEFAULT_RATE), lasts),
          FaultKind.example("slow-disk", t -> new SlowDisk(t, List.of(), DEFAULT_RATE, null)));

  public SlowDisk {
    disks = List.copyOf(disks);
    if (bytesPerSecond < 1) {
      throw new IllegalArgumentException("rate: expected 1 byte a second or more, got " + bytesPerSecond);
    }
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  /** A node disk and the host's root blkio group, which throttles its writeback too. */
  @Override
  public Set<Capability> needs(ClusterSpec cluster) {
    Set<Capability> needs = java.util.EnumSet.noneOf(Capability.class);
    needs.addAll(DiskFault.super.needs(cluster));
    needs.add(Capability.SLOW_DISK);
    return needs;
  }

  @Override
  public Installed strike(NodeDisk disk, int index, FaultContext context, Map<String, String> detail) {
    NodeDisk.Slowed s = disk.slow(context.runId(), bytesPerSecond);
    detail.put("disk" + index + "Device", s.device());
    detail.put("disk" + index + "BytesPerSecond", Long.toString(bytesPerSecond));
    detail.put("disk" + index + "FilesEvicted", Integer.toString(s.filesEvicted()));
    return s.installed();
  }
}
