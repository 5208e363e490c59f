package faultbed.harness.daemons;

import faultbed.faults.CgroupLayout;
import faultbed.schedulers.stealing.RunningTask;
import faultbed.schedulers.stealing.StealingPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  /** A container running here: the slots it holds and, when it is held to a share, its group. */
  private record Running(String id, int slots, StealingPolicy policy, CpuGroup group, java.nio.file.Path workDir,
      long launchedMs) {}

  /**
   * A container's group in cgroup v1's CPU hierarchies (cpu, and cpuacct where it is apart), below
   * the node's. Only there: in every other hierarchy the container stays in the node's group, so
   * what acts on the node (a freeze, a disk throttle, a kill) acts on it as before.
   */
  record CpuGroup(List<java.nio.file.Path> dirs) {
    static final String PERIOD = "cpu.cfs_period_us";

    CpuGroup create() throws IOException {
      for (java.nio.file.Path d : dirs) {
        Files.createDirectories(d);
      }
      return this;
    }

    boolean exists() {
      return Files.isDirectory(dirs.get(0));
    }

    void limit(double cores) throws IOException {
      java.nio.file.Path cpu = dirs.get(0);
      long period = Long.parseLong(Files.readString(cpu.resolve(PERIOD)).trim());
      Files.writeString(cpu.resolve("cpu.cfs_quota_us"), Long.toString(Math.max(1000, Math.round(cores * period))));
    }

    String joinCommand() {
      return String.join(" && ", dirs.stream().map(d -> "echo $$ > '" + d.resolve("cgroup.procs") + "'").toList());
    }

    /** Removed once its processes are gone; one that lingers goes with the node's group. */
    void destroy() {
      for (java.nio.file.Path d : dirs) {
        try {
          Files.deleteIfExists(d);
        } catch (IOException busy) {
          LOG.warn("{}: {} not removed yet: {}", LOG_MARK, d, busy.toString());
        }
      }
    }
  }

  private final Map<String, Running> running = new LinkedHashMap<>();
  private final Map<String, String> shown = new LinkedHashMap<>();
  private final ThreadLocal<CpuGroup> launching = new ThreadLocal<>();
  private volatile ScheduledExecutorService rebalancer;
  private int nodeSlots;
  private double nodeCores;

  @Override
  public void setConf(Configuration conf) {
    super.setConf(conf);
    if (conf == null) {
      return;
    }
    nodeSlots = Math.max(1, conf.getInt(YarnConfiguration.NM_VCORES, YarnConfiguration.DEFAULT_NM_VCORES));
    int percent = conf.getInt(YarnConfiguration.NM_RESOURCE_PERCENTAGE_PHYSICAL_CPU_LIMIT,
        YarnConfiguration.DEFAULT_NM_RESOURCE_PERCENTAGE_PHYSICAL_CPU_LIMIT);
    nodeCores = Runtime.getRuntime().availableProcessors() * Math.max(1, Math.min(100, percent)) / 100.0;
  }

  @Override
  public int launchContainer(ContainerStartContext ctx) throws IOException, ConfigurationException {
    var container = ctx.getContainer();
    String id = container.getContainerId().toString();
    int slots = Math.max(1, container.getResource().getVirtualCores());
    String named = container.getLaunchContext().getEnvironment().get(ENV);
    StealingPolicy policy = named == null ? null : policy(named, id);
    CpuGroup group = policy == null ? null : groupFor(id);
    synchronized (this) {
      running.put(id, new Running(id, slots, policy, group,
          java.nio.file.Path.of(ctx.getContainerWorkDir().toUri().getPath()), System.currentTimeMillis()));
      startRebalancing();
    }
    // the others give back what they were lent before this one starts
    rebalance();
    launching.set(group);
    try {
      return super.launchContainer(ctx);
    } finally {
      launching.remove();
      synchronized (this) {
        running.remove(id);
        shown.remove(id);
      }
      if (group != null) {
        group.destroy();
      }
      rebalance();
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
          rebalance();
        } catch (RuntimeException e) {
          LOG.warn("{}: rebalancing failed: {}", LOG_MARK, e.toString());
        }
      }, REBALANCE_MS, REBALANCE_MS, TimeUnit.MILLISECONDS);
    }
  }

  /** Idle slots lent anew by the policy of the earliest held container; every held container's quota and thread count set. */
  synchronized void rebalance() {
    List<Running> held = running.values().stream().filter(r -> r.policy() != null).toList();
    if (held.isEmpty()) {
      return;
    }
    long now = System.currentTimeMillis();
    int idle = nodeSlots - running.values().stream().mapToInt(Running::slots).sum();
    List<RunningTask> tasks = new ArrayList<>();
    for (Running r : held) {
      tasks.add(task(r));
    }
    Map<String, Integer> lent = held.get(0).policy().lend(idle, tasks, now);
    for (Running r : held) {
      int share = r.slots() + lent.getOrDefault(r.id(), 0);
      double cores = share * nodeCores / nodeSlots;
      String state = share + " " + cores;
      if (state.equals(shown.get(r.id()))) {
        continue;
      }
      if (!r.group().exists()) {
        continue;
      }
      try {
        r.group().limit(cores);
      } catch (IOException | RuntimeException e) {
        LOG.warn("{}: {} not limited: {}", LOG_MARK, r.id(), e.toString());
        continue;
      }
      if (writeThreads(r.workDir(), share)) {
        shown.put(r.id(), state);
        LOG.info("{} {} {} slots={} lent={} cores={} policy={}", LOG_MARK, now, r.id(), r.slots(), share - r.slots(),
            String.format(java.util.Locale.ROOT, "%.3f", cores), r.policy());
      }
    }
  }

  /** The task as its progress file tells it; one that has written none can use its own slots only. */
  private static RunningTask task(Running r) {
    try {
      String[] f = Files.readString(r.workDir().resolve(PROGRESS_FILE), StandardCharsets.UTF_8).trim().split("\\s+");
      double progress = Math.max(0, Math.min(1, Double.parseDouble(f[1])));
      return new RunningTask(r.id(), Long.parseLong(f[0]), progress, r.slots(), Integer.parseInt(f[2]));
    } catch (IOException | RuntimeException notYet) {
      return new RunningTask(r.id(), r.launchedMs(), 0, r.slots(), r.slots());
    }
  }

  /** Whether the task can read its share now: false before its working folder exists. */
  private static boolean writeThreads(java.nio.file.Path workDir, int threads) {
    if (!Files.isDirectory(workDir)) {
      return false;
    }
    try {
      java.nio.file.Path tmp = workDir.resolve(THREADS_FILE + ".tmp");
      Files.writeString(tmp, threads + "\n", StandardCharsets.UTF_8);
      try {
        Files.move(tmp, workDir.resolve(THREADS_FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, workDir.resolve(THREADS_FILE), StandardCopyOption.REPLACE_EXISTING);
      }
      return true;
    } catch (IOException e) {
      return false;
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
