package faultbed.harness.observe;

import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.SpeculationEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Completes the backups a speculator other than faultbed's policies asked for (Hadoop's own, a
 * user's class), whose log line names only the task: the original attempt the backup races and its
 * node, from the job history, and what the speculator could see when it decided: how long the
 * original had run, how far along it was (from its progress clock), and how many attempts of the
 * task's type had finished and their mean time. Hadoop's DefaultSpeculator backs up the task whose
 * estimated end is furthest past what a new attempt would take (about that mean); its legacy
 * estimator puts an attempt's end at its run time divided by its progress, so these are the numbers
 * its choice rests on.
 */
final class SpeculationEvidence {
  private SpeculationEvidence() {}

  static RunRecord.Speculation complete(RunRecord.Speculation speculation, List<AttemptRecord> attempts) {
    if (speculation == null || speculation.events().stream().noneMatch(SpeculationEvidence::incomplete)) {
      return speculation;
    }
    List<SpeculationEvent> out = new ArrayList<>();
    for (SpeculationEvent e : speculation.events()) {
      out.add(incomplete(e) ? complete(e, attempts) : e);
    }
    return new RunRecord.Speculation(speculation.speculator(), speculation.policy(), out);
  }

  private static boolean incomplete(SpeculationEvent e) {
    return e.event().equals("backup") && e.attempt() == null;
  }

  private static SpeculationEvent complete(SpeculationEvent e, List<AttemptRecord> attempts) {
    long t = e.atMs();
    Optional<AttemptRecord> original = attempts.stream()
        .filter(a -> a.taskId().equals(e.task()) && a.startMs() != null && a.startMs() <= t
            && (a.finishMs() == null || a.finishMs() >= t))
        .min(Comparator.comparingLong(AttemptRecord::startMs));
    if (original.isEmpty()) {
      return e;
    }
    AttemptRecord o = original.get();
    List<AttemptRecord> done = attempts.stream()
        .filter(a -> a.type().equals(o.type()) && "SUCCEEDED".equals(a.state()) && a.startMs() != null
            && a.finishMs() != null && a.finishMs() <= t)
        .toList();
    Map<String, Double> evidence = new LinkedHashMap<>(e.evidence());
    evidence.put("originalRunMs", (double) (t - o.startMs()));
    evidence.put("finishedOfType", (double) done.size());
    String meanText = "";
    if (!done.isEmpty()) {
      double mean = done.stream().mapToLong(a -> a.finishMs() - a.startMs()).average().orElseThrow();
      evidence.put("meanFinishedMs", mean);
      meanText = String.format(Locale.ROOT, "; the %d finished %s attempt(s) took %.1f s on average",
          done.size(), o.type().toLowerCase(Locale.ROOT), mean / 1000);
    }
    long ran = t - o.startMs();
    String progressText = "";
    Optional<Progress> progress = Progress.at(o.progressClockMs(), ran);
    if (progress.isPresent()) {
      Progress p = progress.get();
      evidence.put(p.atLeast() ? "originalProgressAtLeast" : "originalProgress", p.fraction());
      progressText = p.atLeast()
          ? String.format(Locale.ROOT, " and was at least %.0f %% done", 100 * p.fraction())
          : String.format(Locale.ROOT, " and was about %.0f %% done", 100 * p.fraction());
      if (!p.atLeast() && p.fraction() > 0) {
        double estimate = ran / p.fraction();
        evidence.put("originalEstimatedRunMs", estimate);
        progressText += String.format(Locale.ROOT, " (at that rate %.1f s in all)", estimate / 1000);
      }
    }
    String reason = String.format(Locale.ROOT, "%s: %s had run %.1f s on node %s%s%s", e.reason(),
        shortName(o.attemptId()), ran / 1000.0, o.node(), progressText, meanText);
    return new SpeculationEvent(e.atMs(), e.event(), e.task(), o.attemptId(), o.node(), e.accepted(), e.killed(),
        reason, evidence);
  }

  /**
   * How far along an attempt was {@code ranMs} after its launch, read off the wall-clock time it
   * spent in each twelfth of its progress: linear within the twelfth it was in. Past the last
   * twelfth it completed (a killed attempt's last one is not written), only a lower bound.
   */
  record Progress(double fraction, boolean atLeast) {
    private static final int SPLITS = 12;

    static Optional<Progress> at(List<Integer> clockMs, long ranMs) {
      if (clockMs == null || clockMs.isEmpty()) {
        return Optional.empty();
      }
      long before = 0;
      for (int i = 0; i < clockMs.size(); i++) {
        int ms = clockMs.get(i);
        if (ranMs < before + ms) {
          return Optional.of(new Progress((i + (double) (ranMs - before) / ms) / SPLITS, false));
        }
        before += ms;
      }
      return Optional.of(new Progress((double) clockMs.size() / SPLITS, clockMs.size() < SPLITS));
    }
  }

  /** {@code attempt_1795_0003_m_000002_0} -> {@code m_000002_0}. */
  private static String shortName(String id) {
    int m = Math.max(id.lastIndexOf("_m_"), id.lastIndexOf("_r_"));
    return m < 0 ? id : id.substring(m + 1);
  }
}
