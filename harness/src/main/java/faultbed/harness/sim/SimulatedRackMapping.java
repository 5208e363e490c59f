package faultbed.harness.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.net.CachedDNSToSwitchMapping;
import org.apache.hadoop.net.NetworkTopology;

/**
 * The topology Hadoop's RackResolver sees (TaskAttemptImpl asks it for racks and locality). It
 * extends CachedDNSToSwitchMapping so RackResolver uses it as is instead of wrapping it in one that
 * normalises names through DNS first. RackResolver is initialised once per JVM, so the table is static.
 */
public final class SimulatedRackMapping extends CachedDNSToSwitchMapping {
  private static final Map<String, String> RACKS = new ConcurrentHashMap<>();

  public SimulatedRackMapping() {
    super(null);
  }

  static void place(SimulatedNode node) {
    RACKS.put(node.address(), node.rack());
  }

  @Override
  public List<String> resolve(List<String> names) {
    List<String> racks = new ArrayList<>(names.size());
    for (String name : names) {
      racks.add(RACKS.getOrDefault(name, NetworkTopology.DEFAULT_RACK));
    }
    return racks;
  }

  @Override
  public Map<String, String> getSwitchMap() {
    return new HashMap<>(RACKS);
  }

  @Override
  public boolean isSingleSwitch() {
    return false;
  }

  @Override
  public void reloadCachedMappings() {
  }

  @Override
  public void reloadCachedMappings(List<String> names) {
  }
}
