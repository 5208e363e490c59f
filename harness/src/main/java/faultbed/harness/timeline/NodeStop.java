package faultbed.harness.timeline;

import faultbed.harness.Node;
import faultbed.results.FaultEffect;

/** A graceful NodeManager shutdown: containers killed and the RM told at once. Compare with {@link NodeCrash}. */
public record NodeStop(Target target) implements Fault {
  public static final FaultKind KIND = FaultKind.kind("stop", FaultEffect.KILLS)
      .does("the NodeManager stopped cleanly; lasts until the run ends", "graceful shutdown the RM hears about at once")
      .lasts(FaultKind.Lasts.UNTIL_RUN_ENDS)
      .made((target, lasts, p) -> NodeStop.on(target), FaultKind.example("stop", NodeStop::on));

  public static NodeStop on(Target target) {
    return new NodeStop(target);
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    return Injection.permanent(node.stopGracefully());
  }
}
