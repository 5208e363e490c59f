package faultbed.harness.timeline;

import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.Map;

/** dd writers in a loop on the node's local dirs, in its cgroup (seed 000, §5.2.2). */
public record DiskLoad(Target target, int writers, long blockBytes, long fileBytes, boolean direct,
    Duration duration) implements Fault {
  public static final FaultKind KIND = FaultKind.kind("disk-load", FaultEffect.SLOWS)
      .does("dd writers in the node's cgroup", "dd writers in a loop on its local dirs, in its cgroup, weighing on its"
          + " CPU as `cpu-hog`'s spinners do")
      .param(FaultKind.Param.optional("writers", FaultKind.Form.COUNT, "`writers` (4)"))
      .param(FaultKind.Param.optional("block", FaultKind.Form.SIZE, "`block` (`\"1MB\"`)"))
      .param(FaultKind.Param.optional("file", FaultKind.Form.SIZE, "`file` (`\"256MB\"`)"))
      .param(FaultKind.Param.optional("direct", FaultKind.Form.FLAG, "`direct` (true)"))
      .made((target, lasts, p) -> new DiskLoad(target, p.count("writers", 1).orElse(4),
          p.bytes("block").orElse(1L << 20), p.bytes("file").orElse(256L << 20), p.flag("direct").orElse(true), lasts),
          FaultKind.example("disk-load", t -> new DiskLoad(t, 1, 1, 1, false, null)));

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    return new Injection(Map.of("writers", Integer.toString(writers)),
        node.diskWriters(context.ledger(), context.runId(), writers, blockBytes, fileBytes, direct));
  }
}
