package faultbed.faults;

import java.util.List;

/** Removes one kind of ledger entry. Healing must be idempotent: the thing may already be gone. */
public interface Healer {
  String kind();

  /** Heals the entry on this machine and returns one line saying what was removed, or {@code null} if nothing was left. */
  String heal(LedgerEntry entry);

  /**
   * Heals the entry where {@code on} runs commands. Only kinds whose mechanism runs over
   * {@link Commands} (packet filter rules, traffic shaping, undo commands) can be healed elsewhere
   * than on this machine; they override this.
   */
  default String heal(LedgerEntry entry, Commands on) {
    if (on != Commands.local()) {
      throw new IllegalStateException("a " + kind() + " entry is healed on this machine only, not on " + on.where());
    }
    return heal(entry);
  }

  /** A faultbed thing of this kind present on the machine, and the harness process that made it if known. */
  record Found(LedgerEntry entry, String owner) {}

  /** Everything of this kind faultbed made that is on the machine now, whoever made it. */
  default List<Found> findAll() {
    return List.of();
  }

  /** A healer whose mechanism runs over {@link Commands}: on this machine or anywhere else alike. */
  interface Anywhere extends Healer {
    @Override
    String heal(LedgerEntry entry, Commands on);

    @Override
    default String heal(LedgerEntry entry) {
      return heal(entry, Commands.local());
    }
  }
}
