package faultbed.harness.timeline;

import faultbed.faults.Installed;
import java.util.Map;

/** A fault in effect: what its injection observed, and how to take it away. */
public record Injection(Map<String, String> detail, Installed healer) {
  public Injection {
    detail = Map.copyOf(detail);
  }

  /** A fault the run cannot take back (a crash); the reset after the run restores the node. */
  public static Injection permanent(Map<String, String> detail) {
    return new Injection(detail, () -> { });
  }

  public static Injection of(Installed healer) {
    return new Injection(Map.of(), healer);
  }
}
