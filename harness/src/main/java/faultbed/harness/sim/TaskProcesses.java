package faultbed.harness.sim;

import faultbed.harness.timemodel.CpuSharing;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.v2.api.records.Phase;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptCompletionEvent;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptCompletionEventStatus;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.TaskHeartbeatHandler;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEventType;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.event.EventHandler;

/**
 * The task JVMs: what a launched attempt tells the AM over the umbilical. A map reports progress
 * until its time is up, then is done. A reduce shuffles until every map output is available (plus a
 * lag), sorts, reduces, then asks to commit and polls canCommit as ReduceTask does. Map outputs
 * follow the AM's own completion events, the stream reducers poll: a success makes an output
 * available and any later event for that map makes it obsolete. While shuffling, a reduce reports a
 * fetch failure for every output on a dead node that it had not copied before the node died.
 */
final class TaskProcesses {
  private static final Counters NO_COUNTERS = new Counters();
  /** ReduceTask polls the AM's canCommit once a second. */
  private static final long COMMIT_POLL_MILLIS = 1_000;

  /** One attempt's running process. */
  private static final class Process {
    final TaskAttemptId attempt;
    final Containers.Held container;
    final long launch;
    /** The CPU work of a map, or of a reduce's reduce phase, in milliseconds of one core. */
    double work;
    /** A map's work before it reports progress, and to the end of its map phase (the rest is its sort). */
    double startupWork;
    double mapPhaseEnd;
    /** When its map phase ended (its sort began); -1 before. */
    long mapFinished = -1;
    /** Work left at {@code since}, done from then at {@code rate} cores while it runs. */
    double workLeft;
    double rate;
    long since;
    /** It is using the CPU: a map from launch, a reduce in its reduce phase, until its work is done. */
    boolean runnable;
    boolean stopped;
    boolean workDone;
    long shuffleEnd = -1;
    long sortEnd;
    long reduceEnd;
    /** Bumped when a scheduled end no longer holds (a reduce's shuffle restarted, the node's speed changed). */
    int generation;

    Process(TaskAttemptId attempt, Containers.Held container, long launch) {
      this.attempt = attempt;
      this.container = container;
      this.launch = launch;
      this.since = launch;
    }

    /** Work left now, at the rate it has had since {@code since}. */
    double workLeft(long now) {
      return runnable ? Math.max(0, workLeft - rate * (now - since)) : workLeft;
    }

    /**
     * What the task would report now. A map reports none while it starts, then rises to 2/3 through
     * its map phase and holds there while it sorts, as MapTask's phases weigh them; a reduce's
     * reduce phase rises evenly.
     */
    float progress(long now) {
      if (work <= 0) {
        return 0.999f;
      }
      double done = work - workLeft(now);
      if (!isMap()) {
        return (float) Math.min(0.999, done / work);
      }
      if (done < startupWork) {
        return 0f;
      }
      double mapPhase = mapPhaseEnd - startupWork;
      return done >= mapPhaseEnd || mapPhase <= 0 ? 2f / 3 : (float) ((done - startupWork) / mapPhase * 2 / 3);
    }

    boolean isMap() {
      return attempt.getTaskId().getTaskType() == TaskType.MAP;
    }

    boolean live() {
      return !stopped && container.node.alive;
    }
  }

  /** A map's output on its node; counted while a reduce could fetch it. */
  private record Output(TaskAttemptId attempt, LiveNode node, long since) { }

  private final EventLoop loop;
  private final EventHandler<Event> events;
  private final Job job;
  private final Containers containers;
  private final TaskTimes times;
  private final Latencies latencies;
  private final TaskHeartbeatHandler heartbeats;
  private final Map<TaskAttemptId, Process> running = new HashMap<>();
  private final List<Process> runningReduces = new ArrayList<>();
  private final Output[] outputs;
  private final List<Output> lostOutputs = new ArrayList<>();
  private int availableOutputs;

  TaskProcesses(EventLoop loop, EventHandler<Event> events, Job job, Containers containers, TaskTimes times,
      Latencies latencies, TaskHeartbeatHandler heartbeats, int maps) {
    this.loop = loop;
    this.events = events;
    this.job = job;
    this.containers = containers;
    this.times = times;
    this.latencies = latencies;
    this.heartbeats = heartbeats;
    this.outputs = new Output[maps];
  }

  void start(Containers.Held container) {
    Process process = new Process(container.attempt, container, loop.now());
    running.put(process.attempt, process);
    if (process.isMap()) {
      TaskTimes.MapWork work = times.mapWork(process.attempt, container.node.node);
      process.work = work.total();
      process.startupWork = work.startup();
      process.mapPhaseEnd = work.startup() + work.map();
      process.workLeft = process.work;
      process.runnable = true;
      reshare(container.node.machine);
    } else {
      runningReduces.add(process);
      scheduleReduceEnd(process);
    }
    loop.after(latencies.report(), () -> report(process));
  }

