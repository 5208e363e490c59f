package faultbed.results.classify;

import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.FaultEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * A run's delay against the job time it would have had without its failure, split along its
 * critical path: the map output that came last, and the last reducer to finish, which waited for
 * it. Each stretch of that path (start-up, maps, shuffle after the last map output, reduce, commit)
 * is set against the same stretch of the reference runs (medians). Where the failure's
 * consequences lie on the path, the stretches are split at the record's events and named by
 * mechanism: detection (node expiry, fetch-failure reports, speculation, AM restart), queueing for
 * a container, re-execution, the map work that was left anyway when the failure came (negative:
 * it overlapped the recovery), and a slow reducer whose backup the failure stalled. Stretches with
 * nothing of the failure on them are "other", and so is the residual (the reference's stretches
 * do not add up exactly to its median).
 *
 * <p>A run is unexplained when its delay exceeds the reference runs' own spread and the "other"
 * parts and residual together exceed both a tenth of the delay and that spread.
 *
 * @param delayMs job time minus the reference's median
 * @param reference where the reference comes from (fault-free runs, or runs whose failure cost nothing)
 * @param noiseMs the reference runs' spread (max - min), at least 5 % of their median
 * @param unexplainedMs the "other" parts plus the residual
 */
public record DelayAccount(long delayMs, long referenceMs, String reference, long noiseMs, List<Part> parts,
    long residualMs, long unexplainedMs, boolean unexplained) {
  public DelayAccount {
    parts = List.copyOf(parts);
  }

  /** One stretch's change against the reference; {@code named}: a mechanism of the failure acted in it. */
  public record Part(String name, long ms, boolean named) {}

  /** The stretches of one run's critical path, in ms after submission. */
  record Path(long start, long maps, long shuffle, long reduce, long commit, long jobMs, AttemptRecord lastMap,
      AttemptRecord lastReduce) {
    static Optional<Path> of(RunRecord r) {
      if (r.job() == null || !r.job().succeeded() || r.job().finishedMs() == null) {
        return Optional.empty();
      }
      List<AttemptRecord> started = r.attempts().stream().filter(a -> a.startMs() != null).toList();
      Optional<AttemptRecord> lastMap = started.stream()
          .filter(a -> "MAP".equals(a.type()) && "SUCCEEDED".equals(a.state()) && a.finishMs() != null)
          .max(Comparator.comparingLong(AttemptRecord::finishMs));
      Optional<AttemptRecord> lastReduce = started.stream()
          .filter(a -> "REDUCE".equals(a.type()) && "SUCCEEDED".equals(a.state()) && a.finishMs() != null)
          .max(Comparator.comparingLong(AttemptRecord::finishMs));
      if (lastMap.isEmpty() || lastReduce.isEmpty()) {
        return Optional.empty();
      }
      long a = started.stream().mapToLong(AttemptRecord::startMs).min().orElseThrow();
      long m = lastMap.get().finishMs();
      AttemptRecord red = lastReduce.get();
      long sh = Math.max(m, red.shuffleFinishMs() != null ? red.shuffleFinishMs() : red.finishMs());
      long f = red.finishMs();
      long j = r.job().finishedMs();
      return Optional.of(new Path(a, m - a, sh - m, f - sh, j - f, j, lastMap.get(), red));
    }
  }

  /**
   * The job time a run would have had without its failure: the median and spread of the reference
   * runs' job times, and, where their records show it, the median of each stretch of their path.
   */
  public record Reference(String source, long jobMs, long noiseMs, Path stretches) {
    /** From succeeded runs; empty when there are none. */
    static Optional<Reference> of(List<RunRecord> runs, String source) {
      long[] times = runs.stream().filter(r -> r.job() != null && r.job().succeeded() && r.job().finishedMs() != null)
          .mapToLong(r -> r.job().finishedMs()).sorted().toArray();
      if (times.length == 0) {
        return Optional.empty();
      }
      long median = median(times);
      List<Path> paths = runs.stream().map(Path::of).flatMap(Optional::stream).toList();
      Path stretches = paths.isEmpty() ? null : new Path(median(paths, Path::start), median(paths, Path::maps),
          median(paths, Path::shuffle), median(paths, Path::reduce), median(paths, Path::commit), median, null, null);
      return Optional.of(new Reference(source, median, Math.max(times[times.length - 1] - times[0], median / 20),
          stretches));
    }

    private static long median(List<Path> paths, ToLongFunction<Path> f) {
      return median(paths.stream().mapToLong(f).sorted().toArray());
    }

    private static long median(long[] sorted) {
      int n = sorted.length;
      return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
  }

  /**
   * The account of a run whose node failure was injected at {@code tf} on {@code node}; empty when
   * the job did not succeed or its critical path is not in the record.
   */
  static Optional<DelayAccount> of(RunRecord r, FaultEvent failure, Long unusableAt, Reference reference) {
    Optional<Path> maybe = Path.of(r);
    if (maybe.isEmpty() || reference.stretches() == null) {
      return Optional.empty();
    }
    Path p = maybe.get();
    Path ref = reference.stretches();
    long tf = failure.injectedMs();
    int node = failure.node();
    List<Part> parts = new ArrayList<>();
    parts.add(new Part("start-up", p.start() - ref.start(), false));

    long mapsChange = p.maps() - ref.maps();
    AttemptRecord map = p.lastMap();
    boolean mapRedone = redone(r, map, node, tf) || underNewAm(r, map, tf);
    if (mapRedone) {
      String how;
      long declared;
      Optional<RunRecord.AmAttempt> laterAm = r.amAttempts().stream()
          .filter(a -> map.amAttempt() != null && a.attempt() == map.amAttempt() && a.attempt() > 1
              && a.startMs() != null && a.startMs() >= tf)
          .findFirst();
      List<Long> reports = r.fetchFailures().stream()
          .filter(x -> x.atMs() <= map.startMs() && x.mapNode() != null && x.mapNode() == node
              && x.mapAttempt() != null && x.mapAttempt().contains(task(map.taskId()) + "_"))
          .map(RunRecord.FetchFailureReport::atMs).toList();
      Optional<Long> laterAmTasks = map.attempt() < 1000 ? Optional.empty() : r.attempts().stream()
          .filter(a -> a.attempt() >= 1000 && a.startMs() != null && a.startMs() >= tf)
          .map(AttemptRecord::startMs).min(Long::compare);
      if (laterAm.isPresent()) {
        declared = laterAm.get().startMs();
        how = "AM restart";
      } else if (laterAmTasks.isPresent()) {
        // records from before AM attempts were kept: the new AM's first task attempt bounds its start
        declared = laterAmTasks.get();
        how = "AM restart";
      } else if (unusableAt != null && unusableAt <= map.startMs()) {
        declared = unusableAt;
        // a node that said it was unhealthy (its health check) was not expired
        how = r.nodeTransitions().stream().anyMatch(t -> t.node() == node && t.atMs() == unusableAt
            && "UNHEALTHY".equals(t.to())) ? "node reported unhealthy" : "node expiry";
      } else if (!reports.isEmpty()) {
        declared = reports.stream().mapToLong(Long::longValue).max().orElseThrow();
        how = "fetch-failure reports";
      } else {
        declared = map.startMs();
        how = map.speculative() ? "speculation" : "until re-run";
      }
      long detection = declared - tf;
      // an attempt that was running on the dead node holds its task until the AM's clean-up call
      // to that node gives up (yarn.client.nodemanager-connect.max-wait-ms); only then is it re-run
      long released = r.attempts().stream().filter(o -> o.taskId().equals(map.taskId()) && o.node() != null
              && o.node() == node && o.finishMs() != null && o.finishMs() > declared && o.finishMs() <= map.startMs())
          .mapToLong(AttemptRecord::finishMs).max().orElse(declared);
      long cleanUp = released - declared;
      long queueing = map.startMs() - released;
      long rerun = map.finishMs() - map.startMs();
      long left = tf - (p.start() + ref.maps());
      parts.add(new Part("detection (" + how + ")", detection, true));
      parts.add(new Part("the dead attempt's clean-up", cleanUp, true));
      parts.add(new Part("queueing for a container", queueing, true));
      parts.add(new Part("re-execution", rerun, true));
      parts.add(new Part(left <= 0 ? "map work left anyway at the failure" : "failure after the maps would have ended",
          left, true));
      parts.add(new Part("maps, other", mapsChange - detection - cleanUp - queueing - rerun - left, false));
    } else if (tf < map.startMs() && mapsChange > 0) {
      // the maps placed after the node died had its containers no more: fewer slots, more waves
      parts.add(new Part("maps on one node fewer", mapsChange, true));
    } else {
      parts.add(new Part("maps, other", mapsChange, false));
    }
    boolean reducerRedone = redone(r, p.lastReduce(), node, tf) || underNewAm(r, p.lastReduce(), tf);
    boolean waited = mapRedone || reducerRedone;
    boolean backupStalled = !waited && backupStalled(r, p.lastReduce(), node, tf);
    parts.add(new Part(reducerRedone ? "shuffle of the re-run reducer" : waited ? "shuffle after the re-run output (fetches, retries, back-off)"
        : backupStalled ? "shuffle of the slow original (its backup stalled on the failed node's outputs)" : "shuffle, other",
        p.shuffle() - ref.shuffle(), waited || backupStalled));
    parts.add(new Part(waited ? "reduce after the wait" : "reduce, other", p.reduce() - ref.reduce(), waited));
    parts.add(new Part("commit, other", p.commit() - ref.commit(), false));

    long delay = p.jobMs() - reference.jobMs();
    long residual = delay - parts.stream().mapToLong(Part::ms).sum();
    long unexplained = residual + parts.stream().filter(x -> !x.named()).mapToLong(Part::ms).sum();
    long noise = reference.noiseMs();
    boolean flagged = delay > noise && Math.abs(unexplained) > Math.max(delay / 10, noise);
    return Optional.of(new DelayAccount(delay, reference.jobMs(), reference.source(), noise, parts, residual,
        unexplained, flagged));
  }

  /** Whether the attempt redid work the failed node had: its task ran there before the failure, and it started after. */
  private static boolean redone(RunRecord r, AttemptRecord a, int node, long tf) {
    return a.startMs() != null && a.startMs() >= tf && r.attempts().stream().anyMatch(o -> o.taskId().equals(a.taskId())
        && o.node() != null && o.node() == node && o.startMs() != null && o.startMs() <= tf);
  }

  /**
   * Whether the reducer that ended last had a backup that could not finish because the failed node's
   * outputs were lost: it reported them after the failure and did not succeed. A slow original that
   * its backup would have beaten then decides the job's end; it had copied those outputs before.
   */
  private static boolean backupStalled(RunRecord r, AttemptRecord last, int node, long tf) {
    return r.attempts().stream().anyMatch(b -> b.taskId().equals(last.taskId()) && b.speculative()
        && !"SUCCEEDED".equals(b.state()) && r.fetchFailures().stream().anyMatch(x -> b.attemptId().equals(x.reduceAttempt())
            && x.mapNode() != null && x.mapNode() == node && x.atMs() >= tf));
  }

  /** Whether the attempt ran under an ApplicationMaster attempt that started after the failure. */
  private static boolean underNewAm(RunRecord r, AttemptRecord a, long tf) {
    if (a.amAttempt() == null) {
      return a.attempt() >= 1000 && a.startMs() != null && a.startMs() >= tf; // records from before AM attempts were kept
    }
    return r.amAttempts().stream().anyMatch(am -> am.attempt() == a.amAttempt() && am.attempt() > 1
        && am.startMs() != null && am.startMs() >= tf);
  }

  /** The task's own part of an id (m_000003), which attempt ids share. */
  private static String task(String taskId) {
    int i = taskId.lastIndexOf('_', taskId.lastIndexOf('_') - 1);
    return taskId.substring(i + 1);
  }

  /** One line: the delay, its parts largest first, the residual, and the verdict. */
  public String describe() {
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "delay %+.1f s against %.1f s (%s):",
        delayMs / 1000.0, referenceMs / 1000.0, reference));
    parts.stream().filter(x -> x.ms() != 0).sorted(Comparator.comparingLong((Part x) -> -Math.abs(x.ms())))
        .forEach(x -> b.append(String.format(Locale.ROOT, " %s %+.1f,", x.name(), x.ms() / 1000.0)));
    b.append(String.format(Locale.ROOT, " residual %+.1f s", residualMs / 1000.0));
    if (unexplained) {
      b.append(String.format(Locale.ROOT, "; UNEXPLAINED: %+.1f s of it lies in no mechanism of the failure"
          + " (more than a tenth of the delay and the reference's spread, %.1f s)", unexplainedMs / 1000.0,
          noiseMs / 1000.0));
    }
    return b.toString();
  }
}
