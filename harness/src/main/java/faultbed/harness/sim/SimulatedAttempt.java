package faultbed.harness.sim;

import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;

/**
 * One task attempt as the ApplicationMaster saw it, times in virtual milliseconds since job start
 * (-1 where there is none).
 *
 * @param node          the node's address, or null if the attempt never got a container
 * @param start         when its container launched
 * @param shuffleFinish a reduce's end of shuffle
 * @param sortFinish    a reduce's end of sort
 * @param diagnostics   why it failed or was killed, as the AM has it, or null
 */
public record SimulatedAttempt(String taskId, String attemptId, TaskType type, String node, long start,
    long finish, long shuffleFinish, long sortFinish, TaskAttemptState state, boolean speculative,
    String diagnostics) { }
