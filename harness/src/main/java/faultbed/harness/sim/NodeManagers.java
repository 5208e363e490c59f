package faultbed.harness.sim;

import faultbed.results.RunRecord.NodeTransition;
import java.util.ArrayList;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.TaskAttemptFinishingMonitor;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobUpdatedNodesEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptContainerLaunchedEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEventType;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptKillEvent;
import org.apache.hadoop.mapreduce.v2.app.launcher.ContainerLauncherEvent;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.event.EventHandler;

/**
 * The NodeManagers and what the ResourceManager reports about them: containers launch and stop when
 * the AM's ContainerLauncher asks, a finished attempt's container exits shortly after it is done,
 * and a node that dies takes its containers with it; after the liveness expiry the AM hears the node
 * is LOST and its attempts are killed, as RMContainerAllocator.handleUpdatedNodes would do.
 */
final class NodeManagers implements EventHandler<ContainerLauncherEvent> {
  /** The shuffle port a launched task reports; only its presence matters. */
  private static final int SHUFFLE_PORT = 13562;

  private final EventLoop loop;
  private final EventHandler<Event> events;
  private final JobId jobId;
  private final Containers containers;
  private final TaskProcesses processes;
  private final Latencies latencies;
  /** What the ResourceManager said of nodes, as the record's node transitions (times in virtual ms). */
  final List<NodeTransition> transitions = new ArrayList<>();

  NodeManagers(EventLoop loop, EventHandler<Event> events, JobId jobId, Containers containers,
      TaskProcesses processes, Latencies latencies) {
    this.loop = loop;
    this.events = events;
    this.jobId = jobId;
    this.containers = containers;
    this.processes = processes;
    this.latencies = latencies;
  }

  @Override
  public void handle(ContainerLauncherEvent event) {
    Containers.Held held = containers.byId(event.getContainerID());
    switch (event.getType()) {
      case CONTAINER_REMOTE_LAUNCH -> loop.after(latencies.launch(), () -> {
        if (!held.released && held.node.alive) {
          events.handle(new TaskAttemptContainerLaunchedEvent(held.attempt, SHUFFLE_PORT));
          processes.start(held);
        }
      });
      case CONTAINER_REMOTE_CLEANUP -> {
        stopContainer(held);
        loop.after(latencies.cleanup(), () ->
            events.handle(new TaskAttemptEvent(held.attempt, TaskAttemptEventType.TA_CONTAINER_CLEANED)));
      }
      case CONTAINER_COMPLETED -> containers.release(held);
      default -> { }
    }
  }

  /** TaskAttemptImpl registers a finished attempt here and waits for its container to exit. */
  TaskAttemptFinishingMonitor finishingMonitor() {
    return new ExitingContainers();
  }

  /**
   * The node dies with its containers. A crashed one is LOST at the ResourceManager's liveness
   * expiry; one that was stopped ({@code announced}) told the RM it was going, and is SHUTDOWN at once.
   */
  void kill(LiveNode node, boolean announced) {
    node.alive = false;
    node.deathTime = loop.now();
    node.freeSlots = 0;
    processes.nodeDied(node);
    if (announced) {
      reportLost(node, NodeState.SHUTDOWN);
    } else {
      loop.after(latencies.nodeExpiry(), () -> reportLost(node, NodeState.LOST));
    }
  }

  private void reportLost(LiveNode node, NodeState state) {
    Resource capability = Resource.newInstance(node.node.slots() * 1024, node.node.slots());
    transitions.add(new NodeTransition(node.index, node.nodeId.toString(), "RUNNING", state.toString(), loop.now()));
    NodeReport report = NodeReport.newInstance(node.nodeId, state, node.httpAddress, node.node.rack(),
        Resource.newInstance(0, 0), capability, 0, state.toString().toLowerCase(java.util.Locale.ROOT), loop.now());
    events.handle(new JobUpdatedNodesEvent(jobId, List.of(report)));
    for (Containers.Held held : containers.heldOn(node)) {
      boolean isMap = held.attempt.getTaskId().getTaskType() == TaskType.MAP;
      events.handle(new TaskAttemptKillEvent(held.attempt,
          "TaskAttempt killed because it ran on unusable node" + node.nodeId, isMap));
    }
  }

  private void stopContainer(Containers.Held held) {
    processes.stop(held.attempt);
    containers.release(held);
  }

  /**
   * Hadoop's monitor checks on a thread with a wall clock; here the container simply exits after the
   * exit latency and the AM hears it completed (the NM to RM to allocator path, in one step).
   */
  private final class ExitingContainers extends TaskAttemptFinishingMonitor {
    private final Set<TaskAttemptId> waiting = new HashSet<>();

    ExitingContainers() {
      super(events);
    }

    @Override
    public synchronized void register(TaskAttemptId attempt) {
      waiting.add(attempt);
      loop.after(latencies.containerExit(), () -> {
        if (waiting.remove(attempt)) {
          Containers.Held held = containers.byAttempt(attempt);
          if (held != null) {
            stopContainer(held);
          }
          events.handle(new TaskAttemptEvent(attempt, TaskAttemptEventType.TA_CONTAINER_COMPLETED));
        }
      });
    }

    @Override
    public synchronized void unregister(TaskAttemptId attempt) {
      waiting.remove(attempt);
    }
  }
}
