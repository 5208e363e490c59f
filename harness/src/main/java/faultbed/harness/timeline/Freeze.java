package faultbed.harness.timeline;

import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The node stops for a while and then carries on: its containers frozen, its heartbeats held. A
 * transient overload that looks like a failure, which is seed 003's central confusion.
 */
public record Freeze(Target target, Duration duration) implements Fault {
  public static final FaultKind KIND = FaultKind.kind("freeze", FaultEffect.STALLS)
      .does("every process of the node frozen for a while", "its containers frozen and heartbeats held, then thawed")
      .lasts(FaultKind.Lasts.FOR_ONLY)
      .made((target, lasts, p) -> new Freeze(target, Optional.ofNullable(lasts)
          .orElseThrow(() -> p.invalid("for", "how long the freeze lasts, e.g. \"20s\""))),
          FaultKind.example("freeze", t -> new Freeze(t, Duration.ofSeconds(1))));

  public Freeze {
    if (duration == null || duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("for: expected how long the freeze lasts, e.g. \"20s\"");
    }
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    node.pauseHeartbeats();
    faultbed.faults.Installed frozen = node.freeze();
    return new Injection(Map.of("processesFrozen", Integer.toString(node.processes().size())), () -> {
      frozen.heal();
      node.resumeHeartbeats();
    });
  }
}
