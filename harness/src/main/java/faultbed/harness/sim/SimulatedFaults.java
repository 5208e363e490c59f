package faultbed.harness.sim;

import faultbed.harness.timeline.BandwidthCap;
import faultbed.harness.timeline.Blackhole;
import faultbed.harness.timeline.CpuHog;
import faultbed.harness.timeline.DiskLoad;
import faultbed.harness.timeline.SlowDisk;
import faultbed.harness.timeline.Fault;
import faultbed.harness.timeline.Freeze;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.Latency;
import faultbed.harness.timeline.NodeStop;
import faultbed.harness.timeline.RstSuppression;
import faultbed.harness.timeline.SlowNode;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.timeline.Trigger;
import faultbed.harness.timemodel.Baseline;
import faultbed.harness.timemodel.TimeModel;
import faultbed.results.RunRecord.FaultEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.job.Job;

/**
 * A run's fault timeline on virtual time, as the harness's FaultDriver plays it on a real cluster:
 * the same draws from the run's seed (a uniform trigger's time, each step's order of preference
 * among candidate nodes), the same targets, waiting while no node plays a role. A fault that kills a
 * node (crash, with or without RST, and stop) takes the node and its containers away, silently where
 * its RSTs are suppressed (rst-suppression in force there, or the crash's own); a freeze stops its
 * processes and heartbeats for its duration; a blackhole cuts its NodeManager off (heartbeats, launches,
 * its shuffle server) while its tasks run on; one that slows it (slow-node, cpu-hog, disk-load) makes
 * its work take as much longer as the time model says the faults in force there do; one that shapes
 * its link (bandwidth-cap, latency) shapes the transfers through it ({@link Links}).
 */
final class SimulatedFaults {
  /** How often a step waiting for a job event or for a role checks again, in virtual milliseconds. */
  private static final long POLL_MILLIS = 100;

  /**
   * How many times longer work takes on a node with these slowing fault kinds in force, beyond the
   * CPU they take or limit (which the simulation shares out itself): the time model's residual.
   */
  interface Slowdowns {
    double of(Set<String> kinds);

    /** The condition the model's work was fitted under (see {@link Baseline}): no residual for it. */
    default List<String> baseline() {
      return List.of();
    }
  }

  /**
   * Whether the fault slows its node's work while the node goes on (a freeze stops it instead; a
   * fault on its link slows what crosses the link, not its work).
   */
  static boolean slowsWork(Fault fault) {
    return fault.effect().slowsNode() && !fault.effect().stopsNode() && !onLink(fault);
  }

  /** Whether the fault shapes its node's link, which the simulation times itself ({@link Links}). */
  static boolean onLink(Fault fault) {
    return TimeModel.onLinks(fault.kind());
  }

  /** The timeline's slowing steps as {@link Baseline} reads them: a step due at 0 on a named node, lasting the run. */
  static List<Baseline.Condition> conditions(Timeline timeline) {
    List<Baseline.Condition> out = new ArrayList<>();
    for (Timeline.Step step : timeline.steps()) {
      Fault fault = step.fault();
      if (slowsWork(fault)) {
        boolean atZero = step.trigger() instanceof Trigger.At at && at.offset().isZero();
        int node = fault.target() instanceof Target.Index i ? i.index() : -1;
        out.add(new Baseline.Condition(fault.kind(), node, atZero, fault.duration() == null, detail(fault)));
      }
    }
    return out;
  }

  /** The steps that make the model's baseline, when the timeline's condition is the model's; else none. */
  static Set<Timeline.Step> baselineSteps(Timeline timeline, int nodes, List<String> modelBaseline) {
    List<Baseline.Condition> conditions = conditions(timeline);
    if (modelBaseline.isEmpty() || !Baseline.of(nodes, conditions).equals(modelBaseline)) {
      return Set.of();
    }
    Set<Timeline.Step> steps = new java.util.HashSet<>();
    int c = 0;
    for (Timeline.Step step : timeline.steps()) {
      if (slowsWork(step.fault())) {
        Baseline.Condition condition = conditions.get(c++);
        if (condition.startsAtZero() && condition.wholeRun() && modelBaseline.contains(condition.description())) {
          steps.add(step);
        }
      }
    }
    return steps;
  }

  private final class Armed {
    final int order;
    final Timeline.Step step;
    final Long scheduledMs;
    final List<Integer> preference;
    boolean queued;
    Integer node;
    Long injectedMs;
    Long healedMs;
    String error;

    Armed(int order, Timeline.Step step, Long scheduledMs, List<Integer> preference) {
      this.order = order;
      this.step = step;
      this.scheduledMs = scheduledMs;
      this.preference = preference;
    }

    boolean slows() {
      return slowsWork(step.fault());
    }

