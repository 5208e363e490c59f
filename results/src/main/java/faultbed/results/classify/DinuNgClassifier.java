package faultbed.results.classify;

import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.FaultEvent;
import faultbed.results.RunRecord.FetchFailureReport;
import faultbed.results.RunRecord.NodeTransition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Sorts a run into a {@link DinuNgGroup} from its record (the fault's time and node, the node's
 * state changes, every task attempt, and the fetch-failure reports) and the suite's fault-free job
 * time. The first injected
 * fault that takes a node down decides; the paper studied one failure per run.
 *
 * <p>Decision, in order: job failed (G8); map outputs of the node re-computed (some map that
 * finished there before the failure got a new attempt after it) -> before the node was declared
 * unusable, by fetch-failure reports (G3 if a re-run or speculative reducer reported, G4 if a
 * report came after the counting path, else G5), otherwise at node expiry (G1, or G2 when the
 * failure came after the last liveness check before the fault-free job end); nothing re-computed -> G6 if the node was running maps,
 * G1/G2 if only reducers were lost and waited for expiry, G7 if it ran nothing. A succeeded job whose
 * ApplicationMaster ran on the failed node and was restarted is AM_LOST, whatever else it lost.
 */
public final class DinuNgClassifier {
  /** A job the AM failed itself over a map's fetch-failure event (see invalidEventLine). */
  private static final Pattern INVALID_FETCH_FAILURE_EVENT =
      Pattern.compile("Invalid event TA_TOO_MANY_FETCH_FAILURE on TaskAttempt (attempt_\\S+)");
  /** How a reducer that killed itself over shuffle failures reports it (ShuffleSchedulerImpl, Shuffle). */
  private static final Pattern SHUFFLE_DEATH = Pattern.compile(
      "MAX_FAILED_UNIQUE_FETCHES|error in shuffle|ShuffleError|failures downloading");
  /** Node states in which the RM gives the node no work. */
  static final Set<String> UNUSABLE = Set.of("LOST", "SHUTDOWN", "UNHEALTHY", "DECOMMISSIONED");

  private DinuNgClassifier() {}

  /**
   * Every run, each judged against the fault-free runs of the suite that ran the same workload on
   * the same cluster: their median job time places a failure among the liveness checks (G1 or G2).
   */
  public static List<Classification> classifyAll(List<RunRecord> records) {
    Map<String, List<RunRecord>> faultFree = new java.util.HashMap<>();
    for (RunRecord r : records) {
      if (r.faults().isEmpty()) {
        faultFree.computeIfAbsent(shape(r), k -> new ArrayList<>()).add(r);
      }
    }
    Map<String, DelayAccount.Reference> references = new java.util.HashMap<>();
    faultFree.forEach((shape, runs) -> DelayAccount.Reference.of(runs, "median of "
        + runs.stream().filter(r -> r.job() != null && r.job().succeeded()).count() + " fault-free run(s)")
        .ifPresent(ref -> references.put(shape, ref)));
    // A workload the suite never ran without faults (a variant with more reducers, say): its runs
    // whose failure cost nothing (G7) ran as fast as a fault-free one would have.
    Map<String, List<RunRecord>> unaffected = new java.util.HashMap<>();
    for (RunRecord r : records) {
      if (!references.containsKey(shape(r)) && classify(r).group() == DinuNgGroup.G7) {
        unaffected.computeIfAbsent(shape(r), k -> new ArrayList<>()).add(r);
      }
    }
    unaffected.forEach((shape, runs) -> DelayAccount.Reference.of(runs, "median of " + runs.size()
        + " run(s) whose failure cost nothing (G7); no fault-free run of this workload")
        .ifPresent(ref -> references.put(shape, ref)));
    return records.stream().map(r -> new Run(r, references.get(shape(r))).classify()).toList();
  }

  /**
   * One run alone: with no fault-free run beside it, an expiry-bound run is G2 whenever detection
   * took longer than the expiry; {@link #classifyAll} places it among the checks as the paper does.
   */
  public static Classification classify(RunRecord run) {
    return new Run(run, null).classify();
  }

  /** Runs of the same workload (whatever its input's seed) on the same cluster are comparable in time. */
  private static String shape(RunRecord r) {
    RunRecord.WorkloadInfo w = r.workload();
    return (w == null ? "" : w.type() + new java.util.TreeMap<>(w.parameters()) + w.inputBytes()) + "|" + r.cluster();
  }

  /** One run under analysis: the record plus what is derived from it once. */
  private static final class Run {
    final RunRecord r;
    /** The suite's job time without failure for runs of this shape; null when it shows none. */
    final DelayAccount.Reference faultFree;
    DelayAccount delay;
    final HadoopTimers timers;
    final Map<String, AttemptRecord> byId;
    final List<String> evidence = new ArrayList<>();
    final Set<Mechanism> mechanisms = EnumSet.noneOf(Mechanism.class);

    Run(RunRecord r, DelayAccount.Reference faultFree) {
      this.r = r;
      this.faultFree = faultFree;
      this.timers = HadoopTimers.of(r.hadoop());
      this.byId = r.attempts().stream()
          .collect(Collectors.toMap(AttemptRecord::attemptId, Function.identity(), (a, b) -> a));
    }

