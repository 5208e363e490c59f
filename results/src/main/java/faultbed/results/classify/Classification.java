package faultbed.results.classify;

import java.util.List;

/**
 * One run's Dinu-Ng group, how the job recovered, what else happened, and the facts (with times
 * in seconds after job submission) that led there.
 *
 * @param failureMs when the classified fault was injected; null for fault-free runs
 * @param jobMs the job's completion time; null when the record has none
 * @param delay the run's delay split into parts; null without a reference run of its workload in the
 *     suite (or when the run failed or had no node failure)
 */
public record Classification(String runId, String variant, Long failureMs, Long jobMs,
    boolean jobSucceeded, DinuNgGroup group, Recovery recovery, List<Mechanism> mechanisms,
    List<String> evidence, DelayAccount delay) {
  public Classification {
    mechanisms = List.copyOf(mechanisms);
    evidence = List.copyOf(evidence);
  }
}