    boolean inForce() {
      return injectedMs != null && healedMs == null;
    }
  }

  private final EventLoop loop;
  private final List<LiveNode> nodes;
  private final int applicationMasterNode;
  private final TaskProcesses processes;
  private final NodeManagers nodeManagers;
  private final Job job;
  private final Slowdowns slowdowns;
  private final Set<Timeline.Step> baseline;
  private final List<Armed> armed = new ArrayList<>();
  private final List<Integer> replayedNodes;
  private long jobStart;
  private boolean ended;

  SimulatedFaults(EventLoop loop, List<LiveNode> nodes, int applicationMasterNode, TaskProcesses processes,
      NodeManagers nodeManagers, Job job, Slowdowns slowdowns, Timeline timeline, long seed, int runIndex,
      List<Integer> replayedNodes) {
    this.replayedNodes = replayedNodes;
    this.loop = loop;
    this.nodes = nodes;
    this.applicationMasterNode = applicationMasterNode;
    this.processes = processes;
    this.nodeManagers = nodeManagers;
    this.job = job;
    this.slowdowns = slowdowns;
    this.baseline = baselineSteps(timeline, nodes.size(), slowdowns.baseline());
    // the draws a real cluster's FaultDriver makes, so a seed means the same times and choices here
    List<Integer> indices = nodes.stream().map(n -> n.index).toList();
    for (Timeline.Drawn drawn : timeline.draws(seed, runIndex, indices)) {
      armed.add(new Armed(armed.size(), drawn.step(), drawn.scheduledMs(), drawn.preference()));
    }
  }

  /** The job has started: timed steps fall due from now, event steps are watched for. */
  void start(long jobStartTime) {
    this.jobStart = jobStartTime;
    for (Armed a : armed) {
      if (a.scheduledMs != null) {
        a.queued = true;
        loop.at(jobStart + a.scheduledMs, () -> fire(a));
      }
    }
    if (armed.stream().anyMatch(a -> !a.queued)) {
      loop.after(POLL_MILLIS, this::watchEvents);
    }
  }

  private void watchEvents() {
    if (ended) {
      return;
    }
    boolean waiting = false;
    for (Armed a : armed) {
      if (a.queued) {
        continue;
      }
      if (a.step.trigger() instanceof Trigger.On on && happened(on.event())) {
        a.queued = true;
        fire(a);
      } else {
        waiting = true;
      }
    }
    if (waiting) {
      loop.after(POLL_MILLIS, this::watchEvents);
    }
  }

  private boolean happened(JobEvent event) {
    if (event instanceof JobEvent.MapsCompleted m) {
      return job.getCompletedMaps() >= m.count();
    }
    if (event instanceof JobEvent.MapsRunning m) {
      return processes.runningMaps() >= m.count();
    }
    return processes.reducerInShuffle();
  }

  private void fire(Armed a) {
    if (ended) {
      return;
    }
    Integer node = resolve(a);
    if (node == null) {
      loop.after(POLL_MILLIS, () -> fire(a));
      return;
    }
    LiveNode live = nodes.get(node);
    a.node = node;
    if (!live.alive && a.step.fault().needsLiveNode()) {
      a.error = "node " + node + " was already down";
      return;
    }
    Fault fault = a.step.fault();
    if ((fault instanceof Freeze || fault instanceof Blackhole) && node == applicationMasterNode) {
      a.error = "the simulation does not " + fault.kind() + " the ApplicationMaster's node: its AM is the simulation"
          + " itself";
      return;
    }
    a.injectedMs = loop.now() - jobStart;
    if (fault instanceof Freeze freeze) {
      nodeManagers.freeze(live);
      loop.after(freeze.duration().toMillis(), () -> heal(a));
    } else if (fault.effect().killsNode()) {
      // A stopped NodeManager says goodbye to the RM, which marks it at once; a crashed one is
      // noticed only at liveness expiry. Its ports refuse connections, unless RSTs are dropped.
      boolean silent = fault instanceof NodeCrash crash && crash.suppressRst() || rstSuppressed(node);
      nodeManagers.kill(live, fault instanceof NodeStop, silent);
    } else if (onLink(fault)) {
      shapeLink(live);
      if (fault.duration() != null) {
        loop.after(fault.duration().toMillis(), () -> heal(a));
      }
    } else if (fault instanceof Blackhole || fault instanceof RstSuppression) {
      if (fault instanceof Blackhole) {
        nodeManagers.cutOff(live);
      }
      if (fault.duration() != null) {
        loop.after(fault.duration().toMillis(), () -> heal(a));
      }
    } else {
      // after every other step due at this instant, so faults made together take effect together
      loop.after(0, () -> changeSpeed(live));
      if (fault.duration() != null) {
        loop.after(fault.duration().toMillis(), () -> heal(a));
      }
    }
  }

