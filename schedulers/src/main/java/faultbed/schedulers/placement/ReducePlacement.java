package faultbed.schedulers.placement;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a reduce should run (Guo and Fox, CCGrid 2012, §III.D.2): on the node where it would finish
 * first, its shuffle and compute time plus the node's availability. A reduce cannot start until it
 * has fetched all its input, so its shuffle takes as long as its slowest source: the most of, over
 * the nodes holding map output, the bytes it fetches from that node over the link from there (none
 * from its own node).
 *
 * <p>The ApplicationMaster knows how much output each node's maps made, not how it splits between
 * reduces, so each reduce is taken to fetch an equal share of every node's output (a partitioner
 * that spreads keys evenly). Compute time is the node's compute time per byte (from its maps) times
 * the reduce's input, as for maps.
 */
public final class ReducePlacement {
  private ReducePlacement() {}

  /**
   * The shuffle time of a reduce on {@code node}: the slowest of its fetches.
   *
   * @param bytesFrom the bytes this reduce fetches from each node holding map output
   */
  public static double shuffleMs(Map<String, Long> bytesFrom, String node, Bandwidths bandwidths) {
    double slowest = 0;
    for (Map.Entry<String, Long> e : bytesFrom.entrySet()) {
      double rate = bandwidths.bytesPerSecond(e.getKey(), node);
      if (e.getValue() > 0 && !Double.isInfinite(rate) && !Double.isNaN(rate)) {
        slowest = Math.max(slowest, e.getValue() * 1000.0 / rate);
      }
    }
    return slowest;
  }

  /** Shuffle, compute and availability of a reduce on {@code node}. */
  public static double completionMs(Map<String, Long> bytesFrom, NodeView node, Bandwidths bandwidths,
      double meanComputeMsPerByte) {
    long input = bytesFrom.values().stream().mapToLong(Long::longValue).sum();
    double perByte = Double.isNaN(node.computeMsPerByte()) ? meanComputeMsPerByte : node.computeMsPerByte();
    return shuffleMs(bytesFrom, node.host(), bandwidths) + input * perByte + node.availableInMs();
  }

  /**
   * The reduce's preferred node among those taking work; ties go to the node holding most of its
   * input, then to host order.
   */
  public static Optional<NodeView> preferred(Map<String, Long> bytesFrom, List<NodeView> nodes, Bandwidths bandwidths) {
    double meanPerByte = nodes.stream().mapToDouble(NodeView::computeMsPerByte).filter(d -> !Double.isNaN(d))
        .average().orElse(0);
    Comparator<NodeView> order = Comparator.<NodeView>comparingDouble(
            n -> completionMs(bytesFrom, n, bandwidths, meanPerByte))
        .thenComparing(n -> -bytesFrom.getOrDefault(n.host(), 0L))
        .thenComparing(NodeView::host);
    return nodes.stream().filter(n -> !Double.isInfinite(n.availableInMs())).min(order);
  }
}
