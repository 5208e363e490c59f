package faultbed.harness.mini;

import java.util.Map;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * MiniMRYarnCluster forces its own container executor and ShuffleHandler during init; this
 * configuration ignores any change to the keys faultbed pins (its executor, and the proxied
 * ShuffleHandler when shuffle goes through Toxiproxy).
 */
final class PinnedConfiguration extends YarnConfiguration {
  private final Map<String, String> pins;

  PinnedConfiguration(Map<String, String> pins) {
    super();
    this.pins = Map.copyOf(pins);
    this.pins.forEach(super::set);
  }

  @Override
  public void set(String name, String value) {
    set(name, value, null);
  }

  @Override
  public void set(String name, String value, String source) {
    if (pins != null && pins.containsKey(name) && !pins.get(name).equals(value)) {
      return;
    }
    super.set(name, value, source);
  }
}
