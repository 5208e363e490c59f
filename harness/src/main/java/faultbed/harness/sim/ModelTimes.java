package faultbed.harness.sim;

import faultbed.harness.timemodel.TimeModel;
import java.util.SplittableRandom;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;

/** What a simulated cluster takes from a {@link TimeModel}: its delays, and its tasks' work. */
final class ModelTimes {
  /** The container launch the records do not show (the NodeManager starts the JVM the attempt's time includes). */
  private static final long LAUNCH_MS = 200;

  private ModelTimes() {}

  /**
   * The job-level delays: the set-up {@code setupMs} (the job's start to its first container, the
   * model's unless a real run's is replayed) and the model's commit, Hadoop's report and heartbeat
   * intervals and liveness expiry as the job's configuration sets them. A task's own commit takes no time of its
   * own here: the records count it in the reduce's time, so the fit counts it in the reduce's work.
   */
  static Latencies latencies(TimeModel model, TimeModel.WorkloadTimes w, long reportMs, long heartbeatMs,
      long nodeExpiryMs, long setupMs) {
    Latencies d = Latencies.defaults();
    return new Latencies(LAUNCH_MS, reportMs, d.containerExit(), d.cleanup(), heartbeatMs,
        Math.max(0, setupMs - heartbeatMs - LAUNCH_MS), model.jobCommitMs(), 0,
        Math.round(w.shuffleLag().medianMs()), Math.round(w.sort().medianMs()), nodeExpiryMs);
  }

  /**
   * Task work drawn from the model for a job reading {@code bytesPerMap} a map (0: as fitted), in
   * milliseconds of one core. Each attempt's draw is keyed by the run's seed and the attempt's
   * identity, so the variants of a block see the same work for the same attempts (common random
   * numbers). A map's work is cut as the model's progress profile says: its sort its fitted share,
   * its start-up its fitted share of what comes before, its map phase the rest; a map of another size
   * reads and sorts in proportion, and starts as long.
   */
  static TaskTimes taskTimes(TimeModel.WorkloadTimes w, long bytesPerMap, long seed) {
    return taskTimes(w, bytesPerMap, 1, 1, seed);
  }

  /**
   * The same for a job of {@code maps} maps and {@code reduces} reduces, whose reduces' bytes through
   * a disk are a share of the job's input each ({@link TimeModel.DiskBytes}).
   */
  static TaskTimes taskTimes(TimeModel.WorkloadTimes w, long bytesPerMap, int maps, int reduces, long seed) {
    double scale = bytesPerMap <= 0 || w.bytesPerMap() <= 0 ? 1 : bytesPerMap / (double) w.bytesPerMap();
    double split = bytesPerMap > 0 ? bytesPerMap : w.bytesPerMap();
    double reduceShare = reduces > 0 ? split * maps / reduces : 0;
    return new TaskTimes() {
      @Override
      public double diskBytes(TaskAttemptId attempt, DiskPart part) {
        TimeModel.DiskBytes disk = w.disk();
        if (disk == null) {
          return 0;
        }
        return Math.max(0, switch (part) {
          case MAP -> disk.map() * split;
          case SHUFFLE -> disk.shuffle() * reduceShare;
          case SORT -> disk.sort() * reduceShare;
          case REDUCE -> disk.reduce() * reduceShare;
        });
      }

      @Override
      public MapWork mapWork(TaskAttemptId attempt, SimulatedNode node) {
        double work = w.map().draw(random(attempt));
        double sort = w.mapProgress().sortShare() * work;
        double startup = w.mapProgress().startupShare() * (work - sort);
        double map = work - sort - startup;
        double slowdown = node.slowdown();
        return new MapWork(Math.round(startup * slowdown), Math.round(map * scale * slowdown),
            Math.round(sort * scale * slowdown));
      }

      @Override
      public long reduceMillis(TaskAttemptId attempt, SimulatedNode node) {
        return Math.round(w.reduce().draw(random(attempt)) * node.slowdown());
      }

      @Override
      public long shuffleWork(TaskAttemptId attempt, SimulatedNode node, boolean launchedLate) {
        TimeModel.Spread work = launchedLate ? w.lateShuffle() : w.shuffleTail();
        if (work == null) {
          return -1;
        }
        // a stream of its own: the reduce phase's draw is not its shuffle's
        SplittableRandom random = random(attempt);
        random.nextGaussian();
        return Math.round(work.draw(random) * node.slowdown());
      }

      private SplittableRandom random(TaskAttemptId attempt) {
        long identity = attempt.getTaskId().getId() * 1_000_003L + attempt.getId() * 7919L
            + (attempt.getTaskId().getTaskType() == TaskType.MAP ? 0 : 17);
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + identity);
      }
    };
  }
}