    Classification classify() {
      if (r.faults().isEmpty()) {
        evidence.add("no fault injected; " + jobLine());
        return result(null, DinuNgGroup.NO_FAULT, Recovery.NONE_NEEDED);
      }
      List<FaultEvent> injected = r.faults().stream().filter(f -> f.injectedMs() != null).toList();
      if (injected.isEmpty()) {
        FaultEvent f = r.faults().get(0);
        evidence.add(f.kind() + " of " + f.target() + " (" + f.trigger() + ") was never injected");
        r.notes().forEach(n -> evidence.add("note: " + n));
        evidence.add(jobLine());
        return result(null, DinuNgGroup.UNCLASSIFIED, Recovery.UNKNOWN);
      }
      // a fault that stops a node by itself first; else one under which its node was declared unusable
      Optional<FaultEvent> failure = injected.stream().filter(f -> f.effect().stopsNode()).findFirst()
          .or(() -> injected.stream().filter(this::tookNodeDown).findFirst());
      if (failure.isEmpty()) {
        injected.forEach(f -> evidence.add(String.format(Locale.ROOT, "%s on node %d at %s", kindLine(f), f.node(),
            s(f.injectedMs()))));
        evidence.add("no fault took a node down (as a crash, stop, blackhole or freeze does); the Dinu-Ng groups"
            + " describe node failures");
        long first = injected.get(0).injectedMs();
        Recovery recovery = grayPathLines(first);
        evidence.add(jobLine());
        return result(first, DinuNgGroup.NO_NODE_FAILURE, recovery);
      }
      FaultEvent fault = failure.get();
      long tf = fault.injectedMs();
      int node = fault.node();
      evidence.add(String.format(Locale.ROOT, "%s of node %d at %s (%s, %s)", kindLine(fault), node, s(tf),
          fault.target(), fault.trigger()));
      injected.stream().filter(f -> f != fault).forEach(f -> evidence.add(String.format(Locale.ROOT,
          "also %s on node %d at %s; classified by the %s, as the paper studied one node failure per run",
          f.kind(), f.node(), s(f.injectedMs()), fault.kind())));
      Optional<NodeTransition> unusable = r.nodeTransitions().stream()
          .filter(t -> t.node() == node && t.atMs() >= tf && UNUSABLE.contains(t.to()))
          .min(Comparator.comparingLong(NodeTransition::atMs));
      Long unusableAt = unusable.map(NodeTransition::atMs).orElse(null);
      boolean lost = unusable.map(t -> t.to().equals("LOST")).orElse(false);
      if (!fault.effect().stopsNode()) {
        // the first lines say why a fault that leaves its node up is read as a node failure
        evidence.add(0, String.format(Locale.ROOT, "a %s does not take a node down by itself, but node %d was declared"
            + " %s under it: %s, so it is classified as a node failure", kindLine(fault), node,
            unusable.map(NodeTransition::to).orElse("unusable"), unusable.map(t -> t.to().equals("UNHEALTHY")
                ? "its NodeManager's health check failed (its disk checker found too few good local or log dirs:"
                    + " a full disk, say) and it said so in a heartbeat"
                : "its daemons died (memory pressure's OOM killer may take them) or lost the ResourceManager")
                .orElse("")));
      }
      evidence.add(detectionLine(tf, unusable));

      List<LostOutput> lostOutputs = lostOutputs(node, tf);
      List<AttemptRecord> running = r.attempts().stream()
          .filter(a -> node(a) == node && a.startMs() != null && a.startMs() <= tf
              && (a.finishMs() == null || a.finishMs() > tf) && !a.doneBy(tf))
          .toList();
      List<AttemptRecord> finishedMaps = r.attempts().stream()
          .filter(a -> node(a) == node && isMap(a) && a.doneBy(tf))
          .toList();
      evidence.add(String.format(Locale.ROOT, "at the failure node %d had finished %d map(s) and was running %s",
          node, finishedMaps.size(), running.isEmpty() ? "nothing" : running.size() + " attempt(s): " + names(running)));
      lostOutputs.forEach(l -> evidence.add(l.describe()));
      if (!lostOutputs.isEmpty()) {
        mechanisms.add(Mechanism.MAP_OUTPUTS_LOST);
      }
      fetchFailureLine(node, unusableAt);
      Recovery runningRecovery = runningLines(running, unusableAt, unusable.map(NodeTransition::to).orElse(null));
      speculationLines(tf);
      inducedDeathLines(node, tf, false);
      evidence.add(jobLine());
      if (faultFree != null) {
        delay = DelayAccount.of(r, fault, unusableAt, faultFree).orElse(null);
        if (delay != null) {
          evidence.add(delay.describe());
        }
      }

      // Every lost output is judged; the job could not end before the last was computed again, so
      // that one decides how the run recovered.
      Optional<LostOutput> decisive = lostOutputs.stream().max(Comparator.comparingLong(l -> l.rerun().startMs()));
      if (lostOutputs.size() > 1) {
        evidence.add(String.format(Locale.ROOT, "%d map outputs lost: %d re-run before the node was declared unusable,"
                + " %d after; the last re-run, %s at %s, decides the recovery", lostOutputs.size(),
            lostOutputs.stream().filter(l -> unusableAt == null || l.rerun().startMs() < unusableAt).count(),
            lostOutputs.stream().filter(l -> unusableAt != null && l.rerun().startMs() >= unusableAt).count(),
            shortName(decisive.orElseThrow().rerun().attemptId()), s(decisive.orElseThrow().rerun().startMs())));
      }
      decisive.ifPresent(l -> declaredLostLine(l, unusableAt));
      boolean beforeUnusable = decisive.map(l -> unusableAt == null || l.rerun().startMs() < unusableAt).orElse(false);
      Recovery recovery = decisive.isEmpty() ? runningRecovery
          : beforeUnusable ? Recovery.FETCH_FAILURE_REPORTS
          : lost ? Recovery.NODE_EXPIRY : Recovery.NODE_REPORTED;

      boolean amLostHere = amLines(node, tf, unusableAt);
      if (r.job() != null && !r.job().succeeded()) {
        failedTaskLines();
        return result(tf, DinuNgGroup.G8, recovery);
      }
      if (amLostHere) {
        return result(tf, DinuNgGroup.AM_LOST, unusableAt != null && r.amAttempts().size() > 1
            && r.amAttempts().get(1).startMs() != null && r.amAttempts().get(1).startMs() >= unusableAt
            ? (lost ? Recovery.NODE_EXPIRY : Recovery.NODE_REPORTED) : Recovery.UNKNOWN);
      }
      if (decisive.isPresent()) {
        return beforeUnusable ? byFetchFailures(tf, node, decisive.get())
            : atExpiry(tf, unusableAt, recovery, "map outputs were re-computed only after the node was declared "
                + unusable.map(NodeTransition::to).orElseThrow());
      }
      if (running.isEmpty()) {
        // Two different situations give G7; say which, so a crash that preceded all work is not read
        // as one that the node survived after doing its share.
        boolean hadWork = r.attempts().stream().anyMatch(a -> node(a) == node && a.startMs() != null && a.startMs() <= tf);
        List<AttemptRecord> unplaced = r.attempts().stream().filter(a -> a.node() == null && a.startMs() != null
            && a.startMs() <= tf && (a.finishMs() == null || a.finishMs() > tf) && !a.doneBy(tf)).toList();
        if (!unplaced.isEmpty()) {
          // an attempt whose history has no end names no host in records written before its start event's
          // host was read: it may have been running on the failed node
          evidence.add(String.format(Locale.ROOT, "the record names no node for %d attempt(s) running at the failure"
              + " (%s: attempts with no end in the job history, whose host older records did not read), so the node"
              + " may have been running them", unplaced.size(), names(unplaced)));
        }
        evidence.add(hadWork
            ? "G7: every task the node had run was done at the failure and none of its map outputs had to be re-computed"
            : "G7: the node had not yet been given any task, so there was nothing to lose (a crash before the node's"
                + " first task tests only that the job does without the node)");
        return result(tf, DinuNgGroup.G7, Recovery.NONE_NEEDED);
      }
      mechanisms.add(Mechanism.RUNNING_ATTEMPTS_LOST);
      if (running.stream().anyMatch(this::isMap)) {
        evidence.add("G6: the node was running maps and held no map output that had to be re-computed"
            + (recovery == Recovery.NODE_EXPIRY && !timers.mapSpeculative()
                ? "; with mapreduce.map.speculative=false nothing re-ran them early, so they waited for the expiry"
                    + " (in the paper speculation re-ran them at no cost)"
                : ""));
        return result(tf, DinuNgGroup.G6, recovery);
      }
      if (recovery == Recovery.NODE_EXPIRY || recovery == Recovery.NODE_REPORTED) {
        return atExpiry(tf, unusableAt, recovery,
            "no map output was lost, but the reduce attempts on the node were re-run only after it was declared "
                + unusable.map(NodeTransition::to).orElseThrow());
      }
      evidence.add("only reduce attempts ran on the node and they were replaced by " + recovery.label()
          + ": no group of the paper describes this");
      return result(tf, DinuNgGroup.UNCLASSIFIED, recovery);
    }

