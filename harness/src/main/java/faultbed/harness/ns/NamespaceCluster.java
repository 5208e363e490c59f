package faultbed.harness.ns;

import faultbed.faults.Capability;
import faultbed.faults.Cgroup;
import faultbed.faults.CgroupLayout;
import faultbed.faults.Ledger;
import faultbed.faults.LedgerEntry;
import faultbed.faults.NetworkFaults;
import faultbed.faults.NodeNetwork;
import faultbed.faults.PreconditionFailed;
import faultbed.faults.ToxiproxyServer;
import faultbed.harness.ClusterSpec;
import faultbed.harness.daemons.HarnessDaemons;
import faultbed.harness.daemons.ProcessNodeCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The namespace backend: every worker node a process tree of its own (a DataNode and a
 * NodeManager in one JVM, its containers as children) in its own network namespace, address and
 * cgroup, on a bridge of the harness's own (see {@link NodeNetwork}). The NameNode,
 * ResourceManager and JobHistory server run in the harness JVM, bound to the bridge address. A
 * node dies, stalls and drops off the network the way a machine does: a crash kills its whole
 * process tree, a whole-node failure pulls its link, a freeze stops its NodeManager too.
 */
public final class NamespaceCluster extends ProcessNodeCluster<NamespaceNode.Held, NamespaceNode> {
  private final NodeNetwork network;

  private NamespaceCluster(ClusterSpec spec, Ledger ledger, Path workDir, NodeNetwork network) throws IOException {
    super(spec, ledger, workDir, network.hostAddress());
    this.network = network;
    startNodes(i -> new NamespaceNode(i, network, network.add(i), daemons.trackerPort()));
  }

  /**
   * Starts a cluster. Before anything else it heals what dead faultbed processes left on this
   * machine (node processes, namespaces, links, cgroups, folders) and reports each item to
   * {@code log}. {@link faultbed.harness.Clusters#start} has checked what it needs of the host.
   */
  static NamespaceCluster start(ClusterSpec spec, Consumer<String> log) {
    return start("namespace", log, (ledger, work) -> {
      ledger.record(LedgerEntry.cgroup(Cgroup.of(ledger.owner()).create(), "cluster"));
      return new NamespaceCluster(spec, ledger, work, NodeNetwork.create(ledger));
    }, NamespaceCluster::killNodes);
  }

  /** Node processes started before a failed start: ledger.close() heals their cgroups and namespaces. */
  private static void killNodes(Ledger ledger) {
    Cgroup.of(ledger.owner()).killAll(Duration.ofSeconds(10));
  }

  /**
   * In the node's namespace and a fresh cgroup, the host's cgroup hierarchies mounted again in the
   * mount namespace {@code ip netns exec} gives it, so the node sees its cgroups as a machine does
   * (its executor holds containers to their CPU share there).
   */
  @Override
  protected NamespaceNode.Held startProcess(NamespaceNode node, Path dir) throws IOException {
    Cgroup group = Cgroup.of(ledger.owner() + "/node-" + node.index() + "-" + dir.getFileName()).create();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new java.util.ArrayList<>(List.of("sh", "-c",
        faultbed.faults.CgroupLayout.remountCommands() + " exec \"$@\"", "faultbed-node"));
    command.addAll(HarnessDaemons.nodeCommand(java, dir, node.ownClock()));
    return new NamespaceNode.Held(group, group.spawn(NodeNetwork.inside(node.namespace(), command)));
  }

  @Override
  protected boolean alive(NamespaceNode node, NamespaceNode.Held process) {
    return process.process().isAlive();
  }

  @Override
  protected String exit(NamespaceNode node, NamespaceNode.Held process) {
    return " with " + process.process().exitValue();
  }

  /** Its cgroup emptied, its link plugged back in. */
  @Override
  protected void bringDown(NamespaceNode node) {
    node.group().killAll(Duration.ofSeconds(10));
    network.plug(node.namespace());
  }

  public NodeNetwork network() {
    return network;
  }

  /** In the node's namespace, in a cgroup of its own beside the node's (a crash of the node leaves it be). */
  @Override
  protected ToxiproxyServer startToxiproxy(NamespaceNode node) throws IOException {
    Cgroup group = Cgroup.of(ledger.owner() + "/toxiproxy-" + node.index()).create();
    return ToxiproxyServer.inNamespace(node.namespace(), group, workDir.resolve("toxiproxy-" + node.index() + ".log"));
  }

  @Override
  protected NetworkFaults linkFaults(NamespaceNode node) {
    return network.faults(node.namespace());
  }

  @Override
  protected String backendName() {
    return "namespace";
  }

  /** Every process of the node's cgroup but the node process itself. */
  @Override
  protected void clearContainers(NamespaceNode node) {
    long self = node.pid();
    for (long p : node.group().pids()) {
      if (p != self) {
        ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  @Override
  protected boolean idle(NamespaceNode node) {
    return node.processes().equals(Set.of(node.pid()));
  }

  /** Every node process killed at once (nothing of a run survives), then the daemons. */
  @Override
  protected void stopNodes() {
    try {
      killNodes(ledger);
      daemons.stop();
    } finally {
      network.close();
    }
  }
}
