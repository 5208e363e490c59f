package faultbed.harness;

import faultbed.faults.Capability;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A node backend, described once: its name, what it needs of this host, which fault mechanisms it
 * has and what each needs of the host, and how it starts a cluster. The scenario reader, the
 * precondition check of {@code run} and {@code validate}, {@code doctor}'s table, the JUnit
 * extension and the CLI all ask it; nothing outside a backend's package asks which backend it is.
 * A backend is one package with one of these, registered in
 * {@code META-INF/services/faultbed.harness.Backend} (see {@link Backends}).
 */
public abstract class Backend {
  private final String name;
  private final String summary;

  /**
   * @param name the name scenario files ({@code cluster.backend}) and records use, e.g. "mini"
   * @param summary what it is, in a few words, for {@code doctor} and the docs
   */
  protected Backend(String name, String summary) {
    this.name = name;
    this.summary = summary;
  }

  public final String name() {
    return name;
  }

  public final String summary() {
    return summary;
  }

  @Override
  public String toString() {
    return name;
  }

  /**
   * What this host lacks to start a cluster of {@code spec} on this backend (its network backend
   * included), one line each naming what is missing and how to get it; empty when it can start.
   * The one check every entry point makes before anything starts.
   */
  public abstract List<String> problems(ClusterSpec spec);

  /**
   * What this host must offer, in a few words, for a cluster on {@code network} ("a Docker engine"),
   * beyond what the kernel network needs when {@code network} is Toxiproxy: {@code doctor}'s
   * table says "no: needs" and this where {@link #problems} is not empty.
   */
  public abstract String requires(NetworkBackend network);

  /**
   * What of this host a fault made by {@code mechanism} needs on this backend's nodes, where the
   * kernel network makes network faults; empty where the backend makes it otherwise (through
   * Docker, by pulling a node's link) or on hosts it checks itself.
   */
  public abstract Set<Capability> needs(Mechanism mechanism);

  /** Why this backend cannot make faults by {@code mechanism} at all, whatever the host has; empty when it can. */
  public Optional<String> refuses(Mechanism mechanism) {
    return Optional.empty();
  }

  /** Why this backend makes no fault of {@code kind}, whatever the host has; empty when it makes it. */
  public Optional<String> refusesKind(String kind) {
    return Optional.empty();
  }

  /**
   * Why {@code network} cannot front this backend's nodes, naming the field; empty when it can. A
   * Toxiproxy server of the user's fronts only nodes that share this host's loopback.
   */
  public Optional<String> refusesNetwork(NetworkBackend network) {
    return network.toxiproxyUrl() == null ? Optional.empty() : Optional.of("the " + name() + " backend runs"
        + " a Toxiproxy server inside each node's network, its proxies on the node's address, so a server of yours"
        + " cannot front them; expected \"toxiproxy\" without an address, got " + network.toxiproxyUrl());
  }

  /**
   * Whether the backend works on a YARN cluster that is already up (described by an
   * {@link Inventory}) rather than starting its own: {@code cluster up} refuses it, and
   * {@code doctor}'s table leaves it out, since its hosts are checked when it connects.
   */
  public boolean usesExistingCluster() {
    return false;
  }

  /**
   * Why this backend cannot run {@code workload} under {@code timeline} with {@code speculation} on a
   * cluster of {@code spec}, naming the scenario field (relative to the variant); empty when it can.
   * Checked with the scenario, before anything starts.
   */
  public Optional<faultbed.harness.timeline.Fault.Unsupported> refusesRun(ClusterSpec spec,
      faultbed.harness.workload.Workload workload, faultbed.harness.timeline.Timeline timeline, Speculation speculation) {
    return Optional.empty();
  }

  /**
   * Why this backend cannot hold a job's maps to a CPU share of their own (scenario {@code stealing}):
   * that takes a NodeManager of faultbed's whose node is in a cgroup of faultbed's, with cgroup v1's
   * cpu controller to give each container a quota below it. Empty when it can.
   */
  public Optional<String> refusesStealing() {
    return Optional.of("expected off on the " + name() + " backend: holding containers to a CPU share needs"
        + " NodeManagers of faultbed's in cgroups of their own (the namespace backend)");
  }

