package faultbed.harness.sim;

import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;

/**
 * One task attempt as the ApplicationMaster saw it, times in virtual milliseconds since job start.
 *
 * @param node  the node's address, or null if the attempt never got a container
 * @param start when its container launched, or -1 if it never did
 */
public record SimulatedAttempt(String taskId, String attemptId, TaskType type, String node, long start,
    long finish, TaskAttemptState state, boolean speculative) { }
