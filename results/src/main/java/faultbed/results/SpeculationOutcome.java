package faultbed.results;

import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.SpeculationEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What speculation did in one run, derived from the record (history attempts plus the speculator's
 * log), so old records can be re-read with a newer definition.
 *
 * @param asked              backups the speculator asked for (decision log)
 * @param launched           backup attempts that got a container and started
 * @param won                backups that finished first
 * @param lost               backups killed because the original finished first
 * @param refusedOnNode      backups the policy killed because YARN placed them on a node it counted slow
 * @param wastedContainerMs  container time of every killed attempt of a task that had a backup:
 *                           the loser of each race, and the refused placements
 * @param backups            every backup attempt, where it ran and how it ended
 */
public record SpeculationOutcome(int asked, int launched, int won, int lost, int refusedOnNode,
    long wastedContainerMs, List<BackupRun> backups) {

  /**
   * One backup attempt.
   *
   * @param nodeFaulted      the run slowed this node on purpose (a slow-node, cpu-hog, disk-load... fault)
   * @param policyCalledSlow the policy judged the node slow (null when the speculator judges no nodes)
   * @param outcome          "won", "lost", "refused-on-node", "failed" or "unfinished"
   */
  public record BackupRun(String attemptId, String taskId, Integer node, boolean nodeFaulted,
      Boolean policyCalledSlow, String outcome, Long ms) {}

  public static SpeculationOutcome of(RunRecord r) {
    List<SpeculationEvent> events = r.speculation() == null ? List.of() : r.speculation().events();
    int asked = (int) events.stream().filter(e -> e.event().equals("backup")).count();
    Set<Integer> slowed = new HashSet<>();
    for (RunRecord.FaultEvent f : r.faults()) {
      if (f.effect().slowsNode() && f.injectedMs() != null) {
        slowed.add(f.node());
      }
    }
    Set<String> raced = new HashSet<>();
    for (AttemptRecord a : r.attempts()) {
      if (a.speculative()) {
        raced.add(a.taskId());
      }
    }
    List<BackupRun> backups = new ArrayList<>();
    int won = 0;
    int lost = 0;
    int refused = 0;
    long wasted = 0;
    for (AttemptRecord a : r.attempts()) {
      Long ms = a.startMs() != null && a.finishMs() != null ? a.finishMs() - a.startMs() : null;
      if (raced.contains(a.taskId()) && "KILLED".equals(a.state()) && ms != null) {
        wasted += ms;
      }
      if (!a.speculative()) {
        continue;
      }
      SpeculationEvent placed = events.stream()
          .filter(e -> e.event().equals("placed") && a.attemptId().equals(e.attempt())).findFirst().orElse(null);
      String outcome;
      if ("SUCCEEDED".equals(a.state())) {
        outcome = "won";
        won++;
      } else if ("KILLED".equals(a.state()) && placed != null && Boolean.TRUE.equals(placed.killed())) {
        outcome = "refused-on-node";
        refused++;
      } else if ("KILLED".equals(a.state())) {
        outcome = "lost";
        lost++;
      } else if ("FAILED".equals(a.state())) {
        outcome = "failed";
      } else {
        outcome = "unfinished";
      }
      backups.add(new BackupRun(a.attemptId(), a.taskId(), a.node(), a.node() != null && slowed.contains(a.node()),
          placed == null ? null : !placed.accepted(), outcome, ms));
    }
    return new SpeculationOutcome(asked, backups.size(), won, lost, refused, wasted, backups);
  }
}
