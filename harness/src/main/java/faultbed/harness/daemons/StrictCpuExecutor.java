package faultbed.harness.daemons;

import faultbed.faults.CgroupLayout;
import faultbed.schedulers.stealing.StealingPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.ConfigurationException;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerStartContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's default container executor, and for the containers of a job that asks for it
 * ({@value #ENV} in their environment) what YARN's strict CPU enforcement does with cgroups: each
 * such container in a cgroup of its own below the node's, held to its vcores' share of the node's
 * CPU ({@code yarn.nodemanager.resource.percentage-physical-cpu-limit} of the host's cores, split
 * by {@code yarn.nodemanager.resource.cpu-vcores}). The variable names a {@link StealingPolicy}:
 * with any but {@code strict}, the node's slots no container holds are lent to the running tasks
 * that can use them (Guo and Fox's resource stealing), their quotas raised, and taken back before
 * a new container starts.
 *
 * <p>A task learns its share from {@value #THREADS_FILE} in its working folder (a whole number of
 * slots, rewritten as it changes) and tells the node how far it is and what it could use in
 * {@value #PROGRESS_FILE} ("start-epoch-ms progress slots-it-could-use"); a task that writes
 * nothing is held to its own slots. Every change of a share is logged as a line starting
 * {@value #LOG_MARK}, which the harness reads back from the node's log.
 */
public class StrictCpuExecutor extends DefaultContainerExecutor {
  /** The environment variable a job sets in its containers to be held to their share. */
  public static final String ENV = "FAULTBED_STEALING";
  public static final String THREADS_FILE = "faultbed-threads";
  public static final String PROGRESS_FILE = "faultbed-progress";
  public static final String LOG_MARK = "faultbed-share";
  static final long REBALANCE_MS = 500;

  private static final Logger LOG = LoggerFactory.getLogger(StrictCpuExecutor.class);

  private final ThreadLocal<CpuGroup> launching = new ThreadLocal<>();
  private volatile ScheduledExecutorService rebalancer;
  private volatile NodeShares shares = new NodeShares(1, 1);

  @Override
  public void setConf(Configuration conf) {
    super.setConf(conf);
    if (conf == null) {
      return;
    }
    int percent = conf.getInt(YarnConfiguration.NM_RESOURCE_PERCENTAGE_PHYSICAL_CPU_LIMIT,
        YarnConfiguration.DEFAULT_NM_RESOURCE_PERCENTAGE_PHYSICAL_CPU_LIMIT);
    shares = new NodeShares(conf.getInt(YarnConfiguration.NM_VCORES, YarnConfiguration.DEFAULT_NM_VCORES),
        Runtime.getRuntime().availableProcessors() * Math.max(1, Math.min(100, percent)) / 100.0);
  }

  @Override
  public int launchContainer(ContainerStartContext ctx) throws IOException, ConfigurationException {
    var container = ctx.getContainer();
    String id = container.getContainerId().toString();
    int slots = Math.max(1, container.getResource().getVirtualCores());
    String named = container.getLaunchContext().getEnvironment().get(ENV);
    StealingPolicy policy = named == null ? null : policy(named, id);
    CpuGroup group = policy == null ? null : groupFor(id);
    shares.started(id, slots, policy, group, java.nio.file.Path.of(ctx.getContainerWorkDir().toUri().getPath()),
        System.currentTimeMillis());
    startRebalancing();
    // the others give back what they were lent before this one starts
    shares.rebalance(System.currentTimeMillis());
    launching.set(group);
    try {
      return super.launchContainer(ctx);
    } finally {
      launching.remove();
      shares.ended(id);
      if (group != null) {
        group.destroy();
      }
      shares.rebalance(System.currentTimeMillis());
    }
  }

  private static StealingPolicy policy(String named, String container) throws IOException {
    try {
      return StealingPolicy.named(named);
    } catch (IllegalArgumentException e) {
      throw new IOException(ENV + " of " + container + ": " + e.getMessage());
    }
  }

  /** A group for the container below the node's own, which must be in v1's CPU hierarchy. */
  private static CpuGroup groupFor(String container) throws IOException {
    CgroupLayout layout = CgroupLayout.current();
    var cpu = layout.v1Root("cpu");
    if (layout.cpu() != CgroupLayout.Mechanism.V1 || cpu.isEmpty()) {
      throw new IOException(ENV + ": holding " + container + " to its share needs a cgroup of its own with a CPU"
          + " limit below the node's, which this host's cgroups (" + layout.describe() + ") do not give"
          + " (cgroup v1's cpu controller)");
    }
    List<java.nio.file.Path> dirs = new ArrayList<>();
    for (String controller : List.of("cpu", "cpuacct")) {
      var root = layout.v1Root(controller);
      if (root.isEmpty()) {
        continue;
      }
      java.nio.file.Path d = root.get().resolve(ownGroup(controller)).resolve("c-" + container);
      if (!dirs.contains(d)) {
        dirs.add(d);
      }
    }
    return new CpuGroup(dirs).create();
  }

  /** This process's group in a v1 controller's hierarchy, relative to its root, as /proc/self/cgroup names it. */
  static String ownGroup(String controller) throws IOException {
    for (String line : Files.readAllLines(java.nio.file.Path.of("/proc/self/cgroup"))) {
      String[] f = line.split(":", 3);
      if (f.length == 3 && Arrays.asList(f[1].split(",")).contains(controller)) {
        if (!f[2].startsWith("/" + CgroupLayout.PREFIX + "/")) {
          throw new IOException(ENV + ": the node is not in a cgroup of faultbed's (its " + controller + " group is "
              + f[2] + ")");
        }
        return f[2].substring(1);
      }
    }
    throw new IOException(ENV + ": /proc/self/cgroup names no " + controller + " group");
  }

  private synchronized void startRebalancing() {
    if (rebalancer == null) {
      rebalancer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "faultbed-rebalance");
        t.setDaemon(true);
        return t;
      });
      rebalancer.scheduleWithFixedDelay(() -> {
        try {
          shares.rebalance(System.currentTimeMillis());
        } catch (RuntimeException e) {
          LOG.warn("{}: rebalancing failed: {}", LOG_MARK, e.toString());
        }
      }, REBALANCE_MS, REBALANCE_MS, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  protected String[] getRunCommand(String command, String groupId, String userName, Path pidFile,
      Configuration config, Resource resource) {
    String[] base = super.getRunCommand(command, groupId, userName, pidFile, config, resource);
    CpuGroup group = launching.get();
    if (group == null) {
      return base;
    }
    List<String> all = new ArrayList<>(List.of("sh", "-c", "{ " + group.joinCommand() + "; } || exit 97; exec \"$@\"",
        "faultbed-join"));
    all.addAll(Arrays.asList(base));
    return all.toArray(String[]::new);
  }
}
