package faultbed.results.classify;

import java.util.List;

/**
 * The failure groups of Dinu and Ng (NetDB 2011, section 4.1), defined by mechanism so that Hadoop 3
 * runs can be sorted into them from their records, plus the loss of the job's ApplicationMaster,
 * which the paper could not see (its JobTracker did not run on the nodes it failed). The paper studied Hadoop 0.21 (JobTracker,
 * TaskTrackers); here the NodeManager plays the TaskTracker, the RM's liveness monitor the
 * JobTracker's expiry check, and the MR ApplicationMaster counts fetch-failure reports.
 * {@link #HADOOP3_DIFFERENCES} lists where Hadoop 3 behaves differently.
 */
public enum DinuNgGroup {
  NO_FAULT("no fault", "", "no fault was injected"),
  NO_NODE_FAILURE("no node failure", "", "the faults slowed or loaded nodes but took none down; the groups"
      + " describe node failures"),
  G1("G1", "map outputs lost; the few reducers still needing them report too slowly (416 s per report),"
      + " so the TaskTracker expiry (600 s, checked every 200 s) comes first",
      "lost work re-run only when the node was declared LOST; the failure came before the job's last liveness check"),
  G2("G2", "as G1, but the failure fell after a check: detection one check interval (200 s) later",
      "as G1, but the failure came after the last liveness check before the fault-free job end: found one check"
          + " later than a failure before it"),
  G3("G3", "the failed node's reducer, speculatively re-run elsewhere, sends early reports that get the"
      + " lost map outputs re-computed before expiry",
      "map outputs lost; re-computed before expiry after fetch-failure reports that include those of the failed"
          + " node's reducer, re-run elsewhere"),
  G4("G4", "failure after the first map wave, before its outputs were copied by all reducers; enough reports"
      + " before expiry, at least one after the full 416 s",
      "map outputs lost; re-computed before expiry after fetch-failure reports, at least one sent only after its"
          + " reducer backed off and failed again (the counting path)"),
  G5("G5", "as G4, with every needed report early",
      "map outputs lost; re-computed before expiry after reports each sent at its reducer's first refused fetch"),
  G6("G6", "failure during the first map wave: no output lost; the node's maps are speculatively re-run,"
      + " overlapping later waves: no impact",
      "failure while the node ran maps, before it held a map output that was still needed: no output lost"),
  G7("G7", "failure after all of the node's tasks finished: no impact",
      "failure while the node held nothing the job still needed (all its tasks done, or none yet given):"
          + " nothing lost, nothing re-run"),
  AM_LOST("AM lost", "", "the node ran the job's ApplicationMaster: a new AM attempt started elsewhere"
      + " and re-ran what the first had not finished"),
  G8("G8", "job failed: a task failed 4 times, often a reducer from induced death", "the job failed"),
  UNCLASSIFIED("unclassified", "", "the record does not show which mechanism acted");

  /** Where Hadoop 3 behaves differently from the 0.21 the paper measured, and what that does to the groups. */
  public static final List<String> HADOOP3_DIFFERENCES = List.of(
      "A reducer reports a map output to the AM at once when the connection is refused (a dead"
          + " NodeManager on a live host), and after more than mapreduce.reduce.shuffle.max-host-failures"
          + " failed connects to a silent host; 0.21 reported only every tenth failed copy. Early reports"
          + " (G3, G5) are the rule with refused connections.",
      "The paper's 416 s counting path (nine penalties of 10 s x 1.3^F) is now capped by"
          + " mapreduce.reduce.shuffle.retry-delay.max.ms, and a refused fetch is reported at every failure;"
          + " a report counts as late (G4) when its reducer had reported the output before, so it came only"
          + " after a back-off.",
      "The RM checks liveness every expiry/3 on a grid of its own, not the job's (the cluster is reused"
          + " across runs), so the paper's two bands of job time, G1 and G2, merge into one band of width"
          + " expiry/3, unless every run lasts a whole number of checks and the grid stands still against"
          + " the jobs. The split is kept by the paper's rule: G2 when the failure came after the last"
          + " check before the fault-free job end, read off the grid of the check that declared the node LOST.",
      "Without speculation (mapreduce.map.speculative=false, faultbed's default) the maps running on the"
          + " failed node are re-run only after node expiry, so a G6 failure costs the expiry instead of nothing.",
      "When a node is declared LOST the AM re-runs every map that succeeded there while reducers are"
          + " unfinished, whether or not all reducers had fetched its output.",
      "A dead NodeManager's running containers are released only after the AM's clean-up call gives up"
          + " (yarn.client.nodemanager-connect.max-wait-ms), which adds to every expiry-bound recovery.",
      "Maps and reducers share the nodes' containers (0.21 had separate slots). When the lost outputs"
          + " need re-running and reducers hold every container, the AM preempts a reducer only once no"
          + " map is assigned (RMContainerAllocator.preemptReducesIfNeeded), and a map that was running on"
          + " the dead node stays assigned until the node is LOST: with many reducers, re-runs wait for"
          + " the expiry whatever mapreduce.job.reducer.unconditional-preempt.delay.sec says.");

  private final String label;
  private final String paperMeaning;
  private final String description;

  /** Whether the group sorts a run whose fault took a node down (or was meant to): what the groups are about. */
  public boolean isNodeFailure() {
    return this != NO_FAULT && this != NO_NODE_FAILURE;
  }

  DinuNgGroup(String label, String paperMeaning, String description) {
    this.label = label;
    this.paperMeaning = paperMeaning;
    this.description = description;
  }

  /** What the group meant in the paper (Hadoop 0.21); empty for the groups the paper did not have. */
  public String paperMeaning() {
    return paperMeaning;
  }

  public String label() {
    return label;
  }

  public String description() {
    return description;
  }
}
