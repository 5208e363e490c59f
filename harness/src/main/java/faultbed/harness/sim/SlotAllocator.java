package faultbed.harness.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptContainerAssignedEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptKillEvent;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocatorEvent;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerRequestEvent;
import org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.event.EventHandler;

/**
 * Stands in for RMContainerAllocator and the ResourceManager's scheduler together: it takes the
 * attempts' container requests and, every heartbeat, fills free slots node by node (a rotating
 * start), at most one off-switch container a node as the CapacityScheduler gives them: maps whose
 * earlier attempt failed first, then reduces once slow-start allows and within
 * the share RMContainerAllocator's ramp-up gives them, then maps with a replica of their split on the node, then any map. The replica
 * locations come from the simulation, not from the requests: Hadoop is given splits without hosts
 * (see Simulation). When maps wait and only reduces hold containers it preempts reduces as
 * RMContainerAllocator.preemptReducesIfNeeded does. Hadoop's own RMContainerAllocator can run
 * against a simulated scheduler too, but it needs an MRAppMaster instance and leaves a thread
 * behind, so this engine does not carry it; node blacklisting is therefore absent.
 */
final class SlotAllocator implements EventHandler<ContainerAllocatorEvent> {
  /** Visiting nodes from a different start each heartbeat spreads work like a real scheduler's order. */
  private static final int ROTATION_STEP = 7;

  private final List<LiveNode> nodes;
  private final Containers containers;
  private final Job job;
  private final EventHandler<Event> events;
  private final float slowStart;
  private final float reduceRampUpLimit;
  private final LinkedHashMap<TaskAttemptId, ContainerRequestEvent> failedMaps = new LinkedHashMap<>();
  private final LinkedHashMap<TaskAttemptId, ContainerRequestEvent> maps = new LinkedHashMap<>();
  private final LinkedHashMap<TaskAttemptId, ContainerRequestEvent> reduces = new LinkedHashMap<>();
  private final Map<String, ArrayDeque<TaskAttemptId>> mapsByHost = new HashMap<>();
  private final Map<TaskAttemptId, Long> requestedAt = new HashMap<>();
  private final Set<TaskAttemptId> preempting = new HashSet<>();
  private final LongSupplier clock;
  private final long unconditionalPreemptDelayMs;
  private final long noHeadroomPreemptDelayMs;
  private final float preemptionLimit;
  private final String[][] replicasByMap;
  private final Map<String, String> rackOf = new HashMap<>();
  private int rotation;

