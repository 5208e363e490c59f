package faultbed.results.classify;

import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.FaultEvent;
import faultbed.results.RunRecord.FetchFailureReport;
import faultbed.results.RunRecord.NodeInfo;
import faultbed.results.RunRecord.NodeTransition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Hand-made run records for mechanisms the quickstart does not produce, shaped like the harness's
 * records: four nodes, expiry 20 s, attempt ids of job 1_0001, times in ms after submission.
 */
final class SyntheticRun {
  private final List<AttemptRecord> attempts = new ArrayList<>();
  private final List<FetchFailureReport> reports = new ArrayList<>();
  private final List<NodeTransition> transitions = new ArrayList<>();
  private final List<FaultEvent> faults = new ArrayList<>();
  private final List<RunRecord.AmAttempt> ams = new ArrayList<>();
  private boolean succeeded = true;
  private long finishedMs = 60_000;
  private String diagnostics;
  private String variant = "crash";
  private final Map<String, String> hadoop = new HashMap<>(Map.of(
      "yarn.nm.liveness-monitor.expiry-interval-ms", "20000", "mapreduce.map.speculative", "false"));

  SyntheticRun variant(String name) {
    variant = name;
    return this;
  }

  SyntheticRun setting(String key, String value) {
    hadoop.put(key, value);
    return this;
  }

  static String attemptId(char type, int task, int attempt) {
    return String.format("attempt_1_0001_%c_%06d_%d", type, task, attempt);
  }

  SyntheticRun neverInjected() {
    faults.add(new FaultEvent("crash", 0, "running-reducer", "on reducer-in-shuffle", null, null, null, Map.of()));
    return this;
  }

  SyntheticRun crash(int node, long atMs) {
    return fault("crash", node, atMs);
  }

  SyntheticRun fault(String kind, int node, long atMs) {
    faults.add(new FaultEvent(kind, node, "random node", "at " + atMs + " ms", atMs, atMs, null, Map.of()));
    return this;
  }

  /** A fault with what its injection observed ({@code detail}). */
  SyntheticRun fault(String kind, int node, long atMs, Map<String, String> detail) {
    faults.add(new FaultEvent(kind, node, "random node", "at " + atMs + " ms", atMs, atMs, null, detail));
    return this;
  }

  /** The job's first AM attempt ran on {@code node}. */
  SyntheticRun am(int node) {
    ams.add(new RunRecord.AmAttempt(1, node, "localhost:" + (4000 + node), "container_am", 0L));
    return this;
  }

  /** The node reported itself unhealthy (its NodeManager's health check) at {@code atMs}. */
  SyntheticRun unhealthy(int node, long atMs) {
    transitions.add(new NodeTransition(node, "localhost:" + (4000 + node), "RUNNING", "UNHEALTHY", atMs));
    return this;
  }

  SyntheticRun lost(int node, long atMs) {
    transitions.add(new NodeTransition(node, "localhost:" + (4000 + node), "RUNNING", "LOST", atMs));
    return this;
  }

  SyntheticRun attempt(char type, int task, int attempt, int node, long startMs, Long finishMs, String state,
      boolean speculative, String error) {
    attempts.add(new AttemptRecord(attemptId(type, task, attempt),
        String.format("task_1_0001_%c_%06d", type, task), type == 'm' ? "MAP" : "REDUCE", attempt, node,
        "localhost:" + (4000 + node), "container_" + attempts.size(), startMs, finishMs, null, null, null, state,
        speculative, error, 1, null));
    return this;
  }

  /** An attempt whose history has no end, in a record that did not read its host from its start. */
  SyntheticRun unplaced(char type, int task, int attempt, long startMs) {
    attempts.add(new AttemptRecord(attemptId(type, task, attempt),
        String.format("task_1_0001_%c_%06d", type, task), type == 'm' ? "MAP" : "REDUCE", attempt, null,
        ":-1", null, startMs, null, null, null, null, null, false, null, 1, null));
    return this;
  }

  /**
   * A map that reported success, then was killed with its node while the AM still waited for its
   * container to exit: its end times are the kill's, as Hadoop's history parser leaves them.
   */
  SyntheticRun succeededThenKilled(int task, int attempt, int node, long startMs, long succeededMs, long killedMs) {
    attempts.add(new AttemptRecord(attemptId('m', task, attempt), String.format("task_1_0001_m_%06d", task), "MAP",
        attempt, node, "localhost:" + (4000 + node), "container_" + attempts.size(), startMs, killedMs, killedMs,
        killedMs, killedMs, "KILLED", false, "TaskAttempt killed because it ran on unusable node", 1, succeededMs));
    return this;
  }

  SyntheticRun map(int task, int attempt, int node, long startMs, long finishMs, String state) {
    return attempt('m', task, attempt, node, startMs, finishMs, state, false, null);
  }

  SyntheticRun reduce(int task, int attempt, int node, long startMs, long finishMs, String state) {
    return attempt('r', task, attempt, node, startMs, finishMs, state, false, null);
  }

  SyntheticRun report(long atMs, int reduceTask, int reduceAttempt, int reduceNode, int mapTask, int mapNode) {
    reports.add(new FetchFailureReport(atMs, attemptId('r', reduceTask, reduceAttempt), reduceNode,
        attemptId('m', mapTask, 0), mapNode));
    return this;
  }

  SyntheticRun jobFailed(long atMs, String why) {
    succeeded = false;
    finishedMs = atMs;
    diagnostics = why;
    return this;
  }

  SyntheticRun finished(long atMs) {
    finishedMs = atMs;
    return this;
  }

  RunRecord build() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      int n = i;
      Long lost = transitions.stream().filter(t -> t.node() == n && t.to().equals("LOST"))
          .map(NodeTransition::atMs).findFirst().orElse(null);
      nodes.add(new NodeInfo(i, "localhost:" + (4000 + i), 5000 + i, List.of(), List.of(), "node-" + i, lost, null));
    }
    return new RunRecord(RunRecord.SCHEMA_VERSION, "synthetic-000", "synthetic", variant, 0, 1, "t",
        new RunRecord.ClusterInfo("mini", 4, 1024, 2),
        hadoop,
        new RunRecord.WorkloadInfo("sort", Map.of(), 1, 1), nodes, faults, transitions, attempts, reports,
        new RunRecord.JobOutcome("job_1_0001", succeeded ? "SUCCEEDED" : "FAILED", succeeded, 0, finishedMs, 4, 2,
            diagnostics),
        Map.of(), List.of(), null, null, List.of(), null, null, List.copyOf(ams), null, null, null, null, null, null, null, null);
  }
}
