package faultbed.harness.timeline;

import faultbed.harness.Node;
import java.util.Map;

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
  public Map<String, String> inject(Node node) {
    return node.crash();
  }
}