  SlotAllocator(List<LiveNode> nodes, Containers containers, Job job, Configuration conf,
      String[][] replicasByMap, EventHandler<Event> events, LongSupplier clock) {
    this.clock = clock;
    this.unconditionalPreemptDelayMs = 1000L * conf.getInt(MRJobConfig.MR_JOB_REDUCER_UNCONDITIONAL_PREEMPT_DELAY_SEC,
        MRJobConfig.DEFAULT_MR_JOB_REDUCER_UNCONDITIONAL_PREEMPT_DELAY_SEC);
    this.noHeadroomPreemptDelayMs = 1000L * conf.getInt(MRJobConfig.MR_JOB_REDUCER_PREEMPT_DELAY_SEC,
        MRJobConfig.DEFAULT_MR_JOB_REDUCER_PREEMPT_DELAY_SEC);
    this.preemptionLimit = conf.getFloat(MRJobConfig.MR_AM_JOB_REDUCE_PREEMPTION_LIMIT,
        MRJobConfig.DEFAULT_MR_AM_JOB_REDUCE_PREEMPTION_LIMIT);
    this.replicasByMap = replicasByMap;
    this.nodes = nodes;
    for (LiveNode node : nodes) {
      rackOf.put(node.node.address(), node.node.rack());
    }
    this.containers = containers;
    this.job = job;
    this.events = events;
    this.slowStart = conf.getFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART,
        RMContainerAllocator.DEFAULT_COMPLETED_MAPS_PERCENT_FOR_REDUCE_SLOWSTART);
    this.reduceRampUpLimit = conf.getFloat(MRJobConfig.MR_AM_JOB_REDUCE_RAMPUP_UP_LIMIT,
        MRJobConfig.DEFAULT_MR_AM_JOB_REDUCE_RAMP_UP_LIMIT);
  }

  @Override
  public void handle(ContainerAllocatorEvent event) {
    TaskAttemptId attempt = event.getAttemptID();
    switch (event.getType()) {
      case CONTAINER_REQ -> {
        ContainerRequestEvent request = (ContainerRequestEvent) event;
        requestedAt.put(attempt, clock.getAsLong());
        if (attempt.getTaskId().getTaskType() == TaskType.REDUCE) {
          reduces.put(attempt, request);
        } else if (request.getEarlierAttemptFailed()) {
          failedMaps.put(attempt, request);
        } else {
          maps.put(attempt, request);
          for (String host : replicasByMap[attempt.getTaskId().getId()]) {
            mapsByHost.computeIfAbsent(host, k -> new ArrayDeque<>()).add(attempt);
          }
        }
      }
      case CONTAINER_DEALLOCATE -> {
        requestedAt.remove(attempt);
        preempting.remove(attempt);
        if (maps.remove(attempt) == null && failedMaps.remove(attempt) == null
            && reduces.remove(attempt) == null) {
          Containers.Held held = containers.byAttempt(attempt);
          if (held != null) {
            containers.release(held);
          }
        }
      }
      default -> { }
    }
  }

  /** One scheduler heartbeat: assign every free slot it can. */
  void heartbeat() {
    boolean reducesAllowed = job.getCompletedMaps() >= Math.ceil(slowStart * job.getTotalMaps());
    int liveSlots = 0;
    for (LiveNode node : nodes) {
      // the RM counts a node until it is LOST (a crashed, frozen or cut-off one) or SHUTDOWN (a stopped one):
      // its containers are still the job's, and its room the cluster's, for all it knows
      liveSlots += node.lost ? 0 : node.node.slots();
    }
    // RMContainerAllocator schedules no new reduce in a heartbeat that preempted one
    int reduceCap = preemptReducesIfNeeded(liveSlots) ? 0
        : maps.isEmpty() && failedMaps.isEmpty() ? Integer.MAX_VALUE : reduceRampUp(liveSlots);
    for (int k = 0; k < nodes.size(); k++) {
      LiveNode node = nodes.get((k + rotation) % nodes.size());
      boolean offSwitch = false;
      // the CapacityScheduler assigns nothing more on a node in the heartbeat it gave an off-switch
      // container there (per-node-heartbeat.maximum-offswitch-assignments, 1 by default): a reduce, or a
      // map with no replica in the node's rack, so reduces spread over the nodes with room
      while (!offSwitch && node.schedulable() && node.freeSlots > 0) {
        TaskAttemptId pick = first(failedMaps);
        offSwitch = pick != null; // a failed map's request names no host or rack
        if (pick == null && reducesAllowed && containers.heldByReduces() < reduceCap) {
          pick = first(reduces);
          offSwitch = pick != null;
        }
        if (pick == null) {
          pick = nodeLocalMap(node);
        }
        if (pick == null) {
          pick = first(maps);
          offSwitch = pick != null && !replicaInRack(pick, node);
        }
        if (pick == null) {
          break;
        }
        requestedAt.remove(pick);
        events.handle(new TaskAttemptContainerAssignedEvent(pick, containers.allocate(pick, node), null));
      }
    }
    rotation = (rotation + ROTATION_STEP) % nodes.size();
  }

  /**
   * How many reduces may hold containers while maps wait, as RMContainerAllocator.scheduleReduces
   * ramps them up: the completed maps' share of the job's containers, up to the ramp-up limit, plus
   * whatever of the maps' share the maps scheduled and running do not fill (the AM's own container
   * is not the job's to share).
   */
  private int reduceRampUp(int liveSlots) {
    int total = liveSlots - 1;
    float completed = job.getTotalMaps() == 0 ? 1f : job.getCompletedMaps() / (float) job.getTotalMaps();
    double reduces = Math.min(completed, reduceRampUpLimit) * total;
    int mapsScheduled = maps.size() + failedMaps.size() + containers.heldByMaps();
    double mapShare = total - reduces;
    if (mapShare > mapsScheduled) {
      reduces += mapShare - mapsScheduled;
    }
    return (int) Math.floor(reduces);
  }

  /**
   * RMContainerAllocator.preemptReducesIfNeeded, a container a slot: when maps wait and no map holds
   * a container, reduces (least progress first) are killed to make room: once maps have waited the
   * unconditional delay (300 s by default) whatever the room, or, when no slot is free beyond the
   * reduces waiting for one, once they have waited the no-headroom delay (0 by default). Without it,
   * reduces waiting for a lost node's maps could hold every slot those maps need.
   */
  private boolean preemptReducesIfNeeded(int liveSlots) {
    preempting.removeIf(a -> containers.byAttempt(a) == null || containers.byAttempt(a).released);
    if (containers.heldByReduces() == 0 || containers.heldByMaps() > 0 || (maps.isEmpty() && failedMaps.isEmpty())) {
      return false;
    }
    if (unconditionalPreemptDelayMs >= 0) {
      int hanging = hangingMaps(unconditionalPreemptDelayMs);
      if (hanging > 0) {
        preempt(hanging, liveSlots);
        return true;
      }
    }
    int free = 0;
    for (LiveNode node : nodes) {
      free += node.schedulable() ? node.freeSlots : 0;
    }
    if (free - reduces.size() > 0) {
      return false;
    }
    int hanging = hangingMaps(noHeadroomPreemptDelayMs);
    if (hanging > 0) {
      preempt(hanging, liveSlots);
      return true;
    }
    return false;
  }

  private int hangingMaps(long delayMs) {
    if (delayMs <= 0) {
      return maps.size() + failedMaps.size();
    }
    long now = clock.getAsLong();
    int hanging = 0;
    for (Map<TaskAttemptId, ContainerRequestEvent> pending : List.of(maps, failedMaps)) {
      for (TaskAttemptId attempt : pending.keySet()) {
        if (now - requestedAt.getOrDefault(attempt, now) > delayMs) {
          hanging++;
        }
      }
    }
    return hanging;
  }

  private void preempt(int hangingMaps, int liveSlots) {
    int limit = (int) Math.ceil((liveSlots - 1) * preemptionLimit);
    int toPreempt = Math.min(Math.max(1, limit), hangingMaps) - preempting.size();
    List<TaskAttemptId> candidates = new ArrayList<>(containers.reducesHolding());
    candidates.removeAll(preempting);
    candidates.sort(Comparator.comparingDouble(a -> job.getTask(a.getTaskId()).getAttempt(a).getProgress()));
    for (int i = 0; i < toPreempt && i < candidates.size(); i++) {
      preempting.add(candidates.get(i));
      events.handle(new TaskAttemptKillEvent(candidates.get(i),
          RMContainerAllocator.RAMPDOWN_DIAGNOSTIC));
    }
  }

  private boolean replicaInRack(TaskAttemptId map, LiveNode node) {
    for (String host : replicasByMap[map.getTaskId().getId()]) {
      if (node.node.rack().equals(rackOf.get(host))) {
        return true;
      }
    }
    return false;
  }

  private TaskAttemptId nodeLocalMap(LiveNode node) {
    ArrayDeque<TaskAttemptId> local = mapsByHost.get(node.node.address());
    while (local != null && !local.isEmpty()) {
      TaskAttemptId attempt = local.poll();
      if (maps.remove(attempt) != null) {
        return attempt;
      }
    }
    return null;
  }

  private static TaskAttemptId first(LinkedHashMap<TaskAttemptId, ContainerRequestEvent> pending) {
    Iterator<TaskAttemptId> it = pending.keySet().iterator();
    if (!it.hasNext()) {
      return null;
    }
    TaskAttemptId attempt = it.next();
    it.remove();
    return attempt;
  }
}
