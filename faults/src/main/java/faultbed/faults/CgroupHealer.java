package faultbed.faults;

import java.util.Set;

/** Kills every process left in a faultbed group, thaws and removes it from every hierarchy. */
final class CgroupHealer implements Healer {
  static final String KIND = "cgroup";
  /** Detail key: the v2 cgroup the group was made under, which differs between delegated scopes. */
  static final String V2_ROOT = "v2root";

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public String heal(LedgerEntry entry) {
    Cgroup group = Cgroup.recorded(entry.id(), entry.detail().get(V2_ROOT));
    if (!group.existsAnywhere()) {
      return null;
    }
    Set<Long> killed = group.destroy();
    return "removed cgroup " + entry.id()
        + (killed.isEmpty() ? "" : " and killed " + killed.size() + " process(es) " + killed);
  }

  @Override
  public java.util.List<Found> findAll() {
    return Cgroup.instances().stream()
        .map(i -> new Found(new LedgerEntry(KIND, Cgroup.PREFIX + "/" + i, "unknown", java.util.Map.of()), i))
        .toList();
  }
}
