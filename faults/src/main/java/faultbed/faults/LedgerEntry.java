package faultbed.faults;

import java.util.Map;

/**
 * One thing faultbed installed on the OS and must remove: what kind it is (its healer), an id
 * unique within the kind, the run that installed it, and whatever its healer needs.
 */
public record LedgerEntry(String kind, String id, String runId, Map<String, String> detail) {
  public LedgerEntry {
    detail = detail == null ? Map.of() : Map.copyOf(detail);
  }

  public static LedgerEntry cgroup(Cgroup group, String runId) {
    String v2Root = group.v2Root();
    return new LedgerEntry(CgroupHealer.KIND, group.path(), runId,
        v2Root == null ? Map.of() : Map.of(CgroupHealer.V2_ROOT, v2Root));
  }
}