    /**
     * The AM attempts, when there was more than one: which node each ran on and when the next
     * started. True when an AM attempt that ran on the failed node was followed by another.
     */
    private boolean amLines(int node, long tf, Long unusableAt) {
      List<RunRecord.AmAttempt> ams = r.amAttempts();
      if (ams.isEmpty()) {
        // Records from before AM attempts were kept: MapReduce numbers the task attempts of AM
        // attempt n from (n - 1) x 1000, so a number of 1000 or more shows a later AM.
        Optional<AttemptRecord> later = r.attempts().stream().filter(a -> a.attempt() >= 1000 && a.startMs() != null)
            .min(Comparator.comparingLong(AttemptRecord::startMs));
        if (later.isEmpty() || later.get().startMs() < tf) {
          return false;
        }
        mechanisms.add(Mechanism.AM_RESTARTED);
        evidence.add("a later ApplicationMaster attempt ran the job from " + s(later.get().startMs())
            + " (task attempts numbered from 1000); the record predates AM attempts being kept, so it holds"
            + " neither where the first AM ran nor that AM's task attempts");
        return true;
      }
      if (ams.size() < 2) {
        return false;
      }
      mechanisms.add(Mechanism.AM_RESTARTED);
      boolean here = false;
      for (int i = 0; i + 1 < ams.size(); i++) {
        RunRecord.AmAttempt dead = ams.get(i);
        RunRecord.AmAttempt next = ams.get(i + 1);
        boolean onFailed = dead.node() != null && dead.node() == node;
        here |= onFailed;
        long redone = r.attempts().stream().filter(a -> a.amAttempt() != null && a.amAttempt() == next.attempt()
            && a.startMs() != null && a.startMs() >= tf && !byTaskDoneBefore(a, tf)).count();
        evidence.add(String.format(Locale.ROOT, "the job's ApplicationMaster (attempt %d) ran on %s; attempt %d"
                + " started on node %s at %s%s, and %d task attempt(s) of it ran work not finished before the failure",
            dead.attempt(), onFailed ? "the failed node " + node : "node " + dead.node(), next.attempt(),
            next.node(), s(next.startMs()),
            next.startMs() == null ? "" : unusableAt != null && next.startMs() >= unusableAt
                ? ", after the node was declared unusable at " + s(unusableAt)
                : ", " + s(next.startMs() - tf) + " after the failure",
            redone));
      }
      return here;
    }

    /** Whether the attempt's task had a successful attempt that finished before {@code tf}. */
    private boolean byTaskDoneBefore(AttemptRecord a, long tf) {
      return r.attempts().stream().anyMatch(o -> o.taskId().equals(a.taskId()) && "SUCCEEDED".equals(o.state())
          && o.finishMs() != null && o.finishMs() <= tf && !o.attemptId().equals(a.attemptId()));
    }

    /**
     * G1 or G2, by the paper's rule (section 4.1): the liveness checks fall on a grid, and a failure
     * after the last check before the job would have ended without it is found one check later than
     * one before that check. The grid is read off the check that declared the node LOST.
     */
    private Classification atExpiry(long tf, Long unusableAt, Recovery recovery, String why) {
      if (recovery == Recovery.NODE_REPORTED) {
        evidence.add("G1 by mechanism: " + why + ", which its NodeManager reported, so without the expiry wait");
        return result(tf, DinuNgGroup.G1, recovery);
      }
      if (faultFree == null) {
        DinuNgGroup g = unusableAt - tf > timers.expiryMs() ? DinuNgGroup.G2 : DinuNgGroup.G1;
        evidence.add(g.label() + ": " + why + "; with no fault-free run beside this one to place the failure among"
            + " the liveness checks, " + (g == DinuNgGroup.G2 ? "detection longer than the expiry counts as G2"
                : "detection within the expiry counts as G1"));
        return result(tf, g, recovery);
      }
      long check = Math.max(1, timers.livenessCheckMs());
      long end = faultFree.jobMs();
      long lastCheck = unusableAt <= end ? unusableAt : unusableAt - ((unusableAt - end + check - 1) / check) * check;
      DinuNgGroup g = tf > lastCheck ? DinuNgGroup.G2 : DinuNgGroup.G1;
      evidence.add(String.format(Locale.ROOT, "%s: %s; liveness checks every %s, on the grid of the one at %s:"
              + " the last before the job would have ended without the failure (%s, %s) was at %s, and the"
              + " failure at %s came %s",
          g.label(), why, s(check), s(unusableAt), s(end), faultFree.source(), s(lastCheck), s(tf),
          g == DinuNgGroup.G2 ? "after it, so it was found one check later than a failure before it"
              : "before it"));
      return result(tf, g, recovery);
    }