  private void heal(Armed a) {
    if (!a.inForce()) {
      return;
    }
    a.healedMs = loop.now() - jobStart;
    LiveNode live = nodes.get(a.node);
    if (a.step.fault() instanceof Freeze) {
      nodeManagers.thaw(live);
    } else if (a.step.fault() instanceof Blackhole) {
      nodeManagers.reconnect(live);
    } else if (a.step.fault() instanceof RstSuppression && !live.alive && live.server == LiveNode.Server.SILENT
        && !rstSuppressed(a.node)) {
      live.server = LiveNode.Server.REFUSING; // the dead node's host answers connects with RSTs again
    } else if (onLink(a.step.fault())) {
      shapeLink(live);
    } else if (a.slows()) {
      changeSpeed(nodes.get(a.node));
    }
  }

  /**
   * The node's link as the faults in force on it shape it: the lowest cap's rate, the longest delay
   * (a second qdisc replaces the first on a real link; the tightest is what a user would mean).
   */
  private void shapeLink(LiveNode node) {
    double cap = Double.POSITIVE_INFINITY;
    long delay = 0;
    for (Armed a : armed) {
      if (a.inForce() && a.node == node.index) {
        if (a.step.fault() instanceof BandwidthCap c) {
          cap = Math.min(cap, c.bytesPerSecond());
        } else if (a.step.fault() instanceof Latency l) {
          delay = Math.max(delay, l.delay().toMillis());
        }
      }
    }
    node.capBytesPerSecond = cap;
    node.delayMs = delay;
    processes.linksChanged();
  }

  /**
   * The node's load as the faults in force make it: CPU spinners compete with its tasks, a CPU limit
   * caps its cgroup, and what else they do (disk contention) slows its work by the model's residual,
   * but for the model's baseline, which its work already includes.
   */
  private void changeSpeed(LiveNode node) {
    int spinners = 0;
    double limit = Double.POSITIVE_INFINITY;
    double[] disks = null;
    Set<String> other = new TreeSet<>();
    for (Armed a : armed) {
      if (!a.inForce() || !a.slows() || a.node != node.index) {
        continue;
      }
      Fault fault = a.step.fault();
      if (fault instanceof CpuHog hog) {
        spinners += hog.spinners();
      } else if (fault instanceof SlowNode slow && slow.cpuCores() != null) {
        limit = Math.min(limit, slow.cpuCores());
      }
      if (fault instanceof SlowDisk slow && !baseline.contains(a.step)) {
        if (disks == null) {
          disks = new double[node.node.disks()];
          java.util.Arrays.fill(disks, Double.POSITIVE_INFINITY);
        }
        for (int d = 0; d < disks.length; d++) {
          if (slow.disks().isEmpty() || slow.disks().contains(d)) {
            disks[d] = Math.min(disks[d], slow.bytesPerSecond());
          }
        }
      } else if (beyondCpu(fault) && !baseline.contains(a.step)) {
        other.add(fault.kind());
      }
    }
    node.spinners = spinners;
    node.cpuLimit = limit;
    node.diskRates = disks;
    node.otherSlowdown = other.isEmpty() ? 1 : slowdowns.of(other);
    processes.reshare(node.machine);
  }

  /** Whether an rst-suppression, or a crash that suppressed its own RSTs, is in force on the node. */
  private boolean rstSuppressed(int node) {
    return armed.stream().anyMatch(a -> a.node != null && a.node == node && a.injectedMs != null
        && (a.step.fault() instanceof RstSuppression && a.healedMs == null
            || a.step.fault() instanceof NodeCrash crash && crash.suppressRst()));
  }

  /** Whether a slowing fault does more than use or limit CPU (which the simulation shares out itself). */
  static boolean beyondCpu(Fault fault) {
    return TimeModel.actsBeyondCpu(fault.kind(), detail(fault));
  }

  /** The job is over: what lasts "until the job ends" ends now, and no step fires any more. */
  void jobEnded() {
    for (Armed a : armed) {
      if (a.inForce() && !a.step.fault().effect().killsNode()) {
        a.healedMs = loop.now() - jobStart;
      }
    }
    ended = true;
  }

  private Integer resolve(Armed a) {
    Target target = a.step.fault().target();
    if (target instanceof Target.Index i) {
      if (i.index() >= nodes.size()) {
        throw new IllegalArgumentException("node: expected an index below " + nodes.size() + ", got " + i.index());
      }
      return i.index();
    }
    if (target instanceof Target.Same) {
      return a.order == 0 ? null : armed.get(a.order - 1).node;
    }
    if (a.order < replayedNodes.size() && replayedNodes.get(a.order) != null) {
      return replayedNodes.get(a.order); // where the real run's fault struck
    }
    return candidates(target, n -> false).stream().min(Comparator.comparingInt(a.preference::indexOf)).orElse(null);
  }

