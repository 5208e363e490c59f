package faultbed.results;

import faultbed.results.RunRecord.AmAttempt;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.ClusterInfo;
import faultbed.results.RunRecord.FaultEvent;
import faultbed.results.RunRecord.FetchFailureReport;
import faultbed.results.RunRecord.JobOutcome;
import faultbed.results.RunRecord.NodeInfo;
import faultbed.results.RunRecord.NodeTransition;
import faultbed.results.RunRecord.OutputCheck;
import faultbed.results.RunRecord.Placement;
import faultbed.results.RunRecord.Speculation;
import faultbed.results.RunRecord.TimeScale;
import faultbed.results.RunRecord.WorkloadInfo;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What happened in one run, in the order the harness learnt it: appended as it happens by whoever
 * sees it (the fault driver when a fault fires and heals, the node watcher when the ResourceManager
 * changes a node's state, the job watch when a job ends), and afterwards what Hadoop wrote down (task
 * and AM attempts, speculation decisions, fetch failures) as it is read. The run's record is a view of
 * it, made in one place ({@link #record()}), for a run on a real cluster, a run the harness could not
 * complete, a simulated run and a job imported from its history file alike. Safe to append to from
 * several threads.
 */
public final class RunHistory {
  /** One thing that happened or was learnt. */
  public sealed interface Event permits Began, ClusterSeen, Configured, WorkloadMade, Pinned, Timed, Noted,
      StealingSet, MapPlacementSet, FaultArmed, FaultInjected, FaultHealed, FaultFailed, FaultRecorded, NodeChanged, SlowSeen, ShareSeen, JobEnded, CompanionEnded, AttemptsRead,
      AmAttemptsRead, FetchFailuresRead, SpeculationRead, PlacementRead, TimeScaleRead, OutputChecked {}

  /** The run's identity, as it began. */
  public record Began(String runId, String scenario, String variant, int runIndex, long seed, String startedAt)
      implements Event {}

  /** The cluster and its nodes as the run began. */
  public record ClusterSeen(ClusterInfo cluster, List<NodeInfo> nodes) implements Event {}

  /** The Hadoop settings in force that the scenario named. */
  public record Configured(Map<String, String> hadoop) implements Event {}

  /** The job's maps were held to a CPU share, idle slots lent by {@code policy} (see RunRecord#stealing). */
  public record StealingSet(String policy) implements Event {}

  /** The job's maps were given containers by a network-aware {@code policy} (see RunRecord#mapPlacement). */
  public record MapPlacementSet(String policy) implements Event {}

  /** What the placement policy decided and the link rates it saw, read from the AM's log. */
  public record PlacementRead(List<RunRecord.PlacementEvent> events, List<RunRecord.LinkRate> rates) implements Event {}

  public record WorkloadMade(WorkloadInfo workload) implements Event {}

  /** Where the run pinned its parts. */
  public record Pinned(Placement placement) implements Event {}

  /** A harness phase took until {@code ms} (or so long: the phase's name says which). */
  public record Timed(String phase, long ms) implements Event {}

  public record Noted(String text) implements Event {}

  /**
   * A step of the fault timeline armed: {@code order} is its place in the timeline; {@code
   * lastsToEnd}: it lasts until the run ends (a crash, a stop), so its record has no heal time.
   */
  public record FaultArmed(int order, String kind, String target, String trigger, Long scheduledMs,
      FaultEffect effect, boolean lastsToEnd) implements Event {}

  public record FaultInjected(int order, int node, long atMs, Map<String, String> detail) implements Event {}

  /** A fault healed; {@code saw}: what its heal found (a fault's own, as its injection's detail). */
  public record FaultHealed(int order, long atMs, Map<String, String> saw) implements Event {
    public FaultHealed {
      saw = saw == null ? Map.of() : Map.copyOf(saw);
    }

    public FaultHealed(int order, long atMs) {
      this(order, atMs, Map.of());
    }
  }

  /** A step that could not be injected or healed, and why; the last one for a step is what its record says. */
  public record FaultFailed(int order, Integer node, String error) implements Event {}

  /**
   * A fault learnt whole, after the fact (a simulation's outcome, where what each step did is known
   * once it has run): recorded as it is, before the steps armed here.
   */
  public record FaultRecorded(FaultEvent fault) implements Event {}

  public record NodeChanged(NodeTransition transition) implements Event {}

  /** A slow node or disk appeared in the NameNode's report, or left it ({@code clearedMs} set). */
  public record SlowSeen(RunRecord.SlowReport report) implements Event {}

  /** A container's span at one CPU share ended (its share changed, it ended, or the run did). */
  public record ShareSeen(RunRecord.CpuShare share) implements Event {}

  public record JobEnded(JobOutcome outcome) implements Event {}

  public record CompanionEnded(JobOutcome outcome) implements Event {}

  public record AttemptsRead(List<AttemptRecord> attempts) implements Event {}

  public record AmAttemptsRead(List<AmAttempt> amAttempts) implements Event {}

  public record FetchFailuresRead(List<FetchFailureReport> reports) implements Event {}

  public record SpeculationRead(Speculation speculation) implements Event {}

  public record TimeScaleRead(TimeScale timeScale) implements Event {}

  public record OutputChecked(OutputCheck check) implements Event {}

  private final List<Event> events = new ArrayList<>();

  /** A history that begins with the run's identity. */
  public RunHistory(String runId, String scenario, String variant, int runIndex, long seed, String startedAt) {
    append(new Began(runId, scenario, variant, runIndex, seed, startedAt));
  }

  /** Appends what happened; returns this history, so that a source that learns things at once can chain them. */
  public synchronized RunHistory append(Event e) {
    events.add(e);
    return this;
  }

  /** Everything appended so far, in order. */
  public synchronized List<Event> events() {
    return List.copyOf(events);
  }

  public RunHistory note(String text) {
    return append(new Noted(text));
  }

  /**
   * The notes as a list whose {@code add} appends a note: for the readers that write what they
   * could not read into a list of notes.
   */
  public List<String> notes() {
    return new AbstractList<>() {
      @Override
      public String get(int index) {
        return noted(events()).get(index);
      }

      @Override
      public int size() {
        return noted(events()).size();
      }

      @Override
      public boolean add(String text) {
        note(text);
        return true;
      }
    };
  }

  /** The timings as a map whose {@code put} appends a timing, from any thread. */
  public Map<String, Long> timings() {
    return new AbstractMap<>() {
      @Override
      public Set<Entry<String, Long>> entrySet() {
        return timed(events()).entrySet();
      }

      @Override
      public Long put(String phase, Long ms) {
        Long before = timed(events()).get(phase);
        append(new Timed(phase, ms));
        return before;
      }
    };
  }

  /** The node transitions seen so far. */
  public List<NodeTransition> transitions() {
    return transitions(events());
  }

  /**
   * The run's record: the last of each part appended wins (a job's outcome judged again after its
   * output was checked, say); faults are folded by their place in the timeline, and a step never
   * injected leaves a note saying why; a node the ResourceManager declared LOST carries when.
   */
  public RunRecord record() {
    List<Event> all = events();
    Began began = last(all, Began.class);
    ClusterSeen cluster = last(all, ClusterSeen.class);
    List<NodeTransition> transitions = transitions(all);
    List<String> notes = new ArrayList<>(noted(all));
    List<FaultEvent> faults = faults(all, notes);
    var b = RunRecord.builder().runId(began.runId()).scenario(began.scenario()).variant(began.variant())
        .runIndex(began.runIndex()).seed(began.seed()).startedAt(began.startedAt())
        .faults(faults).nodeTransitions(transitions).notes(notes).harnessMs(timed(all))
        .companionJobs(of(all, CompanionEnded.class).stream().map(CompanionEnded::outcome).toList());
    if (cluster != null) {
      b.cluster(cluster.cluster()).nodes(withLost(cluster.nodes(), transitions));
    }
    ifAny(all, Configured.class, c -> b.hadoop(c.hadoop()));
    ifAny(all, StealingSet.class, s -> b.stealing(s.policy()));
    ifAny(all, MapPlacementSet.class, p -> b.mapPlacement(p.policy()));
    ifAny(all, PlacementRead.class, p -> b.placementEvents(p.events()).linkRates(p.rates()));
    ifAny(all, WorkloadMade.class, w -> b.workload(w.workload()));
    ifAny(all, Pinned.class, p -> b.placement(p.placement()));
    ifAny(all, JobEnded.class, j -> b.job(j.outcome()));
    ifAny(all, AttemptsRead.class, a -> b.attempts(a.attempts()));
    ifAny(all, AmAttemptsRead.class, a -> b.amAttempts(a.amAttempts()));
    ifAny(all, FetchFailuresRead.class, f -> b.fetchFailures(f.reports()));
    ifAny(all, SpeculationRead.class, s -> b.speculation(s.speculation()));
    ifAny(all, TimeScaleRead.class, t -> b.timeScale(t.timeScale()));
    ifAny(all, OutputChecked.class, o -> b.outputCheck(o.check()));
    if (all.stream().anyMatch(SlowSeen.class::isInstance)) {
      b.slowReports(slowReports(all));
    }
    if (all.stream().anyMatch(ShareSeen.class::isInstance)) {
      b.cpuShares(of(all, ShareSeen.class).stream().map(ShareSeen::share).toList());
    }
    return b.build();
  }

  /** Each armed step with what became of it, in timeline order. */
  private static List<FaultEvent> faults(List<Event> all, List<String> notes) {
    Map<Integer, FaultArmed> armed = new TreeMap<>();
    Map<Integer, FaultInjected> injected = new TreeMap<>();
    Map<Integer, Long> healed = new TreeMap<>();
    Map<Integer, Map<String, String>> healSaw = new TreeMap<>();
    Map<Integer, FaultFailed> failed = new TreeMap<>();
    for (Event e : all) {
      if (e instanceof FaultArmed a) {
        armed.put(a.order(), a);
      } else if (e instanceof FaultInjected i) {
        injected.put(i.order(), i);
      } else if (e instanceof FaultHealed h) {
        healed.putIfAbsent(h.order(), h.atMs());
        healSaw.putIfAbsent(h.order(), h.saw());
      } else if (e instanceof FaultFailed f) {
        failed.put(f.order(), f);
      }
    }
    List<FaultEvent> out = new ArrayList<>();
    all.stream().filter(FaultRecorded.class::isInstance).map(e -> ((FaultRecorded) e).fault()).forEach(out::add);
    for (FaultArmed a : armed.values()) {
      FaultInjected i = injected.get(a.order());
      FaultFailed f = failed.get(a.order());
      Map<String, String> detail = new LinkedHashMap<>(i == null ? Map.of() : i.detail());
      detail.putAll(healSaw.getOrDefault(a.order(), Map.of()));
      if (f != null) {
        detail.put("error", f.error());
      }
      if (i == null) {
        notes.add("fault " + a.order() + " (" + a.kind() + ") was not injected: "
            + (f != null ? f.error() : "the job finished first"));
      }
      Integer node = i != null ? Integer.valueOf(i.node()) : f != null ? f.node() : null;
      out.add(new FaultEvent(a.kind(), node == null ? -1 : node, a.target(), a.trigger(), a.scheduledMs(),
          i == null ? null : i.atMs(), a.lastsToEnd() ? null : healed.get(a.order()), detail, a.effect()));
    }
    return out;
  }

  private static List<NodeInfo> withLost(List<NodeInfo> nodes, List<NodeTransition> transitions) {
    return nodes.stream().map(n -> new NodeInfo(n.index(), n.nodeId(), n.shufflePort(), n.localDirs(), n.logDirs(),
        n.cgroup(), transitions.stream().filter(t -> t.nodeId().equals(n.nodeId()) && "LOST".equals(t.to()))
            .map(NodeTransition::atMs).findFirst().orElse(n.lostAtMs()), n.clock())).toList();
  }

  /** Each slow report once, when it was first seen and, if it left the report, when. */
  private static List<RunRecord.SlowReport> slowReports(List<Event> all) {
    Map<List<Object>, RunRecord.SlowReport> seen = new LinkedHashMap<>();
    for (SlowSeen s : of(all, SlowSeen.class)) {
      RunRecord.SlowReport r = s.report();
      List<Object> key = List.of(r.what(), r.dataNode(), r.atMs());
      seen.merge(key, r, (first, later) -> later.clearedMs() != null ? later : first);
    }
    return List.copyOf(seen.values());
  }

  private static List<NodeTransition> transitions(List<Event> all) {
    return of(all, NodeChanged.class).stream().map(NodeChanged::transition).toList();
  }

  private static List<String> noted(List<Event> all) {
    return of(all, Noted.class).stream().map(Noted::text).toList();
  }

  private static Map<String, Long> timed(List<Event> all) {
    Map<String, Long> out = new LinkedHashMap<>();
    of(all, Timed.class).forEach(t -> out.put(t.phase(), t.ms()));
    return out;
  }

  private static <T extends Event> List<T> of(List<Event> all, Class<T> type) {
    return all.stream().filter(type::isInstance).map(type::cast).toList();
  }

  private static <T extends Event> T last(List<Event> all, Class<T> type) {
    T found = null;
    for (Event e : all) {
      if (type.isInstance(e)) {
        found = type.cast(e);
      }
    }
    return found;
  }

  private static <T extends Event> void ifAny(List<Event> all, Class<T> type, java.util.function.Consumer<T> use) {
    T e = last(all, type);
    if (e != null) {
      use.accept(e);
    }
  }
}