    private Classification byFetchFailures(long tf, int failedNode, LostOutput first) {
      mechanisms.add(Mechanism.FETCH_FAILURE_REPORTS);
      List<FetchFailureReport> reports = r.fetchFailures().stream()
          .filter(f -> f.mapAttempt().equals(first.original().attemptId()) && f.atMs() <= first.rerun().startMs())
          .toList();
      if (reports.isEmpty()) {
        evidence.add(task(first.original()) + " was re-computed at " + s(first.rerun().startMs())
            + " before the node was declared unusable, but the record holds no fetch-failure report about it"
            + " (shuffle logs missing), so G3, G4 and G5 cannot be told apart");
        return result(tf, DinuNgGroup.UNCLASSIFIED, Recovery.FETCH_FAILURE_REPORTS);
      }
      // G3 is the paper's mechanism only: the failed node's own reducer, run again elsewhere,
      // reported. A speculative copy of a healthy node's reducer is an original reducer here.
      List<String> rerunReporters = reports.stream().map(FetchFailureReport::reduceAttempt).distinct()
          .filter(id -> Optional.ofNullable(byId.get(id)).map(a -> a.attempt() > 0 && ranOnFailedNode(a, failedNode))
              .orElse(false))
          .map(DinuNgClassifier::shortName).toList();
      evidence.add(String.format(Locale.ROOT,
          "%s re-computed at %s, before the node was declared unusable, after %d fetch-failure report(s) about %s"
              + " at %s from %s (the AM acts at %d reports and a %.2f share of shuffling reducers)",
          task(first.original()), s(first.rerun().startMs()), reports.size(), shortName(first.original().attemptId()),
          reports.stream().map(f -> s(f.atMs())).collect(Collectors.joining(", ")),
          reports.stream().map(f -> shortName(f.reduceAttempt())).distinct().collect(Collectors.joining(", ")),
          timers.fetchFailureNotifications(), timers.fetchFailureFraction()));
      if (!rerunReporters.isEmpty()) {
        evidence.add("G3: the failed node's reducer, re-run elsewhere as " + String.join(", ", rerunReporters)
            + ", reported");
        return result(tf, DinuNgGroup.G3, Recovery.FETCH_FAILURE_REPORTS);
      }
      // A reducer reports a refused fetch at once; a report that is not its reducer's first about
      // this output came only after the reducer backed off and failed again: the counting path.
      List<String> retries = new ArrayList<>();
      Map<String, Long> firstReport = new java.util.HashMap<>();
      for (FetchFailureReport f : reports) {
        Long before = firstReport.putIfAbsent(f.reduceAttempt(), f.atMs());
        if (before != null) {
          retries.add(String.format(Locale.ROOT, "%s at %s (%s after its first)", shortName(f.reduceAttempt()),
              s(f.atMs()), s(f.atMs() - before)));
        }
      }
      if (!retries.isEmpty()) {
        evidence.add("G4: the AM needed report(s) that came only after their reducer backed off and failed again: "
            + String.join(", ", retries));
        return result(tf, DinuNgGroup.G4, Recovery.FETCH_FAILURE_REPORTS);
      }
      evidence.add("G5: every report the AM needed was its reducer's first, sent when the fetch was refused; the last"
          + " came " + s(reports.get(reports.size() - 1).atMs() - tf) + " after the failure");
      return result(tf, DinuNgGroup.G5, Recovery.FETCH_FAILURE_REPORTS);
    }

    /** Whether an earlier attempt of {@code a}'s task ran on the failed node. */
    private boolean ranOnFailedNode(AttemptRecord a, int failedNode) {
      return r.attempts().stream().anyMatch(b -> b.taskId().equals(a.taskId()) && b.attempt() < a.attempt()
          && node(b) == failedNode);
    }

    private String detectionLine(long tf, Optional<NodeTransition> unusable) {
      if (unusable.isEmpty()) {
        return String.format(Locale.ROOT, "the RM never declared the node unusable while the run was observed (expiry %s)",
            s(timers.expiryMs()));
      }
      NodeTransition t = unusable.get();
      long d = t.atMs() - tf;
      if (!t.to().equals("LOST")) {
        return String.format(Locale.ROOT, "node %s at %s, %s after the failure: reported to the RM, no expiry wait",
            t.to(), s(t.atMs()), s(d));
      }
      long check = timers.livenessCheckMs();
      long nth = (d + check - 1) / Math.max(check, 1);
      if (d <= timers.expiryMs()) {
        return String.format(Locale.ROOT, "node LOST at %s: detection %s, within the expiry %s, because a liveness check"
                + " (every %s) fell between its last heartbeat (every %s) and the failure; found at check %d after it",
            s(t.atMs()), s(d), s(timers.expiryMs()), s(check), s(timers.heartbeatMs()), nth);
      }
      return String.format(Locale.ROOT, "node LOST at %s: detection %s = expiry %s + %s waiting for the next liveness"
          + " check (every %s); found at check %d after the failure", s(t.atMs()), s(d), s(timers.expiryMs()),
          s(d - timers.expiryMs()), s(check), nth);
    }

    /** Maps that finished on the node before the failure and got a new attempt after it. */
    private List<LostOutput> lostOutputs(int node, long tf) {
      List<LostOutput> lost = new ArrayList<>();
      for (AttemptRecord a : r.attempts()) {
        boolean finishedThere = node(a) == node && isMap(a)
            && (a.doneBy(tf) || a.finishMs() != null && a.finishMs() <= tf && fetchFailed(a));
        if (!finishedThere) {
          continue;
        }
        r.attempts().stream()
            .filter(b -> b.taskId().equals(a.taskId()) && b.attempt() > a.attempt() && b.startMs() != null
                && b.startMs() >= tf)
            .min(Comparator.comparingLong(AttemptRecord::startMs))
            .ifPresent(rerun -> lost.add(new LostOutput(a, rerun)));
      }
      return lost;
    }