  /** The container's process is gone: stopped by the AM, exited, or its node died. */
  void stop(TaskAttemptId attempt) {
    Process process = running.remove(attempt);
    if (process != null) {
      process.stopped = true;
      runningReduces.remove(process);
      if (process.runnable) {
        process.runnable = false;
        reshare(process.container.node.machine);
      }
    }
  }

  /**
   * The machine's runnable threads changed (a task started, finished or stopped, a fault changed a
   * node's load or limit): every runnable task there takes its new share of the cores from now, its
   * work left carried over, and its end moves accordingly.
   */
  void reshare(Machine machine) {
    long now = loop.now();
    List<CpuSharing.NodeLoad> loads = new ArrayList<>();
    int[] tasks = new int[machine.nodes.size()];
    List<Process> runnable = new ArrayList<>();
    for (Process process : running.values()) {
      if (process.runnable && process.live() && process.container.node.machine == machine) {
        runnable.add(process);
        tasks[machine.nodes.indexOf(process.container.node)]++;
      }
    }
    for (int i = 0; i < tasks.length; i++) {
      LiveNode node = machine.nodes.get(i);
      loads.add(new CpuSharing.NodeLoad(node.alive ? tasks[i] + node.spinners : 0, node.cpuLimit));
    }
    double[] perThread = CpuSharing.perThread(loads, machine.cores);
    runnable.sort(java.util.Comparator.comparing(p -> p.attempt.toString()));
    for (Process process : runnable) {
      LiveNode node = process.container.node;
      process.workLeft = process.workLeft(now);
      process.since = now;
      process.rate = perThread[machine.nodes.indexOf(node)] / node.otherSlowdown;
      double rate = Math.max(process.rate, 1e-9);
      long end = now + (long) Math.ceil(process.workLeft / rate);
      int generation = ++process.generation;
      loop.at(end, () -> {
        if (process.generation == generation) {
          workDone(process);
        }
      });
      if (process.isMap() && process.mapFinished < 0) {
        double toSort = process.workLeft - (process.work - process.mapPhaseEnd);
        loop.at(now + Math.max(0, (long) Math.ceil(toSort / rate)), () -> {
          if (process.generation == generation && process.mapFinished < 0) {
            process.mapFinished = loop.now();
          }
        });
      }
    }
  }

  private void workDone(Process process) {
    if (!process.live()) {
      return;
    }
    process.workLeft = 0;
    process.runnable = false;
    reshare(process.container.node.machine);
    if (process.isMap()) {
      mapDone(process);
    } else {
      process.reduceEnd = loop.now();
      reduceDone(process);
    }
  }

  /** Attempts running on the node, maps and reduces. */
  int running(LiveNode node, TaskType type) {
    int n = 0;
    for (Process process : running.values()) {
      if (process.container.node == node && process.live() && process.attempt.getTaskId().getTaskType() == type) {
        n++;
      }
    }
    return n;
  }

  /** Map outputs the node holds that reducers would fetch now. */
  int outputsOn(LiveNode node) {
    int n = 0;
    for (Output output : outputs) {
      if (output != null && output.node == node) {
        n++;
      }
    }
    return n;
  }

  /** Whether some reduce is copying map outputs. */
  boolean reducerInShuffle() {
    long now = loop.now();
    return runningReduces.stream().anyMatch(r -> r.live() && (r.shuffleEnd < 0 || now < r.shuffleEnd));
  }

  /** Reads the job's completion events as they are dispatched, as reducers do by polling. */
  void completionEvent(TaskAttemptCompletionEvent event) {
    TaskAttemptId attempt = event.getAttemptId();
    if (attempt.getTaskId().getTaskType() != TaskType.MAP) {
      return;
    }
    int index = attempt.getTaskId().getId();
    if (outputs[index] != null && outputs[index].node.alive) {
      availableOutputs--;
    }
    outputs[index] = null;
    if (event.getStatus() == TaskAttemptCompletionEventStatus.SUCCEEDED) {
      LiveNode node = containers.byAttempt(attempt).node;
      outputs[index] = new Output(attempt, node, loop.now());
      if (node.alive) {
        availableOutputs++;
      }
      if (availableOutputs == outputs.length) {
        new ArrayList<>(runningReduces).forEach(this::scheduleReduceEnd);
      }
    }
  }

  /** The node's outputs cannot be fetched any more; reduces that had not finished copying wait again. */
  void nodeDied(LiveNode node) {
    for (Output output : outputs) {
      if (output != null && output.node == node) {
        availableOutputs--;
        lostOutputs.add(output);
      }
    }
    for (Process reduce : runningReduces) {
      if (reduce.shuffleEnd > loop.now()) {
        reduce.shuffleEnd = -1;
        reduce.generation++;
      }
    }
    reshare(node.machine); // its tasks no longer take a share
  }

  private void report(Process process) {
    if (!process.live() || process.workDone) {
      return;
    }
    long now = loop.now();
    TaskAttemptStatus status = status(process);
    if (process.isMap()) {
      status.progress = process.progress(now);
      if (process.mapFinished < 0) {
        status.phase = Phase.MAP;
        status.stateString = "map";
      } else {
        status.phase = Phase.SORT;
        status.stateString = "map > sort";
        status.mapFinishTime = process.mapFinished;
      }
    } else {
      describeReduce(process, status, now);
    }
    send(status);
    loop.after(latencies.report(), () -> report(process));
  }

