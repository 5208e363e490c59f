package faultbed.harness.timeline;

import faultbed.faults.PreconditionFailed;
import faultbed.harness.Backend;
import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The node cut off from some hosts and not others, by rules in its own network namespace: from the
 * master (ResourceManager, NameNode, history server) but not its peers, from some or all peers but
 * not the master, or both; in both directions or one. Groups are partitions of each member: nodes 0
 * and 1 each cut from workers [2, 3] split the cluster in two. One direction is one at the packet
 * level: TCP needs both ways, so no connection is made across it, and one already open stalls with
 * its data or its acknowledgements lost.
 */
public record Partition(Target target, From from, List<Integer> workers, Direction direction, Duration duration)
    implements Fault {
  /** Which hosts the node is cut from. */
  public enum From {
    MASTER, WORKERS, MASTER_AND_WORKERS;

    boolean master() {
      return this != WORKERS;
    }

    boolean peers() {
      return this != MASTER;
    }
  }

  /** Which of the node's packets are dropped: from those hosts (it can send but not hear), to them, or both. */
  public enum Direction {
    BOTH, INBOUND, OUTBOUND
  }

  public static final FaultKind KIND = FaultKind.kind("partition", FaultEffect.CUTS_OFF)
      .does("the node cut off from the master, some peers, or both; one way or both", "the node's TCP packets"
          + " from and to the hosts `from` names dropped by rules in its own namespace: `master` (ResourceManager,"
          + " NameNode, history server: heartbeats stop, peers still fetch), `workers` (its peers, or those"
          + " `workers` lists: fetches fail, the RM still hears it) or `master-and-workers`; `direction` `inbound`"
          + " (it sends but hears nothing back), `outbound` or `both`. Nodes need addresses of their own: not on"
          + " mini")
      .param(FaultKind.Param.requiredChoice("from", FaultKind.choices(From.class), "`from` (`master`, `workers`, `master-and-workers`)")
          .noted("which hosts the node is cut from"))
      .param(FaultKind.Param.optional("workers", FaultKind.Form.INDICES, "`workers` (node indices; all others)")
          .noted("the peers cut off, by index (default: every other node); with from workers or master-and-workers"))
      .param(FaultKind.Param.optionalChoice("direction", FaultKind.choices(Direction.class), "`direction` (`both`)")
          .noted("inbound: the node hears nothing from them; outbound: they hear nothing from it"))
      .made(Partition::of, FaultKind.example("partition", t -> new Partition(t, From.MASTER_AND_WORKERS, List.of(),
          Direction.BOTH, null)));

  public Partition {
    workers = List.copyOf(workers);
    if (from == null || direction == null) {
      throw new IllegalArgumentException("partition: expected from and direction");
    }
    if (!workers.isEmpty() && !from.peers()) {
      throw new IllegalArgumentException("workers: the node is cut from workers only with from \"workers\" or"
          + " \"master-and-workers\"");
    }
  }

  private static Partition of(Target target, Duration lasts, FaultParams p) {
    From from = FaultKind.chosen(From.class, p.choice("from", FaultKind.choices(From.class)).orElseThrow(() -> p.invalid("from", "one of "
        + String.join(", ", FaultKind.choices(From.class)))));
    List<Integer> workers = p.indices("workers").orElse(List.of());
    if (!workers.isEmpty() && !from.peers()) {
      throw p.invalid("workers", "no workers with from \"master\" (from \"workers\" or \"master-and-workers\" cuts them)");
    }
    Direction direction = p.choice("direction", FaultKind.choices(Direction.class)).map(d -> FaultKind.chosen(Direction.class, d)).orElse(Direction.BOTH);
    return new Partition(target, from, workers, direction, lasts);
  }

  /** The whole cluster's nodes, cut from the master one way or both. */
  public static Partition fromMaster(Target target, Direction direction, Duration lasts) {
    return new Partition(target, From.MASTER, List.of(), direction, lasts);
  }

  /** The node cut from {@code workers} (empty: every other node), not from the master. */
  public static Partition fromWorkers(Target target, List<Integer> workers, Direction direction, Duration lasts) {
    return new Partition(target, From.WORKERS, workers, direction, lasts);
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  /**
   * Cut from the master either way, the node is lost to the ResourceManager as a blackholed one is (a
   * heartbeat needs its answer); cut from peers only, it works on and heartbeats, and only its map
   * outputs and its fetches are out of reach.
   */
  @Override
  public FaultEffect effect() {
    return from.master() ? FaultEffect.CUTS_OFF : FaultEffect.NONE;
  }

  @Override
  public Duration duration() {
    return duration;
  }

  @Override
  public Set<faultbed.faults.Capability> needs(faultbed.harness.ClusterSpec cluster) {
    return cluster.network().isToxiproxy() ? Set.of() : cluster.backend().needs(Backend.Mechanism.PARTITION);
  }

  @Override
  public Optional<Unsupported> unsupported(faultbed.harness.ClusterSpec cluster) {
    Optional<Unsupported> kind = Fault.super.unsupported(cluster);
    if (kind.isPresent()) {
      return kind;
    }
    Optional<String> why = cluster.backend().refuses(Backend.Mechanism.PARTITION);
    if (why.isPresent()) {
      return Optional.of(new Unsupported("kind", why.get()));
    }
    if (cluster.network().isToxiproxy()) {
      return Optional.of(new Unsupported("kind", "a Toxiproxy network fronts a node's ports, not its address, so it"
          + " cannot cut a node from chosen hosts; use cluster.network \"kernel\" for a partition"));
    }
    return workers.stream().filter(w -> w >= cluster.nodes()).findFirst().map(w -> new Unsupported("workers",
        "expected node indices below the cluster's " + cluster.nodes() + " nodes, got " + w));
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    List<String> addresses = new ArrayList<>();
    Map<String, String> detail = new LinkedHashMap<>();
    detail.put("from", FaultKind.choice(from));
    if (node.address() == null) {
      throw new PreconditionFailed("partition of node " + node.index() + ": the node has no address of its own");
    }
    if (from.master()) {
      if (context.master() == null) {
        throw new PreconditionFailed("partition of node " + node.index() + " from the master: the cluster names no"
            + " master address apart from the nodes'");
      }
      addresses.add(context.master());
      detail.put("master", context.master());
    }
    if (from.peers()) {
      List<String> peers = new ArrayList<>();
      for (Node peer : context.nodes()) {
        if (peer.index() != node.index() && (workers.isEmpty() || workers.contains(peer.index()))
            && !addresses.contains(peer.address())) {
          peers.add(peer.address());
        }
      }
      if (peers.isEmpty()) {
        throw new PreconditionFailed("partition of node " + node.index() + ": no other worker among " + workers);
      }
      addresses.addAll(peers);
      detail.put("workers", String.join(",", peers));
    }
    detail.put("direction", FaultKind.choice(direction));
    detail.put("network", context.network(node).name());
    return new Injection(detail, context.network(node).cut(context.runId(), addresses,
        direction != Direction.OUTBOUND, direction != Direction.INBOUND));
  }
}