    /**
     * An output re-run only after the node was declared unusable may still have been declared lost
     * earlier, by fetch-failure reports (its attempt FAILED with "Too many fetch failures"): then
     * the re-run waited for a container, not for the node's expiry to find the loss.
     */
    private void declaredLostLine(LostOutput l, Long unusableAt) {
      if (unusableAt == null || l.rerun().startMs() < unusableAt || !fetchFailed(l.original())) {
        return;
      }
      Optional<FetchFailureReport> last = r.fetchFailures().stream()
          .filter(f -> f.mapAttempt().equals(l.original().attemptId()) && f.atMs() < unusableAt)
          .max(Comparator.comparingLong(FetchFailureReport::atMs));
      if (last.isEmpty()) {
        return;
      }
      mechanisms.add(Mechanism.DECLARED_LOST_BY_REPORTS);
      evidence.add(String.format(Locale.ROOT, "%s was declared lost by fetch-failure reports (the last at %s, %s before"
              + " the node was declared unusable at %s), yet its re-run started only at %s, %s after that: it"
              + " waited for a container, which the AM frees only once the node is declared unusable",
          task(l.original()), s(last.get().atMs()), s(unusableAt - last.get().atMs()), s(unusableAt),
          s(l.rerun().startMs()), s(l.rerun().startMs() - unusableAt)));
    }

    /**
     * What noticed a fault that took no node down (a stalled task, AM or link) and what redid the
     * work: attempts the AM timed out for want of progress reports, a later AM attempt after the
     * ResourceManager expired the first, fetch failures about a node that stayed up.
     */
    private Recovery grayPathLines(long tf) {
      Recovery recovery = Recovery.NONE_NEEDED;
      List<AttemptRecord> timedOut = r.attempts().stream().filter(a -> a.finishMs() != null && a.finishMs() >= tf
          && timedOut(a)).toList();
      for (AttemptRecord a : timedOut) {
        mechanisms.add(Mechanism.TASK_TIMED_OUT);
        Optional<AttemptRecord> next = r.attempts().stream().filter(b -> a.taskId().equals(b.taskId())
            && b.attempt() > a.attempt() && b.startMs() != null).min(Comparator.comparingLong(AttemptRecord::startMs));
        evidence.add(String.format(Locale.ROOT, "%s on node %s timed out at %s: no progress report for the task"
                + " timeout (mapreduce.task.timeout %s); %s", shortName(a.attemptId()), a.node(), s(a.finishMs()),
            s(timers.taskTimeoutMs()), next.map(b -> "re-run as " + shortName(b.attemptId()) + " at " + s(b.startMs())
                + " on node " + b.node()).orElse("never re-run")));
        recovery = Recovery.TASK_RETRY;
      }
      if (!timedOut.isEmpty()) {
        amClockLine();
      }
      corruptReplicaLines();
      slowReportLines(tf);
      List<RunRecord.AmAttempt> ams = r.amAttempts();
      if (ams.size() > 1 && ams.get(1).startMs() != null && ams.get(1).startMs() >= tf) {
        mechanisms.add(Mechanism.AM_RESTARTED);
        evidence.add(String.format(Locale.ROOT, "AM attempt %d started at %s on node %s: the ResourceManager expired"
                + " the first, which stopped heartbeating to it (yarn.am.liveness-monitor.expiry-interval-ms %s)",
            ams.get(1).attempt(), s(ams.get(1).startMs()), ams.get(1).node(), s(timers.amExpiryMs())));
        recovery = Recovery.AM_RESTART;
      }
      List<FetchFailureReport> reports = r.fetchFailures().stream().filter(f -> f.atMs() >= tf).toList();
      if (!reports.isEmpty()) {
        mechanisms.add(Mechanism.FETCH_FAILURE_REPORTS);
        evidence.add(String.format(Locale.ROOT, "%d fetch-failure report(s) about map outputs on node(s) %s from"
                + " %d reducer(s), first at %s, though no node was down", reports.size(),
            reports.stream().map(FetchFailureReport::mapNode).distinct().toList(),
            reports.stream().map(FetchFailureReport::reduceAttempt).distinct().count(), s(reports.get(0).atMs())));
        boolean rerun = r.attempts().stream().anyMatch(a -> isMap(a) && a.attempt() > 0 && a.startMs() != null
            && a.startMs() >= reports.get(0).atMs());
        if (rerun && recovery == Recovery.NONE_NEEDED) {
          recovery = Recovery.FETCH_FAILURE_REPORTS;
        }
      }
      recovery = failedOnNodeLines(tf, recovery);
      // a reducer that gave up fetching from a node it could not reach, though every node was up
      int before = mechanisms.size();
      inducedDeathLines(-1, tf, true);
      if (mechanisms.size() > before) {
        recovery = Recovery.TASK_RETRY;
      }
      return recovery;
    }

    /**
     * What HDFS's slow-node detection named during the run: the faulted node (detected, and how long
     * after the fault) or another one (a false alarm). A report seen before the fault is one still
     * valid from before it (a previous run's).
     */
    private void slowReportLines(long tf) {
      if (r.slowReports().isEmpty()) {
        return;
      }
      java.util.Set<Integer> faulted = r.faults().stream().filter(f -> f.injectedMs() != null).map(FaultEvent::node)
          .collect(Collectors.toSet());
      for (RunRecord.SlowReport s : r.slowReports()) {
        boolean peer = RunRecord.SlowReport.PEER.equals(s.what());
        mechanisms.add(peer ? Mechanism.HDFS_SLOW_PEER : Mechanism.HDFS_SLOW_DISK);
        String who = s.node() < 0 ? "DataNode " + s.dataNode() : "node " + s.node();
        String what = peer ? who + " a slow peer" : "a slow disk of " + who + " (" + s.dataNode()
            .substring(s.dataNode().indexOf(':', s.dataNode().indexOf(':') + 1) + 1) + ")";
        String when = s.atMs() >= tf ? String.format(Locale.ROOT, "%s after the fault", s(s.atMs() - tf))
            : "before the fault (a report still valid from before)";
        evidence.add(String.format(Locale.ROOT, "HDFS named %s at %s, %s%s: %s%s", what, s(s.atMs()), when,
            faulted.contains(s.node()) ? "" : ", though no fault was on it", s.detail(),
            s.clearedMs() == null ? "" : "; out of the report at " + s(s.clearedMs())));
      }
    }

