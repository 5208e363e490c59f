package faultbed.harness.sim;

/**
 * The delays of the simulated cluster outside the tasks' own work, in virtual milliseconds.
 *
 * @param report       between a task's status reports (a task JVM reports every 3 s)
 * @param heartbeat    between the AM's allocate calls to the scheduler
 * @param shuffleLag   from the last map output becoming available to a reduce having copied it
 * @param nodeExpiry   from a node dying to the ResourceManager declaring it lost
 */
public record Latencies(long launch, long report, long containerExit, long cleanup, long heartbeat,
    long jobSetup, long jobCommit, long taskCommit, long shuffleLag, long sort, long nodeExpiry) {
  public static Latencies defaults() {
    return new Latencies(1_000, 3_000, 500, 200, 1_000, 1_000, 1_000, 500, 2_000, 2_000, 60_000);
  }
}
