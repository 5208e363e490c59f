package faultbed.harness.daemons;

import faultbed.harness.HarnessException;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.api.protocolrecords.UnRegisterNodeManagerRequest;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeEventType;
import org.apache.hadoop.yarn.util.Records;

/**
 * The in-process ResourceManager as the harness talks to it: what a NodeManager would tell it over
 * RPC, said directly (the mini cluster's NodeManagers are wired to the RM and their own unregister
 * is a no-op), and what it knows of nodes and applications.
 */
public final class ResourceTrackerLink implements faultbed.harness.ResourceManagerView {
  private final ResourceManager rm;

  public ResourceTrackerLink(ResourceManager rm) {
    this.rm = rm;
  }

  /** NodeId to node state, active and inactive nodes alike. */
  @Override
  public java.util.Map<String, String> nodeStates() {
    java.util.Map<String, String> states = new java.util.HashMap<>();
    var ctx = rm.getRMContext();
    for (var n : ctx.getInactiveRMNodes().values()) {
      states.put(n.getNodeID().toString(), n.getState().name());
    }
    for (var n : ctx.getRMNodes().values()) {
      states.put(n.getNodeID().toString(), n.getState().name());
    }
    return states;
  }

  /** The RM's state of an application, or UNKNOWN. */
  @Override
  public String applicationState(String applicationId) {
    var app = rm.getRMContext().getRMApps()
        .get(org.apache.hadoop.yarn.api.records.ApplicationId.fromString(applicationId));
    return app == null ? "UNKNOWN" : app.getState().name();
  }

  /** Whether the RM has the node RUNNING with no container allocated on it. */
  @Override
  public boolean runningAndIdle(NodeId id) {
    var ctx = rm.getRMContext();
    var n = ctx.getRMNodes().get(id);
    return n != null && n.getState() == org.apache.hadoop.yarn.api.records.NodeState.RUNNING
        && ctx.getScheduler().getSchedulerNode(id).getCopiedListOfRunningContainers().isEmpty();
  }

  public void unregister(NodeId id) {
    UnRegisterNodeManagerRequest req = Records.newRecord(UnRegisterNodeManagerRequest.class);
    req.setNodeId(id);
    try {
      rm.getResourceTrackerService().unRegisterNodeManager(req);
    } catch (Exception e) {
      throw new HarnessException("cannot unregister " + id + " from the ResourceManager", e);
    }
  }

  /**
   * Between runs only: lets the RM forget a crashed node now rather than at liveness expiry, so
   * the next run does not start with a dead node the RM still schedules on.
   */
  @Override
  public void expire(NodeId id) {
    rm.getRMContext().getDispatcher().getEventHandler().handle(new RMNodeEvent(id, RMNodeEventType.EXPIRE));
  }

  @Override
  public void labelNodes(java.util.Map<NodeId, String> labels) {
    var ctx = rm.getRMContext();
    var manager = ctx.getNodeLabelManager();
    try {
      java.util.Set<String> known = manager.getClusterNodeLabelNames();
      java.util.List<org.apache.hadoop.yarn.api.records.NodeLabel> missing = labels.values().stream().distinct()
          .filter(l -> !known.contains(l))
          .map(l -> org.apache.hadoop.yarn.api.records.NodeLabel.newInstance(l, false)).toList();
      if (!missing.isEmpty()) {
        manager.addToCluserNodeLabels(missing);
      }
      java.util.Map<NodeId, java.util.Set<String>> replace = new java.util.HashMap<>();
      manager.getNodeLabels().keySet().forEach(id -> replace.put(id, java.util.Set.of()));
      ctx.getRMNodes().keySet().forEach(id -> replace.put(id, java.util.Set.of()));
      labels.forEach((id, l) -> replace.put(id, java.util.Set.of(l)));
      manager.replaceLabelsOnNode(replace);
    } catch (java.io.IOException e) {
      throw new HarnessException("cannot label nodes " + labels + " on the ResourceManager", e);
    }
    // the scheduler learns of labels through the RM's dispatcher: wait until every live node is in its partition
    org.awaitility.Awaitility.await("the scheduler's nodes in their labels' partitions")
        .atMost(java.time.Duration.ofSeconds(10)).pollInterval(java.time.Duration.ofMillis(20))
        .until(() -> ctx.getRMNodes().keySet().stream().allMatch(id -> {
          var node = ctx.getScheduler().getSchedulerNode(id);
          return node == null || node.getPartition().equals(labels.getOrDefault(id, ""));
        }));
  }
}