    /**
     * Attempts that failed by themselves on a faulted node (not timed out, not for fetch failures):
     * its disk answered with errors, or its NodeManager could not launch their containers. After
     * {@code mapreduce.job.maxtaskfailures.per.tracker} of them the AM blacklists the node, unless
     * blacklisted nodes would pass the ignore threshold's share of the cluster.
     */
    private Recovery failedOnNodeLines(long tf, Recovery recovery) {
      java.util.Set<Integer> faulted = r.faults().stream().filter(f -> f.injectedMs() != null).map(FaultEvent::node)
          .collect(Collectors.toSet());
      for (int node : faulted) {
        List<AttemptRecord> failed = r.attempts().stream().filter(a -> node(a) == node && "FAILED".equals(a.state())
            && a.finishMs() != null && a.finishMs() >= tf && !timedOut(a) && !fetchFailed(a))
            .sorted(Comparator.comparingLong(AttemptRecord::finishMs)).toList();
        if (failed.isEmpty()) {
          continue;
        }
        mechanisms.add(Mechanism.TASK_FAILED_ON_NODE);
        for (AttemptRecord a : failed) {
          Optional<AttemptRecord> next = r.attempts().stream().filter(b -> a.taskId().equals(b.taskId())
              && b.attempt() > a.attempt() && b.startMs() != null).min(Comparator.comparingLong(AttemptRecord::startMs));
          evidence.add(String.format(Locale.ROOT, "%s FAILED on node %d at %s: %s; %s", shortName(a.attemptId()), node,
              s(a.finishMs()), failureCause(a), next.map(b -> "re-run as " + shortName(b.attemptId()) + " at "
                  + s(b.startMs()) + " on node " + b.node()).orElse("never re-run")));
        }
        if (recovery == Recovery.NONE_NEEDED) {
          recovery = Recovery.TASK_RETRY;
        }
        int most = timers.maxTaskFailuresPerNode();
        if (failed.size() >= most) {
          long at = failed.get(most - 1).finishMs();
          boolean after = r.attempts().stream().anyMatch(a -> node(a) == node && a.startMs() != null
              && a.startMs() > at);
          int nodes = r.nodes().size();
          if (!after) {
            mechanisms.add(Mechanism.NODE_BLACKLISTED);
            evidence.add(String.format(Locale.ROOT, "no attempt started on node %d after its %d%s failure at %s: the AM"
                + " blacklisted it (mapreduce.job.maxtaskfailures.per.tracker %d)", node, most, ordinal(most), s(at),
                most));
          } else if (nodes > 0 && 100.0 / nodes > timers.blacklistIgnorePercent()) {
            evidence.add(String.format(Locale.ROOT, "attempts still started on node %d after its %d%s failure at %s:"
                + " one node of %d is more than the %d %% of the cluster above which the AM ignores its blacklist"
                + " (yarn.app.mapreduce.am.job.node-blacklisting.ignore-threshold-node-percent)", node, most,
                ordinal(most), s(at), nodes, timers.blacklistIgnorePercent()));
          }
        }
      }
      return recovery;
    }

    /**
     * Why attempts timed out when a clock fault struck the AM's node: the AM's task timeouts read its
     * time of day, so a clock stepped ahead past the timeout makes every attempt that has not
     * reported since look silent that long (and a fast clock makes the timeout come early).
     */
    private void amClockLine() {
      Integer amNode = r.amAttempts().isEmpty() ? null : r.amAttempts().get(0).node();
      for (RunRecord.FaultEvent f : r.faults()) {
        if (amNode == null || f.node() != amNode || f.injectedMs() == null) {
          continue;
        }
        String offset = f.detail().get("clockOffsetMs");
        String speed = f.detail().get("clockSpeed");
        if (offset != null) {
          long ms = Long.parseLong(offset);
          evidence.add(String.format(Locale.ROOT, "the AM ran on node %d, whose clock the %s stepped %s %s at %s%s: its"
                  + " task timeouts read the time of day, so attempts that had not reported since looked silent that"
                  + " long; the times of its history are on that clock", amNode, f.kind(), s(Math.abs(ms)),
              ms > 0 ? "ahead" : "back", s(f.injectedMs()), ms >= timers.taskTimeoutMs()
                  ? " (past mapreduce.task.timeout, " + s(timers.taskTimeoutMs()) + ")" : ""));
        } else if (speed != null) {
          evidence.add(String.format(Locale.ROOT, "the AM ran on node %d, whose clock the %s ran x%s from %s: its task"
              + " timeouts read the time of day, which ran that much faster; the times of its history are on that"
              + " clock", amNode, f.kind(), speed, s(f.injectedMs())));
        }
      }
    }

    /**
     * What HDFS did with the replicas a corrupt-replica fault damaged, as its heal found them: those
     * the DataNode had deleted were read, reported and replaced; the rest nobody read.
     */
    private void corruptReplicaLines() {
      for (RunRecord.FaultEvent f : r.faults()) {
        String blocks = f.detail().get("corruptedBlocks");
        String deleted = f.detail().get("replicasDeleted");
        if (blocks == null || f.injectedMs() == null) {
          continue;
        }
        int made = blocks.isEmpty() ? 0 : blocks.split(",").length;
        if (made == 0) {
          evidence.add(String.format(Locale.ROOT, "node %d held no replica of the job's input: nothing was corrupted",
              f.node()));
        } else if (deleted == null) {
          evidence.add(String.format(Locale.ROOT, "%d replica(s) of the job's input corrupted on node %d; what HDFS"
              + " did with them is not recorded (the fault was not healed)", made, f.node()));
        } else {
          int gone = Integer.parseInt(deleted);
          if (gone > 0) {
            mechanisms.add(Mechanism.CORRUPT_REPLICA_REPLACED);
          }
          evidence.add(String.format(Locale.ROOT, "%d of %d corrupted replica(s) on node %d were found by a reader's"
                  + " checksum check and replaced: the NameNode had a good copy made and the DataNode delete them"
                  + " (gone by the heal%s)%s", gone, made, f.node(), f.healedMs() == null ? "" : " at " + s(f.healedMs()),
              made - gone == 0 ? ""
                  : String.format(Locale.ROOT, "; %d left corrupt: no reader read them", made - gone)));
        }
      }
    }

    /** What an attempt's error says went wrong, in a few words. */
    private static String failureCause(AttemptRecord a) {
      String e = a.error() == null ? "" : a.error();
      if (e.contains("Could not find any valid local directory")) {
        return "its container could not be launched: no usable local dir on the node";
      }
      if (e.contains("Input/output error")) {
        return "an I/O error on the node's disk";
      }
      if (e.contains("No space left on device")) {
        return "the node's disk was full";
      }
      if (e.contains("mkdir of ") && e.contains("usercache")) {
        return "its container's folder could not be made in the node's local dir";
      }
      if (e.contains("FileNotFoundException") && e.contains("usercache")) {
        return "a file in its container's folder on the node could not be read";
      }
      if (e.contains("This token is expired")) {
        return "the node refused its container: the container token had expired by the node's clock, ahead of the"
            + " ResourceManager's";
      }
      if (e.contains("Exception from container-launch")) {
        return "its container failed to launch";
      }
      String first = e.strip().lines().findFirst().orElse("no error recorded");
      return first.length() > 120 ? first.substring(0, 120) + "..." : first;
    }