  /**
   * Why this backend cannot place maps by a network-aware policy (scenario {@code placement}): that
   * takes every NodeManager running faultbed's bandwidth probe on an address of its own, which
   * faultbed's process nodes do. Empty when it can.
   */
  public Optional<String> refusesPlacement() {
    return Optional.of("expected stock on the " + name() + " backend: network-aware placement needs NodeManagers"
        + " of faultbed's, each on an address of its own with a bandwidth probe (the namespace or containers backend)");
  }

  /**
   * Why this backend cannot pin parts of a job to nodes of faultbed's choosing ({@code cluster.pin},
   * done with node labels on a ResourceManager faultbed starts); empty when it can.
   */
  public Optional<String> refusesPinning() {
    return Optional.empty();
  }

  /**
   * Whether the cluster's nodes and their data live on this machine, so that its memory bounds how
   * many nodes a scenario may ask for and its free disk how much input; a simulated cluster is not.
   */
  public boolean boundedByThisHost() {
    return true;
  }

  /**
   * Whether the cluster has real daemons a stock Hadoop client can submit to ({@code cluster up}
   * serves them); a simulated cluster has none.
   */
  public boolean runsDaemons() {
    return true;
  }

  /** Heals what dead harnesses left, then starts a cluster of {@code spec}; each step goes to {@code log}. */
  public abstract Cluster start(ClusterSpec spec, Consumer<String> log);

  /**
   * What starting a cluster of {@code spec} and making each of {@code faults} on every node would
   * run, by host, changing nothing; only backends whose hosts are not the user's offer it.
   */
  public java.util.Map<String, List<String>> dryRun(ClusterSpec spec, List<faultbed.harness.timeline.Fault> faults,
      Consumer<String> log) {
    throw new UnsupportedOperationException("the " + name() + " backend has no dry run");
  }

  /**
   * How a fault acts on a node, in terms a backend maps to what it needs of the host: the same
   * fault is an iptables rule on loopback for one backend and a pulled link or a Docker setting for
   * another.
   */
  public enum Mechanism {
    /** All of a node's traffic dropped (a blackhole, a crash whose RSTs are suppressed). */
    SILENCE(Capability.IPTABLES),
    /** A live node's RSTs dropped on its ports. */
    DROP_RST(Capability.IPTABLES),
    /** A node's ports capped to a bandwidth. */
    SHAPE(Capability.TC),
    /** A node's packets delayed. */
    DELAY(Capability.NETEM),
    /** A share of a node's delayed packets sent at once, overtaking others (netem's reorder). */
    REORDER(Capability.NETEM),
    /** A share of a node's packets dropped at random (iptables' statistic match). */
    LOSE(Capability.IPTABLES),
    /** A share of the packets a node sends sent twice (iptables' TEE): needs a link of the node's own. */
    DUPLICATE(Capability.IPTABLES),
    /** A node's packets from and to chosen hosts dropped: needs nodes at addresses of their own. */
    PARTITION(Capability.IPTABLES),
    /** A node's CPU limited. */
    CPU_LIMIT(Capability.CPU_LIMIT),
    /** A node's disk reads or writes throttled. */
    IO_LIMIT(Capability.IO_LIMIT),
    /** A node's memory limited. */
    MEMORY_LIMIT(Capability.MEMORY_LIMIT),
    /**
     * A node's own daemon process acted on apart from its containers (its NodeManager paused):
     * signals, which need nothing, but a process of the node's own.
     */
    NODE_DAEMON(),
    /** A node's own disks ({@code cluster.disks}) filled or failed: loop devices and ext4 on this host. */
    NODE_DISK(Capability.NODE_DISK),
    /** A node's DataNode block files changed in place: they must be on this host, where faultbed reaches them. */
    REPLICA_FILES(),
    /** A node's own wall clock ({@code cluster.clocks}) jumped or drifting: an agent in each of its JVMs, nothing of the host. */
    NODE_CLOCK();

    private final Set<Capability> kernel;

    Mechanism(Capability... kernel) {
      this.kernel = Set.of(kernel);
    }

    /** What it needs of this host made the plain way: by the kernel, on the node's ports or cgroup. */
    public Set<Capability> byKernel() {
      return kernel;
    }
  }
}
