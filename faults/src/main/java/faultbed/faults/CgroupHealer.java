package faultbed.faults;

import java.util.Set;

/** Kills every process left in a faultbed cgroup, then removes the group. */
final class CgroupHealer implements Healer {
  static final String KIND = "cgroup";

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public String heal(LedgerEntry entry) {
    Cgroup group = Cgroup.ofFullPath(Cgroup.defaultRoot(), entry.id());
    if (!group.exists()) {
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