    private static String ordinal(int n) {
      return n % 100 / 10 == 1 ? "th" : switch (n % 10) {
        case 1 -> "st";
        case 2 -> "nd";
        case 3 -> "rd";
        default -> "th";
      };
    }

    private void fetchFailureLine(int node, Long unusableAt) {
      List<FetchFailureReport> about = r.fetchFailures().stream()
          .filter(f -> f.mapNode() != null && f.mapNode() == node).toList();
      if (about.isEmpty()) {
        evidence.add("no fetch-failure report about node " + node + "'s map outputs");
        return;
      }
      long before = unusableAt == null ? about.size() : about.stream().filter(f -> f.atMs() < unusableAt).count();
      long reducers = about.stream().map(FetchFailureReport::reduceAttempt).distinct().count();
      evidence.add(String.format(Locale.ROOT, "%d fetch-failure report(s) about node %d's map outputs from %d reducer(s),"
              + " first at %s, last at %s; %d before the node was declared unusable",
          about.size(), node, reducers, s(about.get(0).atMs()), s(about.get(about.size() - 1).atMs()), before));
    }

    /** Says what became of each attempt running on the node; returns how the last replaced one was replaced. */
    private Recovery runningLines(List<AttemptRecord> running, Long unusableAt, String unusableState) {
      boolean lost = "LOST".equals(unusableState);
      Recovery last = Recovery.NONE_NEEDED;
      long lastStart = Long.MIN_VALUE;
      boolean cleanUpExplained = false;
      for (AttemptRecord a : running) {
        Optional<AttemptRecord> next = r.attempts().stream()
            .filter(b -> b.taskId().equals(a.taskId()) && b.attempt() > a.attempt() && b.startMs() != null)
            .min(Comparator.comparingLong(AttemptRecord::startMs));
        String end = a.finishMs() == null ? "never ended" : a.state() + " at " + s(a.finishMs());
        if (a.finishMs() != null && unusableAt != null && a.finishMs() >= unusableAt) {
          long after = a.finishMs() - unusableAt;
          boolean cleanUp = Math.abs(after - timers.nmConnectMaxWaitMs()) <= 1_500;
          end += " (" + s(after) + " after " + unusableState + (cleanUp && !cleanUpExplained
              ? ": the AM's clean-up of its container retries the dead node for"
                  + " yarn.client.nodemanager-connect.max-wait-ms = " + s(timers.nmConnectMaxWaitMs())
              : "") + ")";
          cleanUpExplained |= cleanUp;
        }
        if (next.isEmpty()) {
          evidence.add(shortName(a.attemptId()) + " " + end + "; no new attempt");
          continue;
        }
        AttemptRecord b = next.get();
        Recovery how = b.speculative() || (a.finishMs() != null && b.startMs() < a.finishMs())
            ? Recovery.SPECULATION
            : unusableAt == null || b.startMs() < unusableAt ? Recovery.TASK_RETRY
            : lost ? Recovery.NODE_EXPIRY : Recovery.NODE_REPORTED;
        evidence.add(String.format(Locale.ROOT, "%s %s; %s started at %s on node %s (%s)", shortName(a.attemptId()),
            end, shortName(b.attemptId()), s(b.startMs()), b.node(), how.label()));
        if (b.startMs() > lastStart) {
          lastStart = b.startMs();
          last = how;
        }
      }
      return last;
    }

    private void speculationLines(long tf) {
      for (AttemptRecord a : r.attempts()) {
        if (!a.speculative()) {
          continue;
        }
        if (a.startMs() == null) {
          // asked for, killed before it had a container: it did nothing
          evidence.add(String.format(Locale.ROOT, "speculative %s attempt %s never started, %s",
              a.type().toLowerCase(Locale.ROOT), shortName(a.attemptId()), a.state()));
          continue;
        }
        mechanisms.add(isMap(a) ? Mechanism.SPECULATIVE_MAP : Mechanism.SPECULATIVE_REDUCER);
        evidence.add(String.format(Locale.ROOT, "speculative %s attempt %s on node %s from %s (%s the failure), %s",
            a.type().toLowerCase(Locale.ROOT), shortName(a.attemptId()), a.node(), s(a.startMs()),
            a.startMs() < tf ? "before" : "after", a.state()));
      }
    }

    /** Reducers on other nodes than {@code node} that gave up on their shuffle; with their re-run where {@code rerun}. */
    private void inducedDeathLines(int node, long tf, boolean rerun) {
      for (AttemptRecord a : r.attempts()) {
        boolean died = !isMap(a) && "FAILED".equals(a.state()) && a.node() != null && a.node() != node
            && a.finishMs() != null && a.finishMs() >= tf && a.error() != null && SHUFFLE_DEATH.matcher(a.error()).find();
        if (died) {
          mechanisms.add(Mechanism.INDUCED_REDUCER_DEATH);
          Optional<AttemptRecord> next = r.attempts().stream().filter(b -> a.taskId().equals(b.taskId())
              && b.attempt() > a.attempt() && b.startMs() != null).min(Comparator.comparingLong(AttemptRecord::startMs));
          evidence.add(String.format(Locale.ROOT, "induced reducer death: %s on healthy node %d FAILED at %s: %s%s",
              shortName(a.attemptId()), a.node(), s(a.finishMs()), firstLine(a.error()), next.filter(b -> rerun)
                  .map(b -> "; re-run as " + shortName(b.attemptId()) + " at " + s(b.startMs()) + " on node " + b.node())
                  .orElse("")));
        }
      }
    }

    private void failedTaskLines() {
      r.attempts().stream().filter(a -> "FAILED".equals(a.state()))
          .collect(Collectors.groupingBy(AttemptRecord::taskId, java.util.LinkedHashMap::new, Collectors.toList()))
          .forEach((taskId, failed) -> evidence.add(String.format(Locale.ROOT, "%s: %d failed attempt(s), last: %s",
              shortName(taskId), failed.size(), firstLine(failed.get(failed.size() - 1).error()))));
      if (r.job().diagnostics() != null) {
        evidence.add("job diagnostics: " + firstLine(r.job().diagnostics()));
        invalidEventLine();
      }
    }

