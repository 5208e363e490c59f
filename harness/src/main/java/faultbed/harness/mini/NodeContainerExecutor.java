package faultbed.harness.mini;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.exceptions.ConfigurationException;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerStartContext;

/**
 * The container executor of one mini-cluster node: Hadoop's default executor with a launch prefix
 * that moves each container into its node's cgroup before it execs, so every process a container
 * spawns can be slowed, frozen or killed as the node's own. A crashed node refuses new launches,
 * as a dead machine would.
 */
public class NodeContainerExecutor extends DefaultContainerExecutor {
  /** Exit code of a launch refused because the node is down (what a killed launch reports). */
  static final int REFUSED_EXIT = 137;

  private volatile List<String> prefix = List.of();
  private volatile boolean refusing;

  /** From now on containers start through a shell that runs {@code joinCommand}, then execs the launch. */
  void joinOnLaunch(String joinCommand) {
    prefix = List.of("sh", "-c", "{ " + joinCommand + "; } || exit 97; exec \"$@\"", "faultbed-join");
  }

  void refuseLaunches() {
    refusing = true;
  }

  @Override
  public int launchContainer(ContainerStartContext ctx) throws IOException, ConfigurationException {
    if (refusing) {
      return REFUSED_EXIT;
    }
    return super.launchContainer(ctx);
  }

  @Override
  protected String[] getRunCommand(String command, String groupId, String userName, Path pidFile,
      Configuration config, Resource resource) {
    String[] base = super.getRunCommand(command, groupId, userName, pidFile, config, resource);
    List<String> p = prefix;
    if (p.isEmpty()) {
      return base;
    }
    List<String> all = new ArrayList<>(p);
    all.addAll(Arrays.asList(base));
    return all.toArray(String[]::new);
  }
}
