package faultbed.harness.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import faultbed.harness.timeline.SlowDisk;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.junit.jupiter.api.Test;

/**
 * A disk held to a rate: each part of a task takes its bytes' time through the disk's share on top
 * of its work (a map's and a reduce phase's spread over their work, a reduce's sort and its copies'
 * reads added to their latencies), bytes spread over a node's disks alike, a disk's rate shared by
 * the tasks using it.
 */
class SimulationDiskTest {
  private static final long MB = 1_000_000;

  /** 4 s of one core a map and 1 s a reduce; through a disk, 4 MB a map, 1 MB a copy, 1 MB a sort, 2 MB a reduce phase. */
  private static final TaskTimes TIMES = new TaskTimes() {
    @Override
    public MapWork mapWork(TaskAttemptId attempt, SimulatedNode node) {
      return MapWork.smooth(4_000);
    }

    @Override
    public long reduceMillis(TaskAttemptId attempt, SimulatedNode node) {
      return 1_000;
    }

    @Override
    public double diskBytes(TaskAttemptId attempt, DiskPart part) {
      return switch (part) {
        case MAP -> 4 * MB;
        case SHUFFLE, SORT -> MB;
        case REDUCE -> 2 * MB;
      };
    }
  };

  /** One node of {@code disks} disks and 4 slots (the AM's, {@code maps} maps', then the reduce's). */
  private static SimulationSpec job(int maps, int disks) {
    Map<String, String> job = new HashMap<>(Specs.NO_SPECULATION);
    job.put("mapreduce.job.reduce.slowstart.completedmaps", "1.0");
    job.put("dfs.replication", "1");
    return SimulationSpec.of(SimulatedCluster.uniform(1, 4, 20).withDisks(disks), maps, 1, job, TIMES,
        Latencies.defaults(), 5);
  }

  private static Map<String, Long> durations(SimulationResult r) {
    Map<String, Long> out = new HashMap<>();
    for (SimulatedAttempt a : r.attempts()) {
      if (a.state() == TaskAttemptState.SUCCEEDED) {
        out.put(a.type() == TaskType.MAP ? "map" + a.taskId().substring(a.taskId().length() - 1) : "reduce", a.finish() - a.start());
        if (a.type() == TaskType.REDUCE) {
          out.put("sort", a.sortFinish() - a.shuffleFinish());
        }
      }
    }
    return out;
  }

  @Test
  void eachPartOfALoneTaskTakesItsBytesAtTheDisksRateOnTopOfItsWork() {
    SimulationSpec spec = job(1, 1);
    SimulationResult free = Simulation.run(spec);
    SimulationResult slow = Simulation.run(spec.withFaults(Timeline.at(Duration.ZERO)
        .inject(new SlowDisk(Target.node(0), List.of(), MB, null)), null));
    assertEquals("SUCCEEDED", slow.jobState());
    Map<String, Long> f = durations(free);
    Map<String, Long> s = durations(slow);
    assertEquals(4_000, s.get("map0") - f.get("map0"), 2, "4 MB at 1 MB/s, alone on the disk");
    assertEquals(1_000, s.get("sort") - f.get("sort"), 2, "the sort's 1 MB");
    // the reduce: its copy read off the disk (1 MB), its sort (1 MB), its reduce phase's 2 MB
    assertEquals(4_000, s.get("reduce") - f.get("reduce"), 4, s + " against " + f);
  }

  @Test
  void bytesSpreadOverTheNodesDisksAndTasksShareASlowOne() {
    // two maps at once on a node of two disks, one held to 1 MB/s: each byte half there, two tasks sharing it
    SimulationSpec spec = job(2, 2);
    SimulationResult free = Simulation.run(spec);
    SimulationResult slow = Simulation.run(spec.withFaults(Timeline.at(Duration.ZERO)
        .inject(new SlowDisk(Target.node(0), List.of(1), MB, null)), null));
    Map<String, Long> f = durations(free);
    Map<String, Long> s = durations(slow);
    for (String map : List.of("map0", "map1")) {
      assertEquals(4_000, s.get(map) - f.get(map), 2, map + ": 4 MB, half through a disk of 1 MB/s shared by two");
    }
  }
}
