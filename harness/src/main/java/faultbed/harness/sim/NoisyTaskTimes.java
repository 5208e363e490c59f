package faultbed.harness.sim;

import java.util.SplittableRandom;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;

/**
 * Fixed base times times the node's slow-down times uniform noise in [1 - noise, 1 + noise]. The
 * noise is drawn from the seed and the attempt's identity, not from a shared stream, so an attempt's
 * time does not depend on the order attempts happen to start in.
 */
public record NoisyTaskTimes(long baseMapMillis, long baseReduceMillis, double noise, long seed) implements TaskTimes {
  @Override
  public MapWork mapWork(TaskAttemptId attempt, SimulatedNode node) {
    return MapWork.smooth(scaled(baseMapMillis, attempt, node));
  }

  @Override
  public long reduceMillis(TaskAttemptId attempt, SimulatedNode node) {
    return scaled(baseReduceMillis, attempt, node);
  }

  private long scaled(long base, TaskAttemptId attempt, SimulatedNode node) {
    long identity = attempt.getTaskId().getId() * 1_000_003L + attempt.getId() * 7919L
        + (attempt.getTaskId().getTaskType() == TaskType.MAP ? 0 : 17);
    double u = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + identity).nextDouble();
    return (long) (base * node.slowdown() * (1.0 + noise * (2 * u - 1)));
  }
}