  /** Live nodes that play the target's role now, among those not spared (as FaultDriver judges them). */
  private List<Integer> candidates(Target target, Predicate<Integer> spared) {
    if (target instanceof Target.SparingAm s) {
      return candidates(s.choice(), spared.or(n -> n == applicationMasterNode));
    }
    if (target instanceof Target.SparingReducers s) {
      return candidates(s.choice(), spared.or(n -> processes.running(nodes.get(n), TaskType.REDUCE) > 0));
    }
    List<Integer> up = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      if (nodes.get(i).alive && !spared.test(i)) {
        up.add(i);
      }
    }
    if (target instanceof Target.Role role) {
      ToIntFunction<Integer> maps = n -> processes.outputsOn(nodes.get(n)) + processes.running(nodes.get(n), TaskType.MAP);
      switch (role) {
        case RANDOM -> { }
        case RUNNING_REDUCER -> up.removeIf(n -> processes.running(nodes.get(n), TaskType.REDUCE) == 0);
        case HOLDING_MAP_OUTPUTS -> up.removeIf(n -> processes.outputsOn(nodes.get(n)) == 0);
        case APPLICATION_MASTER -> up.removeIf(n -> n != applicationMasterNode);
        case IDLE -> up.removeIf(n -> n == applicationMasterNode || maps.applyAsInt(n) > 0
            || processes.running(nodes.get(n), TaskType.REDUCE) > 0);
        case MOST_MAPS -> {
          int most = up.stream().mapToInt(maps).max().orElse(0);
          up.removeIf(n -> most == 0 || maps.applyAsInt(n) < most);
        }
      }
    }
    return up;
  }

  /** What a real injection of the fault notes about it, so a record reads the same whichever backend made it. */
  private static Map<String, String> detail(Fault fault) {
    return detail(fault, 1);
  }

  /** The same, for a cluster whose nodes have {@code disks} disks each. */
  private static Map<String, String> detail(Fault fault, int disks) {
    Map<String, String> detail = new LinkedHashMap<>();
    if (fault instanceof CpuHog hog) {
      detail.put("spinners", Integer.toString(hog.spinners()));
    } else if (fault instanceof SlowNode slow) {
      if (slow.cpuCores() != null) {
        detail.put("cpuCores", slow.cpuCores().toString());
      }
      if (slow.readBytesPerSecond() != null) {
        detail.put("readBytesPerSecond", slow.readBytesPerSecond().toString());
      }
      if (slow.writeBytesPerSecond() != null) {
        detail.put("writeBytesPerSecond", slow.writeBytesPerSecond().toString());
      }
    } else if (fault instanceof DiskLoad load) {
      detail.put("writers", Integer.toString(load.writers()));
    } else if (fault instanceof SlowDisk slow) {
      for (int d : slow.disks().isEmpty() ? java.util.stream.IntStream.range(0, disks).boxed().toList() : slow.disks()) {
        detail.put("disk" + d + "BytesPerSecond", Long.toString(slow.bytesPerSecond()));
      }
    } else if (fault instanceof NodeCrash crash && crash.suppressRst()) {
      detail.put("rstSuppressed", "true");
    } else if (fault instanceof BandwidthCap cap) {
      detail.put("bytesPerSecond", Long.toString(cap.bytesPerSecond()));
    } else if (fault instanceof Latency latency) {
      detail.put("delayMs", Long.toString(latency.delay().toMillis()));
      detail.put("jitterMs", Long.toString(latency.jitter().toMillis()));
    }
    return detail;
  }

  /** What became of every step, in timeline order, as the record's faults; a step not injected leaves a note. */
  List<FaultEvent> events(List<String> notes) {
    List<FaultEvent> out = new ArrayList<>();
    for (Armed a : armed) {
      Fault fault = a.step.fault();
      Map<String, String> detail = a.injectedMs == null ? new LinkedHashMap<>() : detail(fault, nodes.get(0).node.disks());
      if (a.error != null) {
        detail.put("error", a.error);
      }
      if (a.injectedMs == null) {
        notes.add("fault " + a.order + " (" + fault.kind() + ") was not injected: "
            + (a.error != null ? a.error : "the job finished first"));
      }
      out.add(new FaultEvent(fault.kind(), a.node == null ? -1 : a.node, fault.target().describe(),
          a.step.trigger().describe(), a.scheduledMs, a.injectedMs,
          fault.effect().killsNode() ? null : a.healedMs, detail, fault.effect()));
    }
    return out;
  }
}
