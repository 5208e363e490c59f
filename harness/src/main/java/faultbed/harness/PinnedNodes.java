package faultbed.harness;

import faultbed.results.RunRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.yarn.api.records.NodeId;

/**
 * One run's pinned nodes (see {@link Pin}): chosen from the run's seed among the nodes up when it
 * starts, so that every variant of a block places its AM and reduces alike, and labelled on the
 * ResourceManager until the next run chooses again. The labels are non-exclusive: maps still run
 * on pinned nodes, once the scheduler has offered them the unlabelled nodes (Hadoop's
 * CapacityScheduler waits for as many missed offers as the cluster has nodes, about a heartbeat).
 * A YARN node carries one label, so the AM's node and the reduces' nodes differ. When a fault stops
 * a pinned node, its part moves to the next unpinned node in the seeded order, so a second AM
 * attempt or a reduce run again has somewhere to go; the move is in the record.
 */
public final class PinnedNodes {
  /** A run that pins nothing: the ResourceManager places everything. */
  public static final PinnedNodes NONE = new PinnedNodes();

  private final ResourceManagerView rm;
  private final Map<Integer, String> nodeIds;
  private final Map<Pin, List<Integer>> placed = new EnumMap<>(Pin.class);
  private final Deque<Integer> spare = new ArrayDeque<>();
  private final List<RunRecord.Placement.Move> moves = new ArrayList<>();
  private RunRecord.Placement chosen;

  private PinnedNodes() {
    this.rm = null;
    this.nodeIds = Map.of();
  }

  private PinnedNodes(ResourceManagerView rm, Map<Integer, String> nodeIds) {
    this.rm = rm;
    this.nodeIds = nodeIds;
  }

  /**
   * Chooses and labels the nodes of {@code parts} for a job of {@code reduces} reduces, on nodes of
   * {@code slotsPerNode} containers: the AM on one node, the reduces on as few others as hold them
   * at once.
   */
  public static PinnedNodes choose(java.util.Set<Pin> parts, int slotsPerNode, List<? extends Node> nodes,
      ResourceManagerView rm, long seed, int reduces) {
    if (parts.isEmpty()) {
      return NONE;
    }
    Map<Integer, String> ids = new LinkedHashMap<>();
    List<Integer> order = new ArrayList<>();
    for (Node n : nodes) {
      if (n.isUp()) {
        ids.put(n.index(), n.nodeId());
        order.add(n.index());
      }
    }
    // a stream of its own, so that pinning draws nothing from the stream faults are placed with
    Collections.shuffle(order, new Random(seed ^ 0x70696e6e6564L));
    PinnedNodes p = new PinnedNodes(rm, ids);
    int next = 0;
    if (parts.contains(Pin.AM) && next < order.size()) {
      p.placed.put(Pin.AM, new ArrayList<>(List.of(order.get(next++))));
    }
    if (parts.contains(Pin.REDUCES) && reduces > 0) {
      int wanted = Math.min(order.size() - next, (reduces + slotsPerNode - 1) / slotsPerNode);
      p.placed.put(Pin.REDUCES, new ArrayList<>(order.subList(next, next + wanted)));
      next += wanted;
    }
    p.spare.addAll(order.subList(next, order.size()));
    List<Integer> am = p.placed.get(Pin.AM);
    p.chosen = new RunRecord.Placement(am == null ? null : am.get(0), p.placed.getOrDefault(Pin.REDUCES, List.of()),
        List.of());
    p.label();
    return p;
  }

  /** The job settings that ask for the pinned nodes' labels. */
  public Map<String, String> jobSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    placed.keySet().forEach(pin -> s.put(pin.jobSetting(), pin.label()));
    return s;
  }

  /** Whether {@code part} is pinned to {@code node} now: the node will run it even before it does. */
  public synchronized boolean holds(Pin part, int node) {
    return placed.getOrDefault(part, List.of()).contains(node);
  }

  /** A fault stopped {@code node} {@code atMs} into the run: a part pinned there moves to the next spare node. */
  public synchronized void stopped(int node, long atMs) {
    boolean moved = false;
    for (var e : placed.entrySet()) {
      int at = e.getValue().indexOf(node);
      if (at < 0) {
        continue;
      }
      Integer to = spare.pollFirst();
      if (to == null) {
        e.getValue().remove(at);
      } else {
        e.getValue().set(at, to);
      }
      moves.add(new RunRecord.Placement.Move(e.getKey().scenarioName(), node, to, atMs));
      moved = true;
    }
    spare.remove(node);
    if (moved) {
      label();
    }
  }

  /** Where the parts were pinned when the run began, and every move since; null when nothing was. */
  public synchronized RunRecord.Placement placement() {
    return chosen == null ? null : new RunRecord.Placement(chosen.applicationMaster(), chosen.reduces(), moves);
  }

  private void label() {
    Map<NodeId, String> labels = new LinkedHashMap<>();
    placed.forEach((pin, on) -> on.forEach(i -> labels.put(NodeId.fromString(nodeIds.get(i)), pin.label())));
    rm.labelNodes(labels);
  }
}
