package faultbed.harness.mini;

import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * MiniMRYarnCluster forces DefaultContainerExecutor during init; this configuration ignores that
 * one override so every NodeManager keeps {@link NodeContainerExecutor}.
 */
final class PinnedExecutorConfiguration extends YarnConfiguration {
  PinnedExecutorConfiguration() {
    super();
    super.set(NM_CONTAINER_EXECUTOR, NodeContainerExecutor.class.getName());
  }

  @Override
  public void set(String name, String value) {
    set(name, value, null);
  }

  @Override
  public void set(String name, String value, String source) {
    if (NM_CONTAINER_EXECUTOR.equals(name) && !NodeContainerExecutor.class.getName().equals(value)) {
      return;
    }
    super.set(name, value, source);
  }
}
