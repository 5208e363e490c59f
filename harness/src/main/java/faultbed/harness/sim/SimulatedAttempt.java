package faultbed.harness.sim;

import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;

/**
 * One task attempt as the ApplicationMaster saw it, times in virtual milliseconds since job start
 * (-1 where there is none).
 *
 * @param node          the node's address, or null if the attempt never got a container
 * @param start         when its container launched
 * @param mapFinish     a map's end of its map phase
 * @param shuffleFinish a reduce's end of shuffle
 * @param sortFinish    a reduce's end of sort
 * @param diagnostics   why it failed or was killed, as the AM has it, or null
 * @param progressClock the wall-clock time it spent in each twelfth of its progress it reached, as the
 *                      AM's progress splits have it; null when it reported nothing
 */
public record SimulatedAttempt(String taskId, String attemptId, TaskType type, String node, long start,
    long finish, long mapFinish, long shuffleFinish, long sortFinish, TaskAttemptState state, boolean speculative,
    String diagnostics, java.util.List<Integer> progressClock) { }
