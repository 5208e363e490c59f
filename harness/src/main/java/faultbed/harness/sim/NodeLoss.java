package faultbed.harness.sim;

/** A node that dies (its NodeManager and every container on it) at a virtual time after the job starts. */
public record NodeLoss(int nodeIndex, long afterJobStartMillis) { }
