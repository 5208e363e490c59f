package faultbed.harness.sim;

import faultbed.harness.timemodel.CpuSharing;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.v2.api.records.Phase;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptCompletionEvent;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptCompletionEventStatus;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.TaskHeartbeatHandler;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptDiagnosticsUpdateEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptFailEvent;
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
 * available and any later event for that map makes it obsolete. A reduce copies an output a shuffle
 * lag after both exist; one its host stopped serving first is fetched as Hadoop 3.4's {@code Fetcher}
 * and {@code ShuffleSchedulerImpl} fetch it (see {@link Fetching}). A frozen node's processes do
 * nothing until it is thawed. Where a fault shapes a link ({@link Links}), a map's read of its input
 * from another node and a reduce's copies from other nodes are flows through it: a map's map phase
 * ends no sooner than its input is in (its progress follows what it has read), and a reduce's shuffle
 * no sooner than its last copy through a shaped link.
 */
final class TaskProcesses {
  private static final Counters NO_COUNTERS = new Counters();
  /** Shuffle.run looks for an error of its fetchers every 2 s (PROGRESS_FREQUENCY). */
  private static final long SHUFFLE_CHECK_MILLIS = 2_000;
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
    /** Bytes its current work moves through its node's disk ({@link TaskTimes#diskBytes}), spread over the work. */
    double diskBytes;
    /** The other nodes whose disks its bytes also go through: a reduce's output pipeline. */
    List<LiveNode> pipeline = List.of();
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
    /** A reduce's fetches a fault got in the way of; null while none did. */
    Fetching fetching;
    /** Map outputs a reduce will report it could not fetch, with its next status. */
    final List<TaskAttemptId> toReport = new ArrayList<>();
    /** A reduce whose shuffle gave up on itself: it fetches no more, and fails at the shuffle's next check. */
    boolean shuffleFailed;
    /** A reduce doing its shuffle's last work (every output there): its work is the shuffle's until it ends. */
    boolean shuffling;
    /** A map's read of its input through a shaped link; null for a read the time model times. */
    Links.Flow input;
    /** A map has begun to read its input (its start-up is done). */
    boolean reading;
    /** A map's work reached its map phase's end before its input was in: it waits for the rest. */
    boolean waitingForInput;
    /** A reduce's copies through shaped links: its flow from each host, and the outputs on their way. */
    final Map<LiveNode, Links.Flow> fetchFlows = new HashMap<>();
    final Set<Output> linkPending = new LinkedHashSet<>();
    /** Map index to when a copy through a shaped link delivered its output. */
    final Map<Integer, Long> linkCopied = new HashMap<>();
    /** When its shuffle would have ended but for copies still coming through shaped links; -1 otherwise. */
    long endAfterLinks = -1;

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
      double share = done >= mapPhaseEnd || mapPhase <= 0 ? 1 : (done - startupWork) / mapPhase;
      if (input != null && mapFinished < 0) {
        share = Math.min(share, input.deliveredShare()); // a record reader's progress is what it has read
      }
      return (float) (share * 2 / 3);
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

  /**
   * What transfers between nodes carry: a map's input, the part of a map's output each reduce
   * copies (0 when unknown: then no transfer is a flow), and the node a map reads its split from (a
   * replica HDFS would choose for it), or null when one is on its own node; and the other nodes a
   * reduce's output replicas go to through HDFS's write pipeline.
   */
  record Data(long inputBytesPerMap, long partitionBytes, BiFunction<Integer, LiveNode, LiveNode> inputSource,
      BiFunction<TaskAttemptId, LiveNode, List<LiveNode>> outputReplicas) { }

  private final EventLoop loop;
  private final EventHandler<Event> events;
  private final Job job;
  private final Containers containers;
  private final TaskTimes times;
  private final Latencies latencies;
  private final TaskHeartbeatHandler heartbeats;
  private final Links links;
  private final Data data;
  private final Map<TaskAttemptId, Process> running = new HashMap<>();
  private final List<Process> runningReduces = new ArrayList<>();
  private final Output[] outputs;
  /** Outputs on nodes whose shuffle server answers. */
  private int availableOutputs;
  /** Nodes whose shuffle server does not answer, in the order they stopped. */
  private final Set<LiveNode> unreachable = new LinkedHashSet<>();
  private final FetchRules fetchRules;
  /** ShuffleSchedulerImpl's abortFailureLimit: a reduce gives up after this many failures to fetch one output. */
  private final int abortFailureLimit;
  /** The longest run of a succeeded map, as reducers learn it from completion events. */
  private long maxMapRuntime;
  /** When every map's output was last there to fetch. */
  private long allOutputsSince;
  /**
   * Every output a reducer decided to report to the AM as not fetched, when it decided: what a real
   * reducer logs ("Reporting fetch failure for ... to MRAppMaster") and records read from its log.
   */
  final List<FetchReport> fetchReports = new ArrayList<>();

