package faultbed.harness;

import org.apache.hadoop.yarn.api.records.NodeId;

/**
 * What the harness asks of a ResourceManager between and during runs: in-process where faultbed
 * started the RM, over its REST API where the cluster is someone else's.
 */
public interface ResourceManagerView {
  /** NodeId to node state, active and inactive nodes alike. */
  java.util.Map<String, String> nodeStates();

  /** The RM's state of an application, or UNKNOWN. */
  String applicationState(String applicationId);

  /** Whether the RM has the node RUNNING with no container allocated on it. */
  boolean runningAndIdle(NodeId id);

  /**
   * Between runs only: lets the RM forget a crashed node now rather than at liveness expiry, so
   * the next run does not start with a dead node the RM still schedules on. An RM that cannot be
   * told so (a remote one) leaves it to the node's restart under the same NodeId.
   */
  void expire(NodeId id);

  /**
   * Gives each node of {@code labels} that label (made, non-exclusive, if the RM lacks it) and
   * every other node none, and returns once the scheduler has each node in its partition. Only an
   * RM faultbed started takes labels from it.
   */
  default void labelNodes(java.util.Map<NodeId, String> labels) {
    throw new UnsupportedOperationException("node labels of a ResourceManager faultbed did not start are not faultbed's to set");
  }
}
