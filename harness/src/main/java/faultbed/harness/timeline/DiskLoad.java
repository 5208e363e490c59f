package faultbed.harness.timeline;

import faultbed.harness.Node;
import java.time.Duration;
import java.util.Map;

/** dd writers in a loop on the node's local dirs, in its cgroup (seed 000, §5.2.2). */
public record DiskLoad(Target target, int writers, long blockBytes, long fileBytes, boolean direct,
    Duration duration) implements Fault {
  @Override
  public String kind() {
    return "disk-load";
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    return new Injection(Map.of("writers", Integer.toString(writers)),
        node.diskWriters(context.ledger(), context.runId(), writers, blockBytes, fileBytes, direct));
  }
}
