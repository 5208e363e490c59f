package faultbed.harness.timeline;

import faultbed.harness.Node;

/** A graceful NodeManager shutdown: containers killed and the RM told at once. Compare with {@link NodeCrash}. */
public record NodeStop(Target target) implements Fault {
  public static NodeStop on(Target target) {
    return new NodeStop(target);
  }

  @Override
  public String kind() {
    return "stop";
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    return Injection.permanent(node.stopGracefully());
  }
}
