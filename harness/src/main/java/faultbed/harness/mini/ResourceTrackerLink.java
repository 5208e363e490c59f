package faultbed.harness.mini;

import faultbed.harness.HarnessException;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.api.protocolrecords.UnRegisterNodeManagerRequest;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeEventType;
import org.apache.hadoop.yarn.util.Records;

/**
 * What a NodeManager would tell the ResourceManager over RPC, said in-process: the mini cluster's
 * NodeManagers are wired to the RM directly and their own unregister is a no-op.
 */
final class ResourceTrackerLink {
  private final ResourceManager rm;

  ResourceTrackerLink(ResourceManager rm) {
    this.rm = rm;
  }

  void unregister(NodeId id) {
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
  void expire(NodeId id) {
    rm.getRMContext().getDispatcher().getEventHandler().handle(new RMNodeEvent(id, RMNodeEventType.EXPIRE));
  }
}
