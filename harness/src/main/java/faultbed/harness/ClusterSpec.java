package faultbed.harness;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The shape of a cluster: how many worker nodes, what each offers, and the Hadoop settings that
 * differ from faultbed's defaults. Immutable; {@code withX} returns a changed copy. On a backend
 * that works on a cluster already up, the inventory names the cluster and its workers are the nodes.
 */
public record ClusterSpec(int nodes, int nodeMemoryMb, int nodeVcores, int containerMemoryMb,
    Map<String, String> hadoop, double timeScale, NetworkBackend network, Backend backend, Inventory inventory,
    Disks disks, boolean clocks) {

  public static final int DEFAULT_NODES = 4;

  public ClusterSpec {
    if (nodes < 1) {
      throw new IllegalArgumentException("cluster.nodes: expected at least 1, got " + nodes);
    }
    if (containerMemoryMb > nodeMemoryMb) {
      throw new IllegalArgumentException("cluster.containerMemoryMb: expected at most nodeMemoryMb ("
          + nodeMemoryMb + "), got " + containerMemoryMb);
    }
    if (!(timeScale > 0 && timeScale <= 1)) {
      throw new IllegalArgumentException("cluster.timeScale: expected a number in (0, 1], got " + timeScale);
    }
    hadoop = Map.copyOf(hadoop == null ? Map.of() : hadoop);
    if (disks != null && disks.count() == 0) {
      disks = null;
    }
    network = network == null ? NetworkBackend.KERNEL : network;
    backend = backend == null ? Backends.standard() : backend;
    if (!backend.usesExistingCluster()) {
      inventory = null; // only a backend on a cluster already up reads one
    } else if (inventory != null) {
      nodes = inventory.workers().size();
    }
  }

  public ClusterSpec(int nodes, int nodeMemoryMb, int nodeVcores, int containerMemoryMb, Map<String, String> hadoop) {
    this(nodes, nodeMemoryMb, nodeVcores, containerMemoryMb, hadoop, 1.0, NetworkBackend.KERNEL, null, null, null, false);
  }

  /** Where network faults are made; see {@link NetworkBackend}. */
  public ClusterSpec withNetwork(NetworkBackend net) {
    return new ClusterSpec(nodes, nodeMemoryMb, nodeVcores, containerMemoryMb, hadoop, timeScale, net, backend, inventory, disks, clocks);
  }

  /** Where the nodes run; see {@link Backend}. */
  public ClusterSpec withBackend(Backend b) {
    return new ClusterSpec(nodes, nodeMemoryMb, nodeVcores, containerMemoryMb, hadoop, timeScale, network, b, inventory, disks, clocks);
  }

  /**
   * A cluster faultbed did not start, as {@code inventory} describes it: its workers are the
   * cluster's nodes, however many the spec said.
   */
  public ClusterSpec withInventory(Inventory inv) {
    return new ClusterSpec(nodes, nodeMemoryMb, nodeVcores, containerMemoryMb, hadoop, timeScale, network,
        Backends.forInventory(), inv, disks, clocks);
  }

  /** Containers one node runs at once. */
  public int slotsPerNode() {
    return Math.max(1, Math.min(nodeVcores, nodeMemoryMb / containerMemoryMb));
  }

  /** Containers the whole cluster runs at once. */
  public int slots() {
    return nodes * slotsPerNode();
  }

  /**
   * Multiplies the time constants of speculation policies (and of Hadoop's speculator intervals),
   * so a job of tens of seconds sees the seeds' minute-scale rules in proportion.
   */
  public ClusterSpec withTimeScale(double scale) {
    return new ClusterSpec(nodes, nodeMemoryMb, nodeVcores, containerMemoryMb, hadoop, scale, network, backend, inventory, disks, clocks);
  }

  /**
   * Four nodes of two 512 MB containers each: eight container JVMs in all, the most two cores
   * carry without the cluster itself becoming the fault.
   */
  public static ClusterSpec defaults() {
    return new ClusterSpec(DEFAULT_NODES, 1024, 2, 512, Map.of());
  }

  public static ClusterSpec nodes(int n) {
    return defaults().withNodes(n);
  }

  public ClusterSpec withNodes(int n) {
    return new ClusterSpec(n, nodeMemoryMb, nodeVcores, containerMemoryMb, hadoop, timeScale, network, backend, inventory, disks, clocks);
  }

  public ClusterSpec withNodeMemoryMb(int mb) {
    return new ClusterSpec(nodes, mb, nodeVcores, containerMemoryMb, hadoop, timeScale, network, backend, inventory, disks, clocks);
  }

  public ClusterSpec withNodeVcores(int v) {
    return new ClusterSpec(nodes, nodeMemoryMb, v, containerMemoryMb, hadoop, timeScale, network, backend, inventory, disks, clocks);
  }

  public ClusterSpec withContainerMemoryMb(int mb) {
    return new ClusterSpec(nodes, nodeMemoryMb, nodeVcores, mb, hadoop, timeScale, network, backend, inventory, disks, clocks);
  }

  public ClusterSpec withHadoop(String key, String value) {
    Map<String, String> h = new LinkedHashMap<>(hadoop);
    h.put(key, value);
    return new ClusterSpec(nodes, nodeMemoryMb, nodeVcores, containerMemoryMb, h, timeScale, network, backend, inventory, disks, clocks);
  }

  public ClusterSpec withHadoop(Map<String, String> settings) {
    Map<String, String> h = new LinkedHashMap<>(hadoop);
    h.putAll(settings);
    return new ClusterSpec(nodes, nodeMemoryMb, nodeVcores, containerMemoryMb, h, timeScale, network, backend, inventory, disks, clocks);
  }

  /**
   * Each node with {@code d.count()} disks of its own, each holding one of its NodeManager's local
   * dirs, one of its log dirs and one DataNode volume, as on a machine with that many disks: what
   * disk faults fill and fail. Without them a node's dirs are folders of the machine's own disk.
   */
  public ClusterSpec withDisks(Disks d) {
    return new ClusterSpec(nodes, nodeMemoryMb, nodeVcores, containerMemoryMb, hadoop, timeScale, network, backend,
        inventory, d, clocks);
  }

  /**
   * Each node with a wall clock of its own (faultbed's clock agent in its JVMs), which clock
   * faults jump or make drift; without it every node reads the machine's clock.
   */
  public ClusterSpec withClocks(boolean own) {
    return new ClusterSpec(nodes, nodeMemoryMb, nodeVcores, containerMemoryMb, hadoop, timeScale, network, backend,
        inventory, disks, own);
  }

  /** A node's disks: how many, and how large each (a sparse image: only what is written takes room). */
  public record Disks(int count, long bytes) {
    public static final long DEFAULT_BYTES = 4L << 30;
    public static final int MOST = 4;

    public Disks {
      if (count < 0 || count > MOST) {
        throw new IllegalArgumentException("cluster.disks: expected 0 to " + MOST + " disks per node, got " + count);
      }
      if (bytes < 256L << 20) {
        throw new IllegalArgumentException("cluster.diskSize: expected at least 256MB per disk, got " + bytes + " bytes");
      }
    }

    public static Disks of(int count) {
      return new Disks(count, DEFAULT_BYTES);
    }
  }
}
