package faultbed.harness.ns;

import faultbed.faults.Capability;
import faultbed.faults.Cgroup;
import faultbed.faults.CgroupLayout;
import faultbed.faults.Ledger;
import faultbed.faults.LedgerEntry;
import faultbed.faults.NodeNetwork;
import faultbed.faults.PreconditionFailed;
import faultbed.harness.AbstractCluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.HarnessException;
import faultbed.harness.daemons.HarnessDaemons;
import faultbed.harness.ns.NamespaceNode.Generation;
import faultbed.harness.timeline.FaultContext;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;

/**
 * The namespace backend: every worker node a process tree of its own (a DataNode and a
 * NodeManager in one JVM, its containers as children) in its own network namespace, address and
 * cgroup, on a bridge of the harness's own (see {@link NodeNetwork}). The NameNode,
 * ResourceManager and JobHistory server run in the harness JVM, bound to the bridge address. A
 * node dies, stalls and drops off the network the way a machine does: a crash kills its whole
 * process tree, a whole-node failure pulls its link, a freeze stops its NodeManager too.
 */
public final class NamespaceCluster extends AbstractCluster<NamespaceNode> {
  private final NodeNetwork network;
  private final HarnessDaemons daemons;
  private final List<NamespaceNode> nodes = new ArrayList<>();

  private NamespaceCluster(ClusterSpec spec, Ledger ledger, Path workDir, NodeNetwork network) throws IOException {
    super(spec, ledger, workDir);
    this.network = network;
    daemons = new HarnessDaemons(spec, workDir, network.hostAddress());
    resourceManagerUp(daemons.resourceManager());
    List<NamespaceNode> starting = new ArrayList<>();
    for (int i = 0; i < spec.nodes(); i++) {
      NamespaceNode node = new NamespaceNode(i, network, network.add(i), daemons.trackerPort());
      node.begin(launch(node, 0));
      starting.add(node);
    }
    for (NamespaceNode node : starting) {
      awaitServing(node);
      nodes.add(node);
    }
  }

  /**
   * Starts a cluster. Before anything else it heals what dead faultbed processes left on this
   * machine (node processes, namespaces, links, cgroups, folders) and reports each item to
   * {@code log}.
   */
  public static NamespaceCluster start(ClusterSpec spec, Consumer<String> log) {
    List<String> problems = new ArrayList<>(Capability.NETNS.problems());
    problems.addAll(Capability.IPTABLES.problems()); // heartbeat pauses and RST rules live in the node's namespace
    if (CgroupLayout.current().tasks() == CgroupLayout.Mechanism.SIGNALS) {
      problems.add("the namespace backend holds each node in a cgroup: " + CgroupLayout.current().problems().get(0));
    }
    if (!problems.isEmpty()) {
      throw new PreconditionFailed(problems.get(0));
    }
    if (spec.network().isToxiproxy()) {
      throw new PreconditionFailed("cluster.network: the namespace backend makes network faults on each"
          + " node's own link; \"toxiproxy\" goes with the mini backend");
    }
    return start("namespace", log, (ledger, work) -> {
      ledger.record(LedgerEntry.cgroup(Cgroup.of(ledger.owner()).create(), "cluster"));
      return new NamespaceCluster(spec, ledger, work, NodeNetwork.create(ledger));
    }, NamespaceCluster::killNodes);
  }

  /** Node processes started before a failed start: ledger.close() heals their cgroups and namespaces. */
  private static void killNodes(Ledger ledger) {
    Cgroup.of(ledger.owner()).killAll(Duration.ofSeconds(10));
  }

  /** Starts a node process in the node's namespace and a fresh cgroup, from a site file of its own. */
  private Generation launch(NamespaceNode node, int number) {
    int i = node.index();
    Path home = workDir.resolve("nodes").resolve("node-" + i);
    Path dir = home.resolve("g" + number);
    try {
      daemons.writeNodeSite(node.address(), home, dir);
      Cgroup group = Cgroup.of(ledger.owner() + "/node-" + i + "-g" + number).create();
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Process p = group.spawn(NodeNetwork.inside(node.namespace(), HarnessDaemons.nodeCommand(java, dir)));
      return new Generation(number, group, dir, p, null);
    } catch (IOException e) {
      throw new HarnessException("cannot start node " + i, e);
    }
  }

  @Override
  protected void awaitServing(NamespaceNode node) {
    Generation g = node.generation();
    var status = daemons.awaitServing("node " + node.index(), g.dir(), g.process()::isAlive,
        () -> " with " + g.process().exitValue());
    node.begin(new Generation(g.number(), g.group(), g.dir(), g.process(), status));
  }

  public NodeNetwork network() {
    return network;
  }

  @Override
  public List<NamespaceNode> nodes() {
    return Collections.unmodifiableList(nodes);
  }

  @Override
  public Configuration configuration() {
    return daemons.client();
  }

  @Override
  public FaultContext faultContext(String runId) {
    return new FaultContext(runId, ledger, node -> network.faults(((NamespaceNode) node).namespace()));
  }

  @Override
  protected String backendLabel() {
    return "namespace";
  }

  /** Every process of the node's cgroup but the node process itself. */
  @Override
  protected void clearContainers(NamespaceNode node) {
    long self = node.pid();
    for (long p : node.generation().group().pids()) {
      if (p != self) {
        ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  /** A new generation in the node's namespace, plugged in, with no rules. */
  @Override
  protected void restart(NamespaceNode node) {
    Generation g = node.generation();
    g.group().killAll(Duration.ofSeconds(10));
    network.plug(node.namespace());
    node.begin(launch(node, g.number() + 1));
  }

  @Override
  protected boolean idle(NamespaceNode node) {
    return node.processes().equals(Set.of(node.pid()));
  }

  /** Every node process killed at once (nothing of a run survives), then the daemons. */
  @Override
  protected void stop() {
    try {
      killNodes(ledger);
      daemons.stop();
    } finally {
      network.close();
    }
  }
}
