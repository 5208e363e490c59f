package faultbed.harness.daemons;

import faultbed.schedulers.stealing.RunningTask;
import faultbed.schedulers.stealing.StealingPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's containers and the CPU shares it holds them to: the slots no container holds lent by the
 * policy of the earliest held container to the held tasks that can use them, each held container's
 * quota and thread count set from its slots and what it was lent (see {@link StrictCpuExecutor}).
 */
final class NodeShares {
  private static final Logger LOG = LoggerFactory.getLogger(NodeShares.class);

  /** A container running here: the slots it holds and, when it is held to a share, its group and policy. */
  private record Running(String id, int slots, StealingPolicy policy, CpuGroup group, Path workDir, long launchedMs) {}

  private final int nodeSlots;
  private final double nodeCores;
  private final Map<String, Running> running = new LinkedHashMap<>();
  private final Map<String, String> shown = new LinkedHashMap<>();

  /** {@code nodeSlots} vcores sharing {@code nodeCores} of CPU. */
  NodeShares(int nodeSlots, double nodeCores) {
    this.nodeSlots = Math.max(1, nodeSlots);
    this.nodeCores = nodeCores;
  }

  /** A container starts; {@code policy} and {@code group} null for one that is not held to a share. */
  synchronized void started(String id, int slots, StealingPolicy policy, CpuGroup group, Path workDir, long nowMs) {
    running.put(id, new Running(id, slots, policy, group, workDir, nowMs));
  }

  synchronized void ended(String id) {
    running.remove(id);
    shown.remove(id);
  }

  /** Idle slots lent anew; every held container's quota and thread count set where they changed. */
  synchronized void rebalance(long nowMs) {
    List<Running> held = running.values().stream().filter(r -> r.policy() != null).toList();
    if (held.isEmpty()) {
      return;
    }
    int idle = nodeSlots - running.values().stream().mapToInt(Running::slots).sum();
    List<RunningTask> tasks = new ArrayList<>();
    for (Running r : held) {
      tasks.add(task(r));
    }
    Map<String, Integer> lent = held.get(0).policy().lend(idle, tasks, nowMs);
    for (Running r : held) {
      int share = r.slots() + lent.getOrDefault(r.id(), 0);
      double cores = share * nodeCores / nodeSlots;
      String state = share + " " + cores;
      if (state.equals(shown.get(r.id())) || !r.group().exists()) {
        continue;
      }
      try {
        r.group().limit(cores);
      } catch (IOException | RuntimeException e) {
        LOG.warn("{}: {} not limited: {}", StrictCpuExecutor.LOG_MARK, r.id(), e.toString());
        continue;
      }
      if (writeThreads(r.workDir(), share)) {
        shown.put(r.id(), state);
        LOG.info("{} {} {} slots={} lent={} cores={} policy={}", StrictCpuExecutor.LOG_MARK, nowMs, r.id(), r.slots(),
            share - r.slots(), String.format(java.util.Locale.ROOT, "%.3f", cores), r.policy());
      }
    }
  }

  /** The task as its progress file tells it; one that has written none can use its own slots only. */
  private static RunningTask task(Running r) {
    try {
      String[] f = Files.readString(r.workDir().resolve(StrictCpuExecutor.PROGRESS_FILE), StandardCharsets.UTF_8)
          .trim().split("\\s+");
      double progress = Math.max(0, Math.min(1, Double.parseDouble(f[1])));
      return new RunningTask(r.id(), Long.parseLong(f[0]), progress, r.slots(), Integer.parseInt(f[2]));
    } catch (IOException | RuntimeException notYet) {
      return new RunningTask(r.id(), r.launchedMs(), 0, r.slots(), r.slots());
    }
  }

  /** Whether the task can read its share now: false before its working folder exists. */
  private static boolean writeThreads(Path workDir, int threads) {
    if (!Files.isDirectory(workDir)) {
      return false;
    }
    try {
      Path tmp = workDir.resolve(StrictCpuExecutor.THREADS_FILE + ".tmp");
      Files.writeString(tmp, threads + "\n", StandardCharsets.UTF_8);
      try {
        Files.move(tmp, workDir.resolve(StrictCpuExecutor.THREADS_FILE), StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, workDir.resolve(StrictCpuExecutor.THREADS_FILE), StandardCopyOption.REPLACE_EXISTING);
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
