package faultbed.schedulers.placement;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Guo and Fox's expected completion time of a map on a node (CCGrid 2012, §III.D, equations 3 to 6):
 * transfer DT = DS / BW(source, node), execution ET = PT + DT, completion CT = ET + AT, and a map's
 * preferred node the one with the least CT. The source is the replica nearest the node (the fastest
 * link to it), as an HDFS read goes to the closest replica.
 *
 * <p>PT, the compute time, is the map's input times the node's compute time per byte, or the mean
 * over the nodes that have one while the node has none; with none known it is 0 and placement
 * weighs transfer and availability alone, which is all the seed can know before a task ends.
 */
public final class CompletionTimes {
  private final List<NodeView> nodes;
  private final Bandwidths bandwidths;
  private final double meanComputeMsPerByte;

  public CompletionTimes(List<NodeView> nodes, Bandwidths bandwidths) {
    this.nodes = List.copyOf(nodes);
    this.bandwidths = bandwidths;
    this.meanComputeMsPerByte = nodes.stream().mapToDouble(NodeView::computeMsPerByte)
        .filter(d -> !Double.isNaN(d)).average().orElse(0);
  }

  public List<NodeView> nodes() {
    return nodes;
  }

  /** Equation 3: the input's transfer time to the node, from its nearest replica (0 when it is local). */
  public double transferMs(PendingMap map, NodeView node) {
    if (map.inputBytes() == 0) {
      return 0;
    }
    double best = map.replicaHosts().stream().mapToDouble(r -> bandwidths.bytesPerSecond(r, node.host()))
        .filter(r -> !Double.isNaN(r)).max().orElse(Double.NaN);
    if (Double.isNaN(best)) {
      // no replica named, or nothing measured: transfer cannot tell nodes apart
      return 0;
    }
    return Double.isInfinite(best) ? 0 : map.inputBytes() * 1000.0 / best;
  }

  /** The map's compute time on the node (the seed's PT). */
  public double computeMs(PendingMap map, NodeView node) {
    double perByte = Double.isNaN(node.computeMsPerByte()) ? meanComputeMsPerByte : node.computeMsPerByte();
    return map.inputBytes() * perByte;
  }

  /** Equation 4. */
  public double executionMs(PendingMap map, NodeView node) {
    return computeMs(map, node) + transferMs(map, node);
  }

  /** Equation 5, from now. */
  public double completionMs(PendingMap map, NodeView node) {
    return executionMs(map, node) + node.availableInMs();
  }

  /**
   * Equation 6: the node where the map would complete first; ties go to a node holding a replica,
   * then to the first in host order, so a decision does not depend on how the nodes were listed.
   */
  public Optional<NodeView> preferred(PendingMap map) {
    Comparator<NodeView> order = Comparator.<NodeView>comparingDouble(n -> completionMs(map, n))
        .thenComparing(n -> map.replicaHosts().contains(n.host()) ? 0 : 1)
        .thenComparing(NodeView::host);
    return nodes.stream().filter(n -> !Double.isInfinite(n.availableInMs())).min(order);
  }
}
