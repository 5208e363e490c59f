package faultbed.harness.ns;

import faultbed.faults.Cgroup;
import faultbed.faults.Installed;
import faultbed.faults.NodeNetwork;
import faultbed.harness.CgroupNode;
import faultbed.harness.daemons.ProcessNode;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A worker node of the namespace backend: its process tree in the node's own network namespace
 * and, per generation, a cgroup of its own. Every generation lives in the same namespace, at the
 * same address.
 */
public final class NamespaceNode extends ProcessNode<NamespaceNode.Held> implements CgroupNode {
  private final NodeNetwork network;
  private final NodeNetwork.NodeNamespace namespace;
  private final String rmTrackerPort;
  private volatile Installed heldHeartbeats;

  /** One generation's process and the cgroup that holds it and its children. */
  record Held(Cgroup group, Process process) {}

  NamespaceNode(int index, NodeNetwork network, NodeNetwork.NodeNamespace namespace, String rmTrackerPort) {
    super(index);
    this.network = network;
    this.namespace = namespace;
    this.rmTrackerPort = rmTrackerPort;
  }

  NodeNetwork.NodeNamespace namespace() {
    return namespace;
  }

  @Override
  public String address() {
    return namespace.address();
  }

  /** Every process of the node: the node process itself and all its containers. */
  @Override
  public Set<Long> processes() {
    return group().pids();
  }

  @Override
  public Cgroup group() {
    return generation().process().group();
  }

  /** A rule in the node's namespace drops what it sends to the RM's resource tracker: a real partition. */
  @Override
  public synchronized void pauseHeartbeats() {
    if (heldHeartbeats == null) {
      heldHeartbeats = network.dropOutgoing(namespace, "heartbeats",
          List.of("--dport", rmTrackerPort, "-d", network.hostAddress()));
    }
  }

  @Override
  public synchronized void resumeHeartbeats() {
    if (heldHeartbeats != null) {
      heldHeartbeats.heal();
      heldHeartbeats = null;
    }
  }

  /** The group's processes; the node process (NodeManager and DataNode in one JVM) is the daemon. */
  @Override
  public List<Proc> processTable() {
    return CgroupNode.super.processTable().stream()
        .map(p -> new Proc(p.pid(), p.command(), isNodeProcess(p.command()))).toList();
  }

  /** Through the cgroup: a frozen group cannot fork, so nothing escapes. */
  @Override
  protected int killAll() {
    return group().killAll(Duration.ofSeconds(10)).size();
  }

  @Override
  protected String killedThrough() {
    return group().killMechanism();
  }

  @Override
  protected boolean terminate() {
    return ProcessHandle.of(pid()).map(h -> {
      h.destroy();
      try {
        h.onExit().get(30, TimeUnit.SECONDS);
        return true;
      } catch (Exception e) {
        return false;
      }
    }).orElse(true);
  }

  @Override
  public String toString() {
    return "node " + index() + " (" + namespace.address() + ")";
  }
}
