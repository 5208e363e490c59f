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
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptDiagnosticsUpdateEvent;
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
 * and a node that dies takes its containers with it. A node whose heartbeats stop (dead or frozen) is
 * LOST at the first of the ResourceManager's liveness checks (every third of the expiry, on a grid
 * whose phase the run's seed draws) that finds it silent for longer than the expiry, as
 * NMLivelinessMonitor does; the AM then hears it is LOST and its attempts are killed, as
 * RMContainerAllocator.handleUpdatedNodes would do. A frozen or cut-off node back before that carries
 * on; one back after it is told to resync, which kills its containers, and registers again, empty.
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
  /** Where on its period the liveness monitor's first check falls, in virtual milliseconds. */
  private long livenessPhase;
  /** How long the AM's ContainerLauncher keeps trying a NodeManager that does not answer. */
  private final long connectMaxWaitMs;
  /** What the ResourceManager said of nodes, as the record's node transitions (times in virtual ms). */
  final List<NodeTransition> transitions = new ArrayList<>();
  /** Per node, bumped whenever its heartbeats stop or resume, so a pending expiry knows it is stale. */
  private final java.util.Map<LiveNode, Integer> silences = new java.util.HashMap<>();

  NodeManagers(EventLoop loop, EventHandler<Event> events, JobId jobId, Containers containers,
      TaskProcesses processes, Latencies latencies, long livenessPhase, long connectMaxWaitMs) {
    this.loop = loop;
    this.events = events;
    this.jobId = jobId;
    this.containers = containers;
    this.processes = processes;
    this.latencies = latencies;
    this.livenessPhase = livenessPhase;
    this.connectMaxWaitMs = connectMaxWaitMs;
  }

  @Override
  public void handle(ContainerLauncherEvent event) {
    Containers.Held held = containers.byId(event.getContainerID());
    switch (event.getType()) {
      case CONTAINER_REMOTE_LAUNCH -> {
        if (!held.node.alive) {
          launchFails(held);
          return;
        }
        loop.after(latencies.launch(), () -> {
          boolean[] settled = {false};
          if (held.node.cutOff) {
            // the launcher's connect retries until the NodeManager answers or its wait runs out
            loop.after(connectMaxWaitMs, () -> {
              if (!settled[0] && !held.released) {
                settled[0] = true;
                failLaunch(held);
              }
            });
          }
          held.node.whenReachable(() -> {
            if (settled[0] || held.released) {
              return;
            }
            settled[0] = true;
            if (!held.node.alive) {
              launchFails(held);
              return;
            }
            events.handle(new TaskAttemptContainerLaunchedEvent(held.attempt, SHUFFLE_PORT));
            processes.start(held);
          });
        });
      }
      case CONTAINER_REMOTE_CLEANUP -> {
        stopContainer(held);
        loop.after(latencies.cleanup(), () ->
            events.handle(new TaskAttemptEvent(held.attempt, TaskAttemptEventType.TA_CONTAINER_CLEANED)));
      }
      case CONTAINER_COMPLETED -> containers.release(held);
      default -> { }
    }
  }

  /** A container whose node died before it started: the launcher retries the NodeManager, then fails the attempt. */
  private void launchFails(Containers.Held held) {
    loop.after(connectMaxWaitMs, () -> failLaunch(held));
  }

  private void failLaunch(Containers.Held held) {
    events.handle(new TaskAttemptDiagnosticsUpdateEvent(held.attempt, "Container launch failed for "
        + held.id + " : java.net.ConnectException: " + held.node.nodeId + " does not answer"));
    events.handle(new TaskAttemptEvent(held.attempt, TaskAttemptEventType.TA_CONTAINER_LAUNCH_FAILED));
  }

  /** TaskAttemptImpl registers a finished attempt here and waits for its container to exit. */
  TaskAttemptFinishingMonitor finishingMonitor() {
    return new ExitingContainers();
  }

  /**
   * The node dies with its containers. A crashed one is LOST at the ResourceManager's liveness
   * expiry, its shuffle port refusing connections or, {@code silent}, not answering at all; one that
   * was stopped ({@code announced}) told the RM it was going, and is SHUTDOWN at once.
   */
  void kill(LiveNode node, boolean announced, boolean silent) {
    node.alive = false;
    node.deathTime = loop.now();
    node.freeSlots = 0;
    node.frozen = false;
    node.onThaw.clear();
    node.cutOff = false;
    node.onReconnect.clear();
    node.server = silent ? LiveNode.Server.SILENT : LiveNode.Server.REFUSING;
    processes.serverDown(node);
    if (announced) {
      reportLost(node, NodeState.SHUTDOWN);
    } else {
      heartbeatsStop(node);
    }
  }

  /** Every process of the node stops where it is (SIGSTOP): its tasks, its shuffle server, its heartbeats. */
  void freeze(LiveNode node) {
    node.frozen = true;
    node.server = LiveNode.Server.STALLED;
    processes.serverDown(node);
    heartbeatsStop(node);
  }

  /** The liveness monitor's checks fall on the grid through {@code at} (a real run's, replayed). */
  void livenessCheckAt(long at) {
    livenessPhase = at;
  }

  /** The node's processes carry on (SIGCONT); if the RM declared it LOST meanwhile, it resyncs and comes back empty. */
  void thaw(LiveNode node) {
    if (!node.frozen) {
      return;
    }
    node.frozen = false;
    List<Runnable> steps = new ArrayList<>(node.onThaw);
    node.onThaw.clear();
    if (!backInTouch(node)) {
      steps.forEach(Runnable::run);
    }
  }

  /**
   * Nothing gets to or from the NodeManager's ports and its heartbeats stop (a blackhole's rules on
   * them, as the mini and remote backends make it): its shuffle server is silent, the AM's launcher
   * waits on it; its tasks go on and report to the AM, whose ports are not its.
   */
  void cutOff(LiveNode node) {
    if (!node.alive || node.cutOff) {
      return;
    }
    node.cutOff = true;
    node.server = LiveNode.Server.SILENT;
    processes.serverDown(node);
    heartbeatsStop(node);
  }

  /** The rules are gone: its heartbeats and server carry on, or, LOST meanwhile, it resyncs and comes back empty. */
  void reconnect(LiveNode node) {
    if (!node.cutOff) {
      return;
    }
    node.cutOff = false;
    List<Runnable> steps = new ArrayList<>(node.onReconnect);
    node.onReconnect.clear();
    if (!backInTouch(node)) {
      steps.forEach(Runnable::run);
    }
  }

  /**
   * The node's heartbeats reach the RM again; returns whether it had been LOST, in which case the RM
   * tells it to resync: its containers are killed and it registers again with nothing running.
   */
  private boolean backInTouch(LiveNode node) {
    silences.merge(node, 1, Integer::sum);
    boolean wasLost = node.lost;
    if (wasLost) {
      for (Containers.Held held : containers.heldOn(node)) {
        stopContainer(held);
      }
      node.lost = false;
      node.freeSlots = node.node.slots();
      transitions.add(new NodeTransition(node.index, node.nodeId.toString(), "LOST", "RUNNING", loop.now()));
    }
    processes.serverUp(node);
    return wasLost;
  }

  /** NMLivelinessMonitor: a check every third of the expiry; expired once silent for longer than it. */
  private void heartbeatsStop(LiveNode node) {
    int silence = silences.merge(node, 1, Integer::sum);
    long expiry = latencies.nodeExpiry();
    long period = Math.max(1, expiry / 3);
    long due = loop.now() + expiry;
    long check = livenessPhase + (Math.floorDiv(due - livenessPhase, period) + 1) * period;
    loop.at(check, () -> {
      if (silences.get(node) == silence && !node.lost) {
        reportLost(node, NodeState.LOST);
      }
    });
  }

  private void reportLost(LiveNode node, NodeState state) {
    node.lost = true;
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

  /** A frozen or cut-off NodeManager reports a container's exit once it can be heard again. */
  private static void awake(Containers.Held held, Runnable step) {
    if (held == null) {
      step.run();
    } else {
      held.node.whenReachable(step);
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
      Containers.Held exiting = containers.byAttempt(attempt);
      loop.after(latencies.containerExit(), () -> awake(exiting, () -> {
        if (waiting.remove(attempt)) {
          Containers.Held held = containers.byAttempt(attempt);
          if (held != null) {
            stopContainer(held);
          }
          events.handle(new TaskAttemptEvent(attempt, TaskAttemptEventType.TA_CONTAINER_COMPLETED));
        }
      }));
    }

    @Override
    public synchronized void unregister(TaskAttemptId attempt) {
      waiting.remove(attempt);
    }
  }
}
