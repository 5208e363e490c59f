package faultbed.harness.sim;

import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;

/** How long an attempt's own work takes on a node: the time model the simulated cluster asks. */
public interface TaskTimes {
  /** From container launch to the map's output being written. */
  long mapMillis(TaskAttemptId attempt, SimulatedNode node);

  /** The reduce phase proper, after its shuffle and sort. */
  long reduceMillis(TaskAttemptId attempt, SimulatedNode node);
}
