package faultbed.faults;

import java.util.List;

/** Removes one kind of ledger entry. Healing must be idempotent: the thing may already be gone. */
public interface Healer {
  String kind();

  /** Heals the entry and returns one line saying what was removed, or {@code null} if nothing was left. */
  String heal(LedgerEntry entry);

  /** A faultbed thing of this kind present on the machine, and the harness process that made it if known. */
  record Found(LedgerEntry entry, String owner) {}

  /** Everything of this kind faultbed made that is on the machine now, whoever made it. */
  default List<Found> findAll() {
    return List.of();
  }
}
