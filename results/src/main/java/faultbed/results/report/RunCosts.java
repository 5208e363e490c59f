package faultbed.results.report;

import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.FaultEvent;

/**
 * What a run spent beyond the one attempt per task a fault-free run needs.
 *
 * @param speculativeAttempts attempts started while an earlier attempt of their task still ran
 * @param reexecutedAttempts attempts after the first of their task, speculative ones included
 * @param wastedContainerSeconds run time of attempts that ended KILLED or FAILED (their work was
 *     thrown away or lost); an attempt on a node that failed counts only until the failure
 */
public record RunCosts(int speculativeAttempts, int reexecutedAttempts, double wastedContainerSeconds) {

  public static RunCosts of(RunRecord run) {
    int speculative = 0;
    double wastedMs = 0;
    for (AttemptRecord a : run.attempts()) {
      if (a.speculative()) {
        speculative++;
      }
      boolean wasted = "KILLED".equals(a.state()) || "FAILED".equals(a.state());
      if (wasted && a.startMs() != null && a.finishMs() != null) {
        wastedMs += Math.max(0, end(run, a) - a.startMs());
      }
    }
    return new RunCosts(speculative, run.reexecutedAttempts().size(), wastedMs / 1000);
  }

  private static long end(RunRecord run, AttemptRecord a) {
    long end = a.finishMs();
    for (FaultEvent f : run.faults()) {
      if (a.node() != null && f.node() == a.node() && f.injectedMs() != null
          && a.startMs() <= f.injectedMs() && f.injectedMs() < end) {
        end = f.injectedMs();
      }
    }
    return end;
  }
}