    /**
     * A job in ERROR because the AM's TaskAttemptImpl refused TA_TOO_MANY_FETCH_FAILURE: the map's
     * attempt had been killed for its node, declared unusable, and was waiting for its container's
     * clean-up on the dead NodeManager (KILL_CONTAINER_CLEANUP, then KILL_TASK_CLEANUP: neither has a
     * transition for the event; MAPREDUCE-7240 gave SUCCESS_FINISHING_CONTAINER and
     * SUCCESS_CONTAINER_CLEANUP theirs) when the last report its reducers made about it arrived. A map
     * that succeeded just before its node crashed takes that path: its container never reports its
     * exit, so it is still finishing when the node is declared lost and the AM kills it.
     */
    private void invalidEventLine() {
      java.util.regex.Matcher m = INVALID_FETCH_FAILURE_EVENT.matcher(r.job().diagnostics());
      if (!m.find()) {
        return;
      }
      mechanisms.add(Mechanism.AM_INVALID_EVENT);
      String attempt = m.group(1);
      AttemptRecord a = byId.get(attempt);
      Integer node = a == null ? null : a.node();
      Long unusable = node == null ? null : r.nodeTransitions().stream()
          .filter(t -> t.node() == node && UNUSABLE.contains(t.to())).map(NodeTransition::atMs).min(Long::compare)
          .orElse(null);
      Long lastReport = r.fetchFailures().stream().filter(f -> attempt.equals(f.mapAttempt()))
          .map(FetchFailureReport::atMs).max(Long::compare).orElse(null);
      if (unusable != null && lastReport != null && lastReport >= unusable) {
        evidence.add(String.format(Locale.ROOT, "the AM ended the job in ERROR itself: %s on node %d had been killed"
                + " when its node was declared unusable at %s, and while the AM waited for its container's clean-up"
                + " on the dead NodeManager (up to yarn.client.nodemanager-connect.max-wait-ms, %s) the last"
                + " fetch-failure report about it came, at %s: Hadoop 3.4's TaskAttemptImpl has no transition for"
                + " TA_TOO_MANY_FETCH_FAILURE in a kill's clean-up (KILL_CONTAINER_CLEANUP, KILL_TASK_CLEANUP)",
            shortName(attempt), node,
            s(unusable), s(timers.nmConnectMaxWaitMs()), s(lastReport)));
      } else {
        evidence.add("the AM ended the job in ERROR itself: its state machine refused the fetch-failure event of "
            + shortName(attempt));
      }
    }

    private String jobLine() {
      if (r.job() == null) {
        return "the record holds no job outcome";
      }
      return "job " + r.job().state() + (r.job().finishedMs() == null ? "" : " after " + s(r.job().finishedMs()));
    }

    private Classification result(Long failureMs, DinuNgGroup group, Recovery recovery) {
      return new Classification(r.runId(), r.variant(), failureMs, r.job() == null ? null : r.job().finishedMs(),
          r.job() != null && r.job().succeeded(), group, recovery, List.copyOf(mechanisms), evidence, delay);
    }

    /**
     * Whether the fault's node was declared unusable while the fault held or within one detection
     * after it: the fault took the node down though its kind does not by itself.
     */
    private boolean tookNodeDown(FaultEvent f) {
      long until = f.healedMs() == null ? Long.MAX_VALUE : f.healedMs() + timers.expiryMs() + timers.livenessCheckMs();
      return r.nodeTransitions().stream().anyMatch(t -> t.node() == f.node() && UNUSABLE.contains(t.to())
          && t.atMs() >= f.injectedMs() && t.atMs() <= until);
    }

    /** Hadoop 3.4 says "taskTimedOut: true"; earlier releases "Timed out after N secs". */
    private static boolean timedOut(AttemptRecord a) {
      return a.error() != null && (a.error().contains("taskTimedOut: true") || a.error().contains("Timed out after"));
    }

    private boolean fetchFailed(AttemptRecord a) {
      return a.error() != null && a.error().contains("Too many fetch failures");
    }

    private boolean isMap(AttemptRecord a) {
      return "MAP".equals(a.type());
    }

    private static int node(AttemptRecord a) {
      return a.node() == null ? -1 : a.node();
    }
  }

  /** A map output that was done on the failed node before the failure and computed again after it. */
  private record LostOutput(AttemptRecord original, AttemptRecord rerun) {
    String describe() {
      Long done = original.succeededMs();
      String end = done == null || done.equals(original.finishMs())
          ? s(original.finishMs()) + ", " + original.state()
          : s(done) + ", " + original.state() + " at " + s(original.finishMs());
      return String.format(Locale.ROOT, "map output lost: %s finished on node %d at %s; re-run as %s at %s on node %s",
          task(original), original.node(), end, shortName(rerun.attemptId()), s(rerun.startMs()), rerun.node());
    }
  }

  /** The kind with what of the node it took, where the kind says (a pause's part, a partition's hosts and direction). */
  private static String kindLine(FaultEvent f) {
    Map<String, String> d = f.detail();
    if (d.containsKey("of")) {
      return f.kind() + " of " + d.get("of");
    }
    if (d.containsKey("from")) {
      return f.kind() + " from " + d.get("from") + (d.containsKey("direction") ? " (" + d.get("direction") + ")" : "");
    }
    return f.kind();
  }

  private static String names(List<AttemptRecord> attempts) {
    return attempts.stream().map(a -> shortName(a.attemptId())).collect(Collectors.joining(", "));
  }

  private static String task(AttemptRecord a) {
    return shortName(a.taskId());
  }

  /** {@code attempt_1795_0003_m_000002_1} -> {@code m_000002_1}: the job part is the same in every line. */
  static String shortName(String id) {
    if (id == null) {
      return "?";
    }
    var m = Pattern.compile("_([mr]_\\d+(?:_\\d+)?)$").matcher(id);
    return m.find() ? m.group(1) : id;
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "(no message)";
    }
    String line = text.strip().lines().findFirst().orElse("");
    return line.length() > 200 ? line.substring(0, 200) + "..." : line;
  }

  static String s(long ms) {
    return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }
}
