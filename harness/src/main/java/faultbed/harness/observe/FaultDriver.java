package faultbed.harness.observe;

import faultbed.harness.Cluster;
import faultbed.harness.Node;
import faultbed.harness.RunSpec;
import faultbed.harness.timeline.Injection;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.NodeStop;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline.Step;
import faultbed.harness.timeline.Trigger;
import faultbed.results.RunHistory;
import faultbed.results.RunRecord.NodeInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Drives a run's fault timeline: arms every step (its time, drawn from the run's seed, or its job
 * event), fires each on a thread of its own when due and its target plays its role, heals what
 * lasts for a while or until the job ends, and appends each of these to the run's history as it
 * happens.
 */
final class FaultDriver implements AutoCloseable {
  private final Cluster cluster;
  private final RunListener listener;
  private final String runId;
  private final LongSupplier nowMs;
  private final List<Armed> armed = new ArrayList<>();
  private final ScheduledThreadPoolExecutor injector;
  private final faultbed.harness.PinnedNodes pinned;
  private final RunHistory history;
  private final faultbed.harness.timeline.JobInput input;

  /** One armed step of the timeline and what became of it. */
  static final class Armed {
    final int order;
    final Step step;
    final Long scheduledMs;
    volatile boolean queued;
    volatile Integer node;
    volatile Long injectedMs;
    volatile Long healedMs;
    volatile faultbed.faults.Installed healer;
    volatile java.util.function.Supplier<Map<String, String>> healSaw;

    /**
     * The node indices in the order this step prefers them when several play its role: drawn from
     * the run's seed and the step's place, so every variant of a block prefers the same node, and
     * a role target's choice differs between variants only when the preferred node does not play
     * the role in one of them (for "random" sparing the AM: when the AM landed on it).
     */
    final List<Integer> preference;

    Armed(int order, Step step, Long scheduledMs, List<Integer> preference) {
      this.order = order;
      this.step = step;
      this.scheduledMs = scheduledMs;
      this.preference = List.copyOf(preference);
    }
  }

  FaultDriver(Cluster cluster, RunListener listener, RunSpec spec, LongSupplier nowMs,
      faultbed.harness.PinnedNodes pinned, RunHistory history, faultbed.harness.timeline.JobInput input) {
    this.input = input;
    this.pinned = pinned;
    this.history = history;
    this.cluster = cluster;
    this.listener = listener;
    this.runId = spec.runId();
    this.nowMs = nowMs;
    List<Integer> nodes = cluster.nodes().stream().map(Node::index).toList();
    for (var drawn : spec.timeline().draws(spec.seed(), spec.runIndex(), nodes)) {
      Armed a = new Armed(armed.size(), drawn.step(), drawn.scheduledMs(), drawn.preference());
      armed.add(a);
      var fault = a.step.fault();
      history.append(new RunHistory.FaultArmed(a.order, fault.kind(), fault.target().describe(),
          a.step.trigger().describe(), a.scheduledMs, fault.effect(), fault instanceof NodeCrash || fault instanceof NodeStop));
    }
    // A thread per step: a step waiting for its target (a role no node plays yet, or "same" as a
    // step not yet fired) must not hold up the others.
    injector = new ScheduledThreadPoolExecutor(armed.size() + 1, r -> {
      Thread t = new Thread(r, "faultbed-injector");
      t.setDaemon(true);
      return t;
    });
    // Threads started now, not when a fault falls due: starting one then costs milliseconds.
    injector.prestartAllCoreThreads();
  }

  /** Whether a step waits for a reducer to be in its shuffle, which costs the watcher a task report per poll. */
  boolean needsReducers() {
    return armed.stream().anyMatch(a -> a.step.trigger() instanceof Trigger.On on
        && on.event() instanceof faultbed.harness.timeline.JobEvent.ReducerInShuffle);
  }

  /** Whether a step waits for maps to run, which costs the watcher a task report per poll. */
  boolean needsMaps() {
    return armed.stream().anyMatch(a -> a.step.trigger() instanceof Trigger.On on
        && on.event() instanceof faultbed.harness.timeline.JobEvent.MapsRunning);
  }

