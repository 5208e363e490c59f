package faultbed.harness.sim;

import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;

/** How long an attempt's own work takes on a node: the time model the simulated cluster asks. */
public interface TaskTimes {
  /**
   * A map's work from container launch to its output written, in milliseconds of one core, in the
   * three parts its progress reports show: {@code startup} (its JVM starting, no progress), its map
   * phase (progress rising to 2/3), its {@code sort} (progress held at 2/3 until it is done).
   */
  record MapWork(long startup, long map, long sort) {
    public MapWork {
      if (startup < 0 || map < 0 || sort < 0) {
        throw new IllegalArgumentException("map work: expected no negative part, got " + startup + "/" + map + "/" + sort);
      }
    }

    /** Work that reports progress as it goes, from the start. */
    public static MapWork smooth(long millis) {
      return new MapWork(0, millis, 0);
    }

    public long total() {
      return startup + map + sort;
    }
  }

  MapWork mapWork(TaskAttemptId attempt, SimulatedNode node);

  /** The reduce phase proper, after its shuffle and sort. */
  long reduceMillis(TaskAttemptId attempt, SimulatedNode node);

  /** The parts of a task's life whose bytes go through its node's disk (see {@link #diskBytes}). */
  enum DiskPart { MAP, SHUFFLE, SORT, REDUCE }

  /**
   * Bytes the attempt moves through a disk in a part of its life: a map's whole life, a reduce's
   * shuffle (the map outputs it copies, read off the serving nodes' disks), its sort (a latency, not
   * work: a slowed disk adds its bytes' time to it) and its reduce phase. 0 when the model knows none: a slowed disk then slows nothing.
   */
  default double diskBytes(TaskAttemptId attempt, DiskPart part) {
    return 0;
  }

  /**
   * A reduce's shuffle's last part, in milliseconds of one core: from when every map output is there
   * to its shuffle's end if it was running then ({@code launchedLate} false), from its launch if it
   * launched later (its JVM's start too); shared with what else runs on its node. Negative when the
   * model has none: the shuffle then ends after the shuffle lag wherever it runs.
   */
  default long shuffleWork(TaskAttemptId attempt, SimulatedNode node, boolean launchedLate) {
    return -1;
  }
}
