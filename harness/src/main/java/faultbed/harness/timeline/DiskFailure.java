package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The node's disks of its own ({@code cluster.disks}) failed: each filesystem shut down, so every
 * read, write and open on it returns EIO, as a disk that stopped answering. What notices: a task
 * reading or writing there fails (its attempt FAILED, re-run elsewhere); the NodeManager's disk
 * checker, which writes and syncs a file in each dir every
 * {@code yarn.nodemanager.disk-health-checker.interval-ms}, marks the dirs failed and, with too few
 * left, reports the node unhealthy; the DataNode's volume checker fails the volume on the next I/O
 * error and, with more failed volumes than {@code dfs.datanode.failed.volumes.tolerated} (0), the
 * DataNode shuts itself down while the NodeManager runs on. The heal is a replaced disk: each image
 * checked and mounted again with what its log had committed; the NodeManager's checker finds its
 * dirs good again, a DataNode that failed a volume keeps it failed until restarted.
 */
public record DiskFailure(Target target, List<Integer> disks, Duration duration) implements DiskFault {
  public static final FaultKind KIND = FaultKind.kind("disk-failure", FaultEffect.NONE)
      .does("the node's disks failed: every I/O on them returns EIO", "the node's disks of its own (`cluster.disks`)"
          + " failed: each ext4 filesystem shut down, so every read, write and open returns EIO. Tasks there fail;"
          + " the NodeManager's disk checker marks its dirs failed (the node unhealthy when too few are left); the"
          + " DataNode fails the volume and, past `dfs.datanode.failed.volumes.tolerated` (0), shuts down. Healed as a"
          + " replaced disk: checked and mounted again. namespace backend")
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
  public Injection inject(Node node, FaultContext context) {
    Map<String, String> detail = new LinkedHashMap<>();
    List<Installed> made = new ArrayList<>();
    try {
      for (int i : chosen(node)) {
        made.add(node.disks().get(i).fail(context.runId()));
      }
    } catch (RuntimeException e) {
      Installed.all(made).heal();
      throw e;
    }
    detail.put("disksFailed", chosen(node).toString());
    return new Injection(detail, Installed.all(made));
  }
}