  /** Schedules the timed steps from {@code t0} (nanoTime of submission); one clock reading for all keeps their order. */
  void scheduleTimed(long t0, JobWatch.Observed observed, Supplier<String> appState) {
    long sinceStart = System.nanoTime() - t0;
    for (Armed a : armed) {
      if (a.scheduledMs != null) {
        a.queued = true;
        injector.schedule(() -> fire(a, observed, appState), Math.max(0, a.scheduledMs * 1_000_000 - sinceStart),
            TimeUnit.NANOSECONDS);
      }
    }
  }

  /** Fires the job-event steps whose event has now happened. */
  void onProgress(JobWatch.Observed observed, Supplier<String> appState) {
    for (Armed a : armed) {
      if (!a.queued && a.step.trigger() instanceof Trigger.On on && observed.happened(on.event())) {
        a.queued = true;
        injector.execute(() -> fire(a, observed, appState));
      }
    }
  }

  /** The job has ended: no step fires any more, and what lasts "until the job ends" ends here. */
  void jobEnded() throws InterruptedException {
    injector.shutdownNow();
    injector.awaitTermination(30, TimeUnit.SECONDS);
    armed.forEach(this::heal);
  }

  @Override
  public void close() {
    injector.shutdownNow();
  }

  /** Resolves the target (waiting while no node plays the role), injects, and records the times. */
  private void fire(Armed a, JobWatch.Observed o, Supplier<String> appState) {
    try {
      Node node;
      while ((node = resolve(a, o)) == null) {
        if (JobWatch.finished(appState.get())) {
          failed(a, "no node matched '" + a.step.fault().target().describe() + "' before the job finished");
          return;
        }
        Thread.sleep(20);
      }
      if (!node.isUp() && a.step.fault().needsLiveNode()) {
        failed(a, "node " + node.index() + " was already down");
        return;
      }
      listener.phase("fault: " + a.step.fault().kind() + " node " + node.index());
      a.node = node.index();
      long before = nowMs.getAsLong();
      Injection injection = a.step.fault().inject(node, cluster.faultContext(runId).withInput(input));
      // how long making it took: what stands between the step's time and its effect (SSH on remote hosts)
      Map<String, String> detail = new LinkedHashMap<>(injection.detail());
      detail.put("injectionMs", Long.toString(nowMs.getAsLong() - before));
      a.healer = injection.healer();
      a.healSaw = injection.healSaw();
      a.injectedMs = before;
      history.append(new RunHistory.FaultInjected(a.order, node.index(), before, detail));
      if (a.step.fault().effect().stopsNode()) {
        pinned.stopped(node.index(), before);
      }
      listener.phase(String.format("running, %s node %d at %.1f s", a.step.fault().kind(), node.index(), before / 1000.0));
      Duration lasts = a.step.fault().duration();
      if (lasts != null) {
        injector.schedule(() -> heal(a), Math.max(0, before + lasts.toMillis() - nowMs.getAsLong()),
            TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      String error = e.getClass().getSimpleName() + ": " + e.getMessage();
      failed(a, error);
      listener.phase("fault: " + a.step.fault().kind() + (a.node == null ? "" : " node " + a.node)
          + " not injected: " + error);
    }
  }

  private void failed(Armed a, String error) {
    history.append(new RunHistory.FaultFailed(a.order, a.node, error));
  }

  /** Takes a fault away (once) and notes when. */
  private void heal(Armed a) {
    synchronized (a) {
      if (a.healer == null || a.healedMs != null) {
        return;
      }
      try {
        a.healer.heal();
      } catch (RuntimeException e) {
        failed(a, "heal failed: " + e.getMessage());
      }
      a.healedMs = nowMs.getAsLong();
      history.append(new RunHistory.FaultHealed(a.order, a.healedMs, a.healSaw == null ? Map.of() : a.healSaw.get()));
    }
  }

  private Node resolve(Armed a, JobWatch.Observed o) {
    Target target = a.step.fault().target();
    if (target instanceof Target.Index i) {
      return cluster.node(i.index());
    }
    if (target instanceof Target.Same) {
      Integer prev = a.order == 0 ? null : armed.get(a.order - 1).node;
      return prev == null ? null : cluster.node(prev);
    }
    return candidates(target, o).stream().min(Comparator.comparingInt(n -> a.preference.indexOf(n.index())))
        .orElse(null);
  }

  /** Nodes that are up and play the target's role now, in index order. */
  private List<Node> candidates(Target target, JobWatch.Observed o) {
    return candidates(target, o, n -> false);
  }

  /**
   * As above, among the nodes not {@code spared}: sparing applies before the role is judged, so
   * "most maps, sparing the AM" is the busiest node without the AM, not nothing when the AM's is busiest.
   * A node its part is pinned to is spared before the part runs there: reduces start only once maps
   * are done, and a fault early in the job could otherwise take the node they will run on.
   */
  private List<Node> candidates(Target target, JobWatch.Observed o, java.util.function.Predicate<Node> spared) {
    if (target instanceof Target.SparingAm s) {
      return candidates(s.choice(), o, spared.or(Node::runsApplicationMaster)
          .or(n -> pinned.holds(faultbed.harness.Pin.AM, n.index())));
    }
    if (target instanceof Target.SparingReducers s) {
      return candidates(s.choice(), o, spared.or(Node::runsReducer)
          .or(n -> pinned.holds(faultbed.harness.Pin.REDUCES, n.index())));
    }
    List<Node> up = new ArrayList<>(cluster.nodes().stream().filter(n -> n.isUp() && !spared.test(n)).toList());
    if (target instanceof Target.Role role) {
      switch (role) {
        case RANDOM -> { }
        case RUNNING_REDUCER -> up.removeIf(n -> !n.runsReducer());
        case HOLDING_MAP_OUTPUTS -> up.removeIf(n -> !o.outputsHeld.containsKey(n.index()));
        case APPLICATION_MASTER -> up.removeIf(n -> !n.runsApplicationMaster());
        case IDLE -> up.removeIf(n -> n.runsApplicationMaster() || !n.runningAttempts().isEmpty()
            || o.outputsHeld.containsKey(n.index()));
        case MOST_MAPS -> {
          java.util.function.ToIntFunction<Node> maps = n -> o.outputsHeld.getOrDefault(n.index(), 0)
              + (int) n.runningAttempts().stream().filter(x -> x.contains("_m_")).count();
          int most = up.stream().mapToInt(maps).max().orElse(0);
          up.removeIf(n -> most == 0 || maps.applyAsInt(n) < most);
        }
      }
    }
    return up;
  }

  /**
   * A crashed node goes LOST only at liveness expiry, often after the job is done; a stopped one
   * goes SHUTDOWN at once. Waits (bounded by expiry plus one check interval) so the record holds
   * the RM's verdict on every node a fault hit.
   */
  void awaitNodeVerdicts(List<NodeInfo> nodes, long expiry) throws InterruptedException {
    for (Armed a : armed) {
      if (a.injectedMs == null || a.node == null) {
        continue;
      }
      String expected = a.step.fault() instanceof NodeCrash ? "LOST"
          : a.step.fault() instanceof NodeStop ? "SHUTDOWN" : null;
      if (expected == null || expiry > 120_000) {
        continue; // with Hadoop's 10-minute default, waiting is not worth the run time
      }
      String id = nodes.get(a.node).nodeId();
      long deadline = a.injectedMs + expiry + expiry / 3 + 5_000;
      listener.phase("waiting for the RM to mark node " + a.node + " " + expected);
      while (nowMs.getAsLong() < deadline && history.transitions().stream()
          .noneMatch(t -> t.nodeId().equals(id) && expected.equals(t.to()))) {
        Thread.sleep(NodeStateWatcher.POLL_MS);
      }
    }
  }
}
