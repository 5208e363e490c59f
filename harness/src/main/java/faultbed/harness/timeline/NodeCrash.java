package faultbed.harness.timeline;

import faultbed.harness.Node;

/** The seeds' "TaskTracker kill": the node's NodeManager and all its containers die at once, unannounced. */
public record NodeCrash(Target target) implements Fault {
  public static NodeCrash on(Target target) {
    return new NodeCrash(target);
  }

  @Override
  public String kind() {
    return "crash";
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    return Injection.permanent(node.crash());
  }
}