  private TaskAttemptStatus status(Process process) {
    TaskAttemptStatus status = new TaskAttemptStatus();
    status.id = process.attempt;
    status.counters = NO_COUNTERS;
    status.taskState = TaskAttemptState.RUNNING;
    return status;
  }

  /** What TaskAttemptListenerImpl does with a status report: a heartbeat, then one coalesced update. */
  private void send(TaskAttemptStatus status) {
    heartbeats.progressing(status.id);
    events.handle(new TaskAttemptStatusUpdateEvent(status.id, new AtomicReference<>(status)));
  }

  private void mapDone(Process process) {
    if (!process.live()) {
      return;
    }
    process.workDone = true;
    TaskAttemptStatus status = status(process);
    status.progress = 1f;
    status.phase = Phase.SORT;
    status.stateString = "map > sort";
    status.mapFinishTime = process.mapFinished < 0 ? loop.now() : process.mapFinished;
    send(status);
    // A map feeding reduces has nothing to commit, so it reports done at once.
    events.handle(new TaskAttemptEvent(process.attempt, TaskAttemptEventType.TA_DONE));
  }

  private void describeReduce(Process reduce, TaskAttemptStatus status, long now) {
    if (reduce.shuffleEnd < 0 || now < reduce.shuffleEnd) {
      status.phase = Phase.SHUFFLE;
      status.stateString = "reduce > copy";
      status.progress = (float) availableOutputs / outputs.length / 3f;
      List<TaskAttemptId> failed = new ArrayList<>();
      for (Output lost : lostOutputs) {
        boolean stillCurrent = outputs[lost.attempt.getTaskId().getId()] == lost;
        boolean notCopied = Math.max(lost.since, reduce.launch) + latencies.shuffleLag() > lost.node.deathTime;
        if (stillCurrent && notCopied) {
          failed.add(lost.attempt);
        }
      }
      if (!failed.isEmpty()) {
        status.fetchFailedMaps = failed;
      }
    } else if (now < reduce.sortEnd) {
      status.phase = Phase.SORT;
      status.stateString = "reduce > sort";
      status.shuffleFinishTime = reduce.shuffleEnd;
      status.progress = 1f / 3 + (float) (now - reduce.shuffleEnd) / (reduce.sortEnd - reduce.shuffleEnd) / 3f;
    } else {
      status.phase = Phase.REDUCE;
      status.stateString = "reduce > reduce";
      status.shuffleFinishTime = reduce.shuffleEnd;
      status.sortFinishTime = reduce.sortEnd;
      float done = reduce.runnable ? reduce.progress(now) : 0f;
      status.progress = 2f / 3 + done / 3f;
    }
  }

  /** Once every map output is there: the shuffle ends after the lag, the sort after its time, then the reduce works. */
  private void scheduleReduceEnd(Process reduce) {
    if (!reduce.live() || reduce.shuffleEnd >= 0 || availableOutputs < outputs.length) {
      return;
    }
    reduce.shuffleEnd = Math.max(loop.now(), reduce.launch) + latencies.shuffleLag();
    reduce.sortEnd = reduce.shuffleEnd + latencies.sort();
    reduce.reduceEnd = -1;
    int generation = ++reduce.generation;
    loop.at(reduce.sortEnd, () -> {
      if (reduce.generation == generation && reduce.live()) {
        reduce.work = times.reduceMillis(reduce.attempt, reduce.container.node.node);
        reduce.workLeft = reduce.work;
        reduce.since = loop.now();
        reduce.runnable = true;
        reshare(reduce.container.node.machine);
      }
    });
  }

  private void reduceDone(Process reduce) {
    if (!reduce.live()) {
      return;
    }
    reduce.workDone = true;
    runningReduces.remove(reduce);
    TaskAttemptStatus status = status(reduce);
    status.progress = 1f;
    status.phase = Phase.REDUCE;
    status.stateString = "reduce > reduce";
    status.shuffleFinishTime = reduce.shuffleEnd;
    status.sortFinishTime = reduce.sortEnd;
    send(status);
    events.handle(new TaskAttemptEvent(reduce.attempt, TaskAttemptEventType.TA_COMMIT_PENDING));
    // Task.commit asks canCommit at once (once the AM has heard commitPending), then once a second
    loop.after(0, () -> pollCanCommit(reduce));
  }

  private void pollCanCommit(Process reduce) {
    if (!reduce.live()) {
      return;
    }
    if (job.getTask(reduce.attempt.getTaskId()).canCommit(reduce.attempt)) {
      loop.after(latencies.taskCommit(), () -> {
        if (reduce.live()) {
          events.handle(new TaskAttemptEvent(reduce.attempt, TaskAttemptEventType.TA_DONE));
        }
      });
    } else {
      loop.after(COMMIT_POLL_MILLIS, () -> pollCanCommit(reduce));
    }
  }
}
