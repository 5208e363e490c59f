package faultbed.faults;

/** Removes one kind of ledger entry. Healing must be idempotent: the thing may already be gone. */
public interface Healer {
  String kind();

  /** Heals the entry and returns one line saying what was removed, or {@code null} if nothing was left. */
  String heal(LedgerEntry entry);
}
