package faultbed.schedulers.policies;

import faultbed.schedulers.AttemptSnapshot;
import faultbed.schedulers.AttemptState;
import faultbed.schedulers.JobSnapshot;
import faultbed.schedulers.Phase;
import faultbed.schedulers.TaskSnapshot;
import faultbed.schedulers.TaskState;
import faultbed.schedulers.TaskType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Hand-built job snapshots: times are given in seconds before "now". */
final class JobBuilder {
  static final long NOW = 10_000_000L;

  private final List<TaskSnapshot> tasks = new ArrayList<>();

  static long ago(double secs) {
    return NOW - Math.round(secs * 1000);
  }

  /** Hadoop's phase for a score: maps 2/3 map + 1/3 sort, reduces copy/sort/reduce thirds. */
  static Phase phaseOf(TaskType type, double progress) {
    if (type == TaskType.MAP) {
      return progress < 2.0 / 3 ? Phase.MAP : Phase.SORT;
    }
    return progress < 1.0 / 3 ? Phase.SHUFFLE : progress < 2.0 / 3 ? Phase.SORT : Phase.REDUCE;
  }

  static AttemptSnapshot runningAttempt(String id, TaskType type, String node, double progress,
      double secs, Phase phase, boolean backup) {
    Map<Phase, Long> phases = new EnumMap<>(Phase.class);
    phases.put(type == TaskType.MAP ? Phase.MAP : Phase.SHUFFLE, ago(secs));
    return new AttemptSnapshot(id, node, AttemptState.RUNNING, progress, phase, ago(secs), -1, phases,
        backup);
  }

  JobBuilder running(String id, TaskType type, String node, double progress, double secs) {
    return running(id, type, node, progress, secs, phaseOf(type, progress));
  }

  JobBuilder running(String id, TaskType type, String node, double progress, double secs, Phase phase) {
    tasks.add(new TaskSnapshot(id, type, TaskState.RUNNING,
        List.of(runningAttempt(id + "_0", type, node, progress, secs, phase, false)), false));
    return this;
  }

  /** A running task that already has a backup in flight. */
  JobBuilder runningWithBackup(String id, TaskType type, String node, double progress, double secs,
      String backupNode, double backupProgress, double backupSecs) {
    tasks.add(new TaskSnapshot(id, type, TaskState.RUNNING, List.of(
        runningAttempt(id + "_0", type, node, progress, secs, phaseOf(type, progress), false),
        runningAttempt(id + "_1", type, backupNode, backupProgress, backupSecs,
            phaseOf(type, backupProgress), true)), true));
    return this;
  }

  /** A task that succeeded just now after running {@code secs}, with no phase times. */
  JobBuilder succeeded(String id, TaskType type, String node, double secs) {
    return succeeded(id, type, node, secs, Map.of());
  }

  /** A map that succeeded just now: map function for {@code mapSecs}, then sort. */
  JobBuilder succeededMap(String id, String node, double mapSecs, double sortSecs) {
    return succeeded(id, TaskType.MAP, node, mapSecs + sortSecs,
        Map.of(Phase.MAP, ago(mapSecs + sortSecs), Phase.SORT, ago(sortSecs)));
  }

  /** A reduce that succeeded just now: copy, sort, reduce for the given seconds. */
  JobBuilder succeededReduce(String id, String node, double copy, double sort, double reduce) {
    return succeeded(id, TaskType.REDUCE, node, copy + sort + reduce, Map.of(
        Phase.SHUFFLE, ago(copy + sort + reduce), Phase.SORT, ago(sort + reduce), Phase.REDUCE, ago(reduce)));
  }

  private JobBuilder succeeded(String id, TaskType type, String node, double secs, Map<Phase, Long> phases) {
    AttemptSnapshot a = new AttemptSnapshot(id + "_0", node, AttemptState.SUCCEEDED, 1.0, Phase.CLEANUP,
        ago(secs), NOW, phases, false);
    tasks.add(new TaskSnapshot(id, type, TaskState.SUCCEEDED, List.of(a), false));
    return this;
  }

  JobBuilder pending(String id, TaskType type) {
    tasks.add(new TaskSnapshot(id, type, TaskState.PENDING, List.of(), false));
    return this;
  }

  JobBuilder task(TaskSnapshot t) {
    tasks.add(t);
    return this;
  }

  JobSnapshot build() {
    return new JobSnapshot(NOW, tasks);
  }
}
