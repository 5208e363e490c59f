package faultbed.faults;

import java.util.function.Supplier;

/**
 * A fault held on and off by two calls (a node's heartbeats paused, then resumed): made once
 * however often it is asked for while on, healed once when let go.
 */
public final class Held {
  private Installed current;

  /** Makes it with {@code make} unless it is on already. */
  public synchronized void on(Supplier<Installed> make) {
    if (current == null) {
      current = make.get();
    }
  }

  /** Heals it if it is on. */
  public synchronized void off() {
    if (current != null) {
      Installed c = current;
      current = null;
      c.heal();
    }
  }
}
