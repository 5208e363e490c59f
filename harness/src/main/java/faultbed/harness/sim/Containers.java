package faultbed.harness.sim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;

/** The containers handed to the job: which attempt runs where, and which slots they hold. */
final class Containers {
  /** One container; released once its slot is free again. */
  static final class Held {
    final ContainerId id;
    final LiveNode node;
    final TaskAttemptId attempt;
    boolean released;

    Held(ContainerId id, LiveNode node, TaskAttemptId attempt) {
      this.id = id;
      this.node = node;
      this.attempt = attempt;
    }

    boolean isReduce() {
      return attempt.getTaskId().getTaskType() == TaskType.REDUCE;
    }
  }

  private static final Resource SIZE = Resource.newInstance(1024, 1);
  private static final Priority PRIORITY = Priority.newInstance(20);

  private final ApplicationAttemptId appAttemptId;
  private final Map<ContainerId, Held> byId = new HashMap<>();
  private final Map<TaskAttemptId, Held> byAttempt = new HashMap<>();
  private long sequence;
  private int heldByReduces;
  private int heldByMaps;

  Containers(ApplicationAttemptId appAttemptId) {
    this.appAttemptId = appAttemptId;
  }

  /** Takes a slot on the node for the attempt; returns the YARN container to hand to the attempt. */
  Container allocate(TaskAttemptId attempt, LiveNode node) {
    node.freeSlots--;
    Held held = new Held(ContainerId.newContainerId(appAttemptId, ++sequence), node, attempt);
    byId.put(held.id, held);
    byAttempt.put(attempt, held);
    if (held.isReduce()) {
      heldByReduces++;
    } else {
      heldByMaps++;
    }
    return Container.newInstance(held.id, node.nodeId, node.httpAddress, SIZE, PRIORITY, null);
  }

  void release(Held held) {
    if (held.released) {
      return;
    }
    held.released = true;
    if (held.node.alive) {
      held.node.freeSlots++;
    }
    if (held.isReduce()) {
      heldByReduces--;
    } else {
      heldByMaps--;
    }
  }

  Held byId(ContainerId id) {
    return byId.get(id);
  }

  Held byAttempt(TaskAttemptId attempt) {
    return byAttempt.get(attempt);
  }

  int heldByReduces() {
    return heldByReduces;
  }

  /** Maps holding a container now. */
  int heldByMaps() {
    return heldByMaps;
  }

  /** The reduces holding a container now, oldest first. */
  List<TaskAttemptId> reducesHolding() {
    List<Held> held = new ArrayList<>();
    for (Held h : byId.values()) {
      if (h.isReduce() && !h.released) {
        held.add(h);
      }
    }
    held.sort(Comparator.comparingLong(h -> h.id.getContainerId()));
    return held.stream().map(h -> h.attempt).toList();
  }

  /** The node's unreleased containers, oldest first. */
  List<Held> heldOn(LiveNode node) {
    List<Held> held = new ArrayList<>();
    for (Held h : byId.values()) {
      if (h.node == node && !h.released) {
        held.add(h);
      }
    }
    held.sort(Comparator.comparingLong(h -> h.id.getContainerId()));
    return held;
  }
}