  /** A reducer's decision to report a map output it could not fetch, at virtual time {@code at}. */
  record FetchReport(long at, TaskAttemptId reduce, int reduceNode, TaskAttemptId map, int mapNode) { }

  TaskProcesses(EventLoop loop, EventHandler<Event> events, Job job, Containers containers, TaskTimes times,
      Latencies latencies, TaskHeartbeatHandler heartbeats, int maps, FetchRules fetchRules, Links links, Data data) {
    this.loop = loop;
    this.links = links;
    this.data = data;
    this.events = events;
    this.job = job;
    this.containers = containers;
    this.times = times;
    this.latencies = latencies;
    this.heartbeats = heartbeats;
    this.outputs = new Output[maps];
    this.fetchRules = fetchRules;
    this.abortFailureLimit = Math.max(30, maps / 10);
  }

  void start(Containers.Held container) {
    Process process = new Process(container.attempt, container, loop.now());
    running.put(process.attempt, process);
    if (process.isMap()) {
      TaskTimes.MapWork work = times.mapWork(process.attempt, container.node.node);
      process.diskBytes = times.diskBytes(process.attempt, TaskTimes.DiskPart.MAP);
      process.work = work.total();
      process.startupWork = work.startup();
      process.mapPhaseEnd = work.startup() + work.map();
      process.workLeft = process.work;
      process.runnable = true;
      reshare(container.node.machine);
    } else {
      runningReduces.add(process);
      for (Output output : outputs) {
        if (output != null && output.node.serving() && viaLink(process, output)) {
          copyViaLink(process, output);
        }
      }
      // its fetchers try every host with outputs at once, the ones that do not answer too
      for (LiveNode host : unreachable) {
        List<Output> on = currentOutputsOn(host);
        if (!on.isEmpty()) {
          fetching(process).owe(host, on, false);
        }
      }
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
      if (process.input != null) {
        process.input.close();
      }
      process.fetchFlows.values().forEach(Links.Flow::close);
      process.linkPending.clear();
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
        if (process.container.node.frozen) {
          // stopped where it is: its work left kept, no end scheduled until it is thawed
          process.workLeft = process.workLeft(now);
          process.since = now;
          process.rate = 0;
          process.generation++;
          continue;
        }
        runnable.add(process);
        tasks[machine.nodes.indexOf(process.container.node)]++;
      }
    }
    for (int i = 0; i < tasks.length; i++) {
      LiveNode node = machine.nodes.get(i);
      loads.add(new CpuSharing.NodeLoad(node.alive && !node.frozen ? tasks[i] + node.spinners : 0, node.cpuLimit));
    }
    double[] perThread = CpuSharing.perThread(loads, machine.cores);
    runnable.sort(java.util.Comparator.comparing(p -> p.attempt.toString()));
    for (Process process : runnable) {
      LiveNode node = process.container.node;
      process.workLeft = process.workLeft(now);
      process.since = now;
      process.rate = perThread[machine.nodes.indexOf(node)] / node.otherSlowdown;
      double msPerByte = process.diskBytes > 0 ? msPerByte(process) : 0;
      if (msPerByte > 0 && process.rate > 0 && process.work > 0) {
        // its bytes spread over its work: a work-millisecond takes its CPU time and its bytes' time
        process.rate = 1 / (1 / process.rate + process.diskBytes / process.work * msPerByte);
      }
      double rate = Math.max(process.rate, 1e-9);
      long end = now + (long) Math.ceil(process.workLeft / rate);
      int generation = ++process.generation;
      loop.at(end, () -> {
        if (process.generation == generation) {
          workDone(process);
        }
      });
      if (process.isMap() && !process.reading) {
        double toStartup = process.workLeft - (process.work - process.startupWork);
        loop.at(now + Math.max(0, (long) Math.ceil(toStartup / rate)), () -> {
          if (process.generation == generation && !process.reading) {
            startReading(process);
          }
        });
      }
      if (process.isMap() && process.mapFinished < 0) {
        double toSort = process.workLeft - (process.work - process.mapPhaseEnd);
        loop.at(now + Math.max(0, (long) Math.ceil(toSort / rate)), () -> {
          if (process.generation == generation && process.mapFinished < 0) {
            mapPhaseDone(process);
          }
        });
      }
    }
  }

  /**
   * How long a byte of the process takes through its disk's share, and through each pipeline node's
   * (shared with that node's own tasks on that disk): the slowest. 0 when no disk it uses is held to a rate.
   */
  private double msPerByte(Process process) {
    LiveNode node = process.container.node;
    double ms = node.diskRates == null ? 0 : node.msPerByte(diskUsers(node, null));
    for (LiveNode other : process.pipeline) {
      if (other.diskRates != null) {
        ms = Math.max(ms, other.msPerByte(diskUsers(other, process)));
      }
    }
    return ms;
  }

  /** Tasks moving bytes through the node's disks now, and {@code plus} if it is not among them (a pipeline's writer). */
  private int diskUsers(LiveNode node, Process plus) {
    int n = plus == null ? 0 : 1;
    for (Process p : running.values()) {
      if (p.runnable && p.live() && p.container.node == node && p.diskBytes > 0 && p != plus) {
        n++;
      }
    }
    return Math.max(1, n);
  }

  /**
   * How long the slowest node serving the reduce's copies takes to read them off its disks: its
   * outputs' part of the reduce's shuffle bytes, at its disks' share (its tasks and this read). 0 when
   * no serving node's disk is held to a rate.
   */
  private long servingReads(Process reduce) {
    double bytes = times.diskBytes(reduce.attempt, TaskTimes.DiskPart.SHUFFLE);
    if (bytes <= 0) {
      return 0;
    }
    java.util.Map<LiveNode, Integer> held = new java.util.HashMap<>();
    for (Output output : outputs) {
      if (output != null && output.node.diskRates != null) {
        held.merge(output.node, 1, Integer::sum);
      }
    }
    double slowest = 0;
    for (var e : held.entrySet()) {
      slowest = Math.max(slowest, bytes * e.getValue() / outputs.length * e.getKey().msPerByte(diskUsers(e.getKey(), reduce)));
    }
    return Math.round(slowest);
  }

  /** How long the disks hold the reduce's sort: its bytes at their share now, the sort among their users. */
  private long sortOnDisk(Process reduce) {
    LiveNode node = reduce.container.node;
    double bytes = times.diskBytes(reduce.attempt, TaskTimes.DiskPart.SORT);
    if (bytes <= 0 || node.diskRates == null) {
      return 0;
    }
    return Math.round(bytes * node.msPerByte(diskUsers(node, reduce)));
  }

  /**
   * A map's start-up is done and its record reader opens its split: from a replica on another node
   * through a shaped link, a flow; otherwise the time model's work includes the read.
   */
  private void startReading(Process map) {
    map.reading = true;
    LiveNode node = map.container.node;
    LiveNode source = data.inputSource().apply(map.attempt.getTaskId().getId(), node);
    if (source != null && data.inputBytesPerMap() > 0 && Links.shaped(source, node)) {
      Links.Flow flow = links.open(source, node);
      map.input = flow;
      flow.send(data.inputBytesPerMap(), () -> inputIn(map, flow));
    }
  }

  /** A map's work reached its map phase's end: its sort begins, unless its input is not all in yet. */
  private void mapPhaseDone(Process map) {
    long now = loop.now();
    if (map.input == null) {
      map.mapFinished = now;
      return;
    }
    // what it read it has processed: it waits for the rest, its sort's work kept
    map.workLeft = map.workLeft(now);
    map.since = now;
    map.runnable = false;
    map.waitingForInput = true;
    map.generation++;
    reshare(map.container.node.machine);
  }

  private void inputIn(Process map, Links.Flow flow) {
    if (map.input != flow) {
      return;
    }
    map.input = null;
    if (map.waitingForInput && map.live()) {
      map.waitingForInput = false;
      if (map.mapFinished < 0) {
        map.mapFinished = loop.now();
      }
      if (map.workLeft <= 0) {
        mapDone(map); // a map with no sort of its own was done but for its input
        return;
      }
      map.since = loop.now();
      map.runnable = true;
      reshare(map.container.node.machine);
    }
  }

  private void workDone(Process process) {
    if (!process.live()) {
      return;
    }
    process.workLeft = 0;
    process.runnable = false;
    reshare(process.container.node.machine);
    if (process.isMap() && process.input != null) {
      process.waitingForInput = true; // its work is done, not its read
    } else if (process.isMap()) {
      mapDone(process);
    } else if (process.shuffling) {
      process.shuffling = false;
      endShuffle(process, loop.now());
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

  /** Map attempts running anywhere. */
  int runningMaps() {
    int n = 0;
    for (Process process : running.values()) {
      if (process.isMap() && process.live() && !process.workDone) {
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
    if (outputs[index] != null && outputs[index].node.serving()) {
      availableOutputs--;
    }
    if (outputs[index] != null) {
      forgetLinkCopies(outputs[index]);
    }
    outputs[index] = null;
    if (event.getStatus() == TaskAttemptCompletionEventStatus.SUCCEEDED) {
      maxMapRuntime = Math.max(maxMapRuntime, event.getAttemptRunTime());
      LiveNode node = containers.byAttempt(attempt).node;
      outputs[index] = new Output(attempt, node, loop.now());
      if (node.serving()) {
        availableOutputs++;
        for (Process reduce : runningReduces) {
          if (reduce.live() && viaLink(reduce, outputs[index])) {
            copyViaLink(reduce, outputs[index]);
          }
        }
      } else {
        // done on a node whose server does not answer (cut off): every reduce's fetch of it waits on the host
        for (Process reduce : new ArrayList<>(runningReduces)) {
          if (reduce.live()) {
            fetching(reduce).owe(node, List.of(outputs[index]), false);
          }
        }
      }
      if (availableOutputs == outputs.length) {
        allOutputsSince = loop.now();
        new ArrayList<>(runningReduces).forEach(this::scheduleReduceEnd);
      } else if (!unreachable.isEmpty()) {
        // a reduce that copied what a dead node held may need only this one
        new ArrayList<>(runningReduces).stream().filter(r -> r.fetching != null).forEach(this::scheduleReduceEnd);
      }
    }
  }

  /**
   * The node's shuffle server stopped answering ({@code node.server} says how): every reduce still
   * copying fetches what it had not copied from there as Hadoop's fetchers do; a copy in flight
   * meets the failure at once.
   */
  void serverDown(LiveNode node) {
    long now = loop.now();
    node.unreachableSince = now;
    unreachable.add(node);
    List<Output> on = currentOutputsOn(node);
    availableOutputs -= on.size();
    for (Process reduce : new ArrayList<>(runningReduces)) {
      if (!reduce.live() || (reduce.shuffleEnd >= 0 && reduce.shuffleEnd <= now) || on.isEmpty()) {
        continue;
      }
      List<Output> owed = new ArrayList<>();
      boolean inFlight = false;
      Links.Flow flow = reduce.fetchFlows.remove(node);
      if (flow != null) {
        flow.close();
      }
      for (Output output : on) {
        long start = Math.max(output.since, reduce.launch);
        int index = output.attempt.getTaskId().getId();
        if (reduce.linkCopied.containsKey(index)) {
          fetching(reduce).copiedAt.putIfAbsent(index, reduce.linkCopied.get(index));
        } else if (reduce.linkPending.remove(output)) {
          owed.add(output); // its copy through the link was under way
          inFlight = true;
        } else if (start + latencies.shuffleLag() <= now) {
          fetching(reduce).copiedAt.putIfAbsent(output.attempt.getTaskId().getId(), start + latencies.shuffleLag());
        } else if (reduce.fetching == null || !reduce.fetching.copiedAt.containsKey(output.attempt.getTaskId().getId())) {
          owed.add(output);
          inFlight |= start <= now;
        }
      }
      if (!owed.isEmpty()) {
        reduce.endAfterLinks = -1;
        if (reduce.shuffleEnd > now) {
          reduce.shuffleEnd = -1;
          reduce.generation++;
        }
        if (reduce.shuffling) {
          // its last copies meet the dead host: it fetches again, and ends once that is settled
          reduce.shuffling = false;
          reduce.runnable = false;
          reduce.generation++;
          reshare(reduce.container.node.machine);
        }
        fetching(reduce).owe(node, owed, inFlight);
      }
    }
    reshare(node.machine); // a dead or frozen node's tasks no longer take a share
  }

  /** Whether the reduce's copy of the output crosses a shaped link, and so is a flow. */
  private boolean viaLink(Process reduce, Output output) {
    return data.partitionBytes() > 0 && Links.shaped(output.node, reduce.container.node);
  }

  /**
   * The reduce copies the output through its connection to the output's host, after what it is
   * already copying from there; Hadoop's fetcher takes a host's outputs one after another.
   */
  private void copyViaLink(Process reduce, Output output) {
    int index = output.attempt.getTaskId().getId();
    if (reduce.linkPending.contains(output) || reduce.linkCopied.containsKey(index)) {
      return;
    }
    reduce.linkPending.add(output);
    Links.Flow flow = reduce.fetchFlows.computeIfAbsent(output.node, host -> links.open(host, reduce.container.node));
    flow.send(data.partitionBytes(), () -> copiedViaLink(reduce, output));
  }

  private void copiedViaLink(Process reduce, Output output) {
    if (!reduce.linkPending.remove(output) || !reduce.live()) {
      return;
    }
    long now = loop.now();
    if (outputs[output.attempt.getTaskId().getId()] == output) {
      reduce.linkCopied.put(output.attempt.getTaskId().getId(), now);
    }
    // the bytes are in its socket; a frozen reducer reads them, and ends its shuffle, once thawed
    reduce.container.node.whenAwake(() -> linksSettled(reduce));
  }

  /** A copy through a shaped link ended or was forgotten: the shuffle may end now. */
  private void linksSettled(Process reduce) {
    if (!reduce.linkPending.isEmpty()) {
      return;
    }
    if (reduce.endAfterLinks >= 0) {
      long at = Math.max(reduce.endAfterLinks, loop.now());
      reduce.endAfterLinks = -1;
      shuffleEnds(reduce, at);
    } else if (reduce.fetching != null) {
      scheduleReduceEnd(reduce);
    }
  }

  /** The output is gone or obsolete: no reduce waits for its copy any more, nor counts one it made. */
  private void forgetLinkCopies(Output output) {
    int index = output.attempt.getTaskId().getId();
    for (Process reduce : new ArrayList<>(runningReduces)) {
      reduce.linkCopied.remove(index);
      if (reduce.linkPending.remove(output)) {
        // its shuffle is not over: it needs this map's next output
        reduce.endAfterLinks = -1;
      }
    }
  }

  /**
   * A link's shaping began or ended. Flows take their new rates; an output a reduce had yet to copy
   * across a link shaped from now goes through it (copies the time model was timing, still to come).
   */
  void linksChanged() {
    long now = loop.now();
    for (Process reduce : new ArrayList<>(runningReduces)) {
      if (!reduce.live() || reduce.shuffleEnd >= 0) {
        continue;
      }
      for (Output output : outputs) {
        if (output == null || !output.node.serving() || !viaLink(reduce, output)) {
          continue;
        }
        int index = output.attempt.getTaskId().getId();
        boolean copied = reduce.fetching != null && reduce.fetching.copiedAt.containsKey(index);
        if (!copied && Math.max(output.since, reduce.launch) + latencies.shuffleLag() > now) {
          copyViaLink(reduce, output);
        }
      }
    }
    links.changed();
  }

  /** The node's shuffle server answers again (a thawed node): fetches waiting on it go through. */
  void serverUp(LiveNode node) {
    node.server = LiveNode.Server.SERVING;
    node.unreachableSince = -1;
    unreachable.remove(node);
    availableOutputs += currentOutputsOn(node).size();
    for (Process reduce : new ArrayList<>(runningReduces)) {
      if (reduce.fetching != null) {
        reduce.fetching.hostAnswers(node);
      }
    }
    if (availableOutputs == outputs.length) {
      new ArrayList<>(runningReduces).forEach(this::scheduleReduceEnd);
    }
    reshare(node.machine);
  }

  private List<Output> currentOutputsOn(LiveNode node) {
    List<Output> on = new ArrayList<>();
    for (Output output : outputs) {
      if (output != null && output.node == node) {
        on.add(output);
      }
    }
    return on;
  }

  private Fetching fetching(Process reduce) {
    if (reduce.fetching == null) {
      reduce.fetching = new Fetching(reduce);
    }
    return reduce.fetching;
  }

  /**
   * A reduce's fetches from hosts that stopped answering, as Hadoop 3.4's reducer makes them: a
   * fetch from such a host ends when {@code Fetcher.connect} gives up (after the connect timeout,
   * refused or unanswered alike), when its read times out (a frozen server, or a copy in flight when
   * the host went silent), or at once (a copy in flight when the host's server died: the connection is
   * reset). Then {@code ShuffleSchedulerImpl.copyFailed} counts the failure for the host and for each
   * output it was to bring, reports an output to the AM by {@link FetchRules#reports}, checks the
   * reducer's health ({@code checkReducerHealth}: too many failures and too little progress, it gives
   * up on itself) and penalises the host by the back-off before the next try. A try that finds the
   * host answering copies what it owes after the shuffle lag.
   */
  private final class Fetching {
    /** Linux's initial retransmission timeout for a SYN (TCP_TIMEOUT_INIT), doubled at each retry. */
    static final long SYN_RTO_MILLIS = 1_000;

    final Process reduce;
    /** Map index to when this reduce copied its output, where a fault made that differ from the shuffle lag. */
    final Map<Integer, Long> copiedAt = new HashMap<>();
    /** What it still has to fetch from hosts that stopped answering, and how fetching from each goes. */
    final Map<LiveNode, Host> hosts = new LinkedHashMap<>();
    final Map<TaskAttemptId, Integer> failureCounts = new HashMap<>();
    /** The FAILED_SHUFFLE counter. */
    int failedFetches;

    final class Host {
      final LiveNode node;
      final Set<Output> owed = new LinkedHashSet<>();
      /** hostFailures: failed fetches since its last success. */
      int failures;
      boolean inFlight;
      int generation;
      /** When its connect into a silent host began (its SYN unanswered), -1 otherwise. */
      long connectSince = -1;

      Host(LiveNode node) {
        this.node = node;
      }
    }

    Fetching(Process reduce) {
      this.reduce = reduce;
    }

    void owe(LiveNode node, List<Output> owed, boolean readInFlight) {
      Host host = hosts.computeIfAbsent(node, Host::new);
      host.owed.addAll(owed);
      if (!host.inFlight) {
        fetch(host, readInFlight);
      }
    }

    private void fetch(Host host, boolean readInFlight) {
      int generation = ++host.generation;
      host.inFlight = true;
      long now = loop.now();
      host.connectSince = host.node.server == LiveNode.Server.SILENT && !readInFlight ? now : -1;
      switch (host.node.server) {
        case SERVING -> loop.after(latencies.shuffleLag(), () -> {
          if (host.generation == generation) {
            copied(host);
          }
        });
        case REFUSING -> loop.at(now + (readInFlight ? 0 : fetchRules.connectTimeoutMs()), () ->
            failed(host, generation, readInFlight, !readInFlight));
        case SILENT -> loop.at(now + (readInFlight ? fetchRules.readTimeoutMs() : fetchRules.connectTimeoutMs()), () ->
            failed(host, generation, readInFlight, false));
        // the frozen host's kernel accepts the connection; the server never answers the request
        case STALLED -> loop.at(now + fetchRules.readTimeoutMs(), () -> failed(host, generation, readInFlight, false));
      }
    }

    /**
     * The host answers again: a fetch waiting on it goes through, a connect whose SYN went unanswered
     * at its next retransmission (Linux's: 1, 3, 7, 15 s... after the first); one in its back-off will
     * at its next try.
     */
    void hostAnswers(LiveNode node) {
      Host host = hosts.get(node);
      if (host == null || !host.inFlight) {
        return;
      }
      if (host.connectSince < 0) {
        fetch(host, false);
        return;
      }
      long now = loop.now();
      long retransmit = host.connectSince + SYN_RTO_MILLIS;
      for (long rto = 2 * SYN_RTO_MILLIS; retransmit < now; rto *= 2) {
        retransmit += rto;
      }
      int generation = host.generation;
      loop.at(retransmit, () -> {
        if (host.generation == generation && host.inFlight && reduce.live() && !reduce.shuffleFailed) {
          fetch(host, false);
        }
      });
    }

    private void copied(Host host) {
      if (!reduce.live() || reduce.shuffleFailed) {
        return;
      }
      reduce.container.node.whenAwake(() -> {
        for (Output output : host.owed) {
          if (current(output)) {
            if (viaLink(reduce, output)) {
              copyViaLink(reduce, output); // through the host's shaped link, from now
            } else {
              copiedAt.putIfAbsent(output.attempt.getTaskId().getId(), loop.now());
            }
            failureCounts.remove(output.attempt);
          }
        }
        hosts.remove(host.node);
        host.inFlight = false;
        scheduleReduceEnd(reduce);
      });
    }

    private void failed(Host host, int generation, boolean readError, boolean refused) {
      if (host.generation != generation || !reduce.live() || reduce.shuffleFailed) {
        return;
      }
      reduce.container.node.whenAwake(() -> {
        host.inFlight = false;
        host.owed.removeIf(o -> !current(o) || copiedAt.containsKey(o.attempt.getTaskId().getId()));
        if (host.owed.isEmpty()) {
          hosts.remove(host.node);
          scheduleReduceEnd(reduce);
          return;
        }
        host.failures++;
        long retry = Long.MAX_VALUE;
        for (Output output : host.owed) {
          int failures = failureCounts.merge(output.attempt, 1, Integer::sum);
          if (failures >= abortFailureLimit) {
            giveUp(failures + " failures downloading " + output.attempt);
            return;
          }
          if (fetchRules.reports(failures, readError, refused, host.failures)) {
            reduce.toReport.add(output.attempt);
            fetchReports.add(new FetchReport(loop.now(), reduce.attempt, reduce.container.node.index, output.attempt,
                output.node.index));
          }
          if (unhealthy()) {
            giveUp("Exceeded MAX_FAILED_UNIQUE_FETCHES; bailing-out.");
            return;
          }
          failedFetches++;
          retry = Math.min(retry, fetchRules.penaltyMs(failures));
        }
        int next = host.generation;
        loop.after(retry, () -> {
          if (host.generation == next && reduce.live() && !reduce.shuffleFailed) {
            fetch(host, false);
          }
        });
      });
    }

    /** ShuffleSchedulerImpl.checkReducerHealth, its thresholds as Hadoop 3.4 hard-codes them. */
    private boolean unhealthy() {
      long now = loop.now();
      int done = 0;
      long lastProgress = reduce.launch;
      for (int i = 0; i < outputs.length; i++) {
        long copy = copyTime(i);
        if (copy >= 0 && copy <= now) {
          done++;
          lastProgress = Math.max(lastProgress, copy);
        }
      }
      boolean healthy = (float) failedFetches / (failedFetches + done) < 0.5f;
      boolean progressedEnough = (float) done / outputs.length >= 0.5f;
      long minShuffleRun = Math.max(lastProgress - reduce.launch, maxMapRuntime);
      boolean stalled = (float) (now - lastProgress) / minShuffleRun >= 0.5f;
      int unique = failureCounts.size();
      return (unique >= Math.min(outputs.length, 5) || unique == outputs.length - done) && !healthy
          && (!progressedEnough || stalled);
    }

    /** When this reduce has (or will have) copied map {@code i}'s output; -1 while it cannot. */
    long copyTime(int i) {
      Long copy = copiedAt.get(i);
      if (copy == null) {
        copy = reduce.linkCopied.get(i);
      }
      if (copy != null) {
        return copy;
      }
      Output output = outputs[i];
      if (output == null || !output.node.serving() || owes(output) || reduce.linkPending.contains(output)) {
        return -1;
      }
      return Math.max(output.since, reduce.launch) + latencies.shuffleLag();
    }

    private boolean owes(Output output) {
      Host host = hosts.get(output.node);
      return host != null && host.owed.contains(output);
    }

    /** When its shuffle ends, once every map's output is or will be copied; -1 before. */
    long shuffleEnd() {
      if (outputs.length - availableOutputs > copiedAt.size()) {
        return -1;
      }
      long end = -1;
      for (int i = 0; i < outputs.length; i++) {
        long copy = copyTime(i);
        if (copy < 0) {
          return -1;
        }
        end = Math.max(end, copy);
      }
      return end;
    }

    /**
     * The shuffle reports an error; Shuffle.run throws it at its next check, and the task's JVM tells
     * the AM it failed, as YarnChild does. Status reports due before then still go out, with the
     * fetch failures they carry.
     */
    private void giveUp(String why) {
      reduce.shuffleFailed = true;
      reduce.generation++;
      long sinceLaunch = loop.now() - reduce.launch;
      long check = reduce.launch + (sinceLaunch / SHUFFLE_CHECK_MILLIS + 1) * SHUFFLE_CHECK_MILLIS;
      loop.at(check, () -> reduce.container.node.whenAwake(() -> {
        if (reduce.live()) {
          reduce.workDone = true; // it reports no more
          events.handle(new TaskAttemptDiagnosticsUpdateEvent(reduce.attempt, "Error: " + why));
          events.handle(new TaskAttemptFailEvent(reduce.attempt));
        }
      }));
    }

    private boolean current(Output output) {
      return outputs[output.attempt.getTaskId().getId()] == output;
    }
  }

  private void report(Process process) {
    if (!process.live() || process.workDone) {
      return;
    }
    if (process.container.node.frozen) {
      process.container.node.onThaw.add(() -> report(process));
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
      // what it has copied: the outputs there but those still coming through shaped links
      status.progress = (float) Math.max(0, availableOutputs - reduce.linkPending.size()) / outputs.length / 3f;
      if (!reduce.toReport.isEmpty()) {
        status.fetchFailedMaps = new ArrayList<>(reduce.toReport);
        reduce.toReport.clear();
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
    if (!reduce.live() || reduce.shuffleEnd >= 0 || reduce.shuffleFailed || reduce.endAfterLinks >= 0) {
      return;
    }
    if (reduce.fetching == null) {
      if (availableOutputs < outputs.length || reduce.shuffling) {
        return;
      }
      long work = times.shuffleWork(reduce.attempt, reduce.container.node.node, reduce.launch >= allOutputsSince);
      if (work >= 0) {
        // what is left to copy and merge takes the node's CPU as a task's work does
        reduce.shuffling = true;
        reduce.diskBytes = 0;
        reduce.work = Math.max(1, work);
        reduce.workLeft = reduce.work;
        reduce.since = loop.now();
        reduce.runnable = true;
        reshare(reduce.container.node.machine);
        return;
      }
      endShuffle(reduce, Math.max(loop.now(), reduce.launch) + latencies.shuffleLag());
    } else {
      long end = reduce.fetching.shuffleEnd();
      if (end < 0) {
        return;
      }
      endShuffle(reduce, Math.max(loop.now(), end));
    }
  }

  /** The shuffle would end at {@code at}; with copies still coming through shaped links, once the last is in. */
  private void endShuffle(Process reduce, long at) {
    at += servingReads(reduce);
    if (reduce.linkPending.isEmpty()) {
      shuffleEnds(reduce, at);
    } else {
      reduce.endAfterLinks = at;
    }
  }

  /** The shuffle ends at {@code at}; the sort after its time, then the reduce works. */
  private void shuffleEnds(Process reduce, long at) {
    reduce.shuffleEnd = at;
    reduce.sortEnd = reduce.shuffleEnd + latencies.sort() + sortOnDisk(reduce);
    reduce.reduceEnd = -1;
    int generation = ++reduce.generation;
    loop.at(reduce.sortEnd, () -> {
      if (reduce.generation == generation && reduce.live()) {
        reduce.work = times.reduceMillis(reduce.attempt, reduce.container.node.node);
        reduce.diskBytes = times.diskBytes(reduce.attempt, TaskTimes.DiskPart.REDUCE);
        reduce.pipeline = data.outputReplicas().apply(reduce.attempt, reduce.container.node);
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
    loop.after(0, () -> reduce.container.node.whenAwake(() -> pollCanCommit(reduce)));
  }

  private void pollCanCommit(Process reduce) {
    if (!reduce.live()) {
      return;
    }
    if (job.getTask(reduce.attempt.getTaskId()).canCommit(reduce.attempt)) {
      loop.after(latencies.taskCommit(), () -> reduce.container.node.whenAwake(() -> {
        if (reduce.live()) {
          events.handle(new TaskAttemptEvent(reduce.attempt, TaskAttemptEventType.TA_DONE));
        }
      }));
    } else {
      loop.after(COMMIT_POLL_MILLIS, () -> reduce.container.node.whenAwake(() -> pollCanCommit(reduce)));
    }
  }
}
