package faultbed.harness.timeline;

import faultbed.faults.Installed;
import java.util.Map;

/** A fault in effect: what its injection observed, and how to take it away. */
public record Injection(Map<String, String> detail, Installed healer,
    java.util.function.Supplier<Map<String, String>> healSaw) {
  public Injection {
    detail = Map.copyOf(detail);
    healSaw = healSaw == null ? Map::of : healSaw;
  }

  public Injection(Map<String, String> detail, Installed healer) {
    this(detail, healer, Map::of);
  }

  /** A fault the run cannot take back (a crash); the reset after the run restores the node. */
  public static Injection permanent(Map<String, String> detail) {
    return new Injection(detail, () -> { });
  }

  public static Injection of(Installed healer) {
    return new Injection(Map.of(), healer);
  }
}
