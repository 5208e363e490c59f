package faultbed.harness.timemodel;

import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.FaultEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A recorded run replayed on the cores of the machines it ran on, to read from it what the time model
 * needs: how much CPU each attempt received while it ran, given everything else that ran beside it
 * (the other attempts, on its node and on the others, and the spinners and CPU limits of faults).
 * The same sharing as the simulation's ({@link CpuSharing}), so what is fitted is what is replayed.
 */
final class Replay {
  private Replay() {}

  /**
   * What a reduce's shuffle received is keyed by its attempt id and this: from the later of its
   * launch and the last map's end to its shuffle's end, it takes the CPU as a thread of its node
   * (starting its JVM if it launched late, copying and merging what is left).
   */
  static final String SHUFFLE = "/shuffle";

  /** Something that wanted the CPU on a node over an interval: threads at a time, or a CPU limit. */
  private record Interval(int node, long from, long to, String attempt, int segment, int spinners, double limit) {
    boolean covers(long t0, long t1) {
      return from <= t0 && to >= t1;
    }
  }

  /**
   * CPU milliseconds each attempt received (maps over their life, reduces over their reduce phase,
   * and their shuffle's end apart, see {@link #SHUFFLE}), by attempt id, on a machine of
   * {@code machines}.
   */
  static Map<String, Double> cpuReceived(RunRecord r, Machines machines) {
    Map<String, Double> total = new HashMap<>();
    cpuReceived(r, machines, a -> new long[0]).forEach((id, segments) -> total.put(id, Arrays.stream(segments).sum()));
    return total;
  }

  /**
   * The same, cut at the moments {@code marks} gives for each attempt (ascending, inside its CPU
   * interval): the CPU it received before the first mark, between each two, and after the last.
   * Cutting an attempt's interval does not change what anything receives.
   */
  static Map<String, double[]> cpuReceived(RunRecord r, Machines machines, Function<AttemptRecord, long[]> marks) {
    long end = r.job().finishedMs();
    List<Interval> intervals = new ArrayList<>();
    Map<String, double[]> received = new HashMap<>();
    int nodes = r.cluster() != null ? r.cluster().nodes() : 0;
    long lastMap = 0;
    for (AttemptRecord a : r.attempts()) {
      if (a.type().equals("MAP") && "SUCCEEDED".equals(a.state()) && a.finishMs() != null) {
        lastMap = Math.max(lastMap, a.finishMs());
      }
    }
    for (AttemptRecord a : r.attempts()) {
      if (a.type().equals("REDUCE") && a.node() != null && a.startMs() != null && a.shuffleFinishMs() != null) {
        long from = Math.max(a.startMs(), lastMap);
        if (a.shuffleFinishMs() > from) {
          received.put(a.attemptId() + SHUFFLE, new double[1]);
          intervals.add(new Interval(a.node(), from, a.shuffleFinishMs(), a.attemptId() + SHUFFLE, 0, 0,
              Double.POSITIVE_INFINITY));
        }
      }
    }
    for (AttemptRecord a : r.attempts()) {
      Long from = a.type().equals("MAP") ? a.startMs() : a.sortFinishMs();
      if (a.node() == null || from == null) {
        continue;
      }
      long to = a.finishMs() == null ? end : a.finishMs();
      if (to > from) {
        long[] cuts = marks.apply(a);
        received.put(a.attemptId(), new double[cuts.length + 1]);
        long segmentFrom = from;
        for (int i = 0; i <= cuts.length; i++) {
          long segmentTo = i < cuts.length ? Math.max(segmentFrom, Math.min(cuts[i], to)) : to;
          if (segmentTo > segmentFrom) {
            intervals.add(new Interval(a.node(), segmentFrom, segmentTo, a.attemptId(), i, 0, Double.POSITIVE_INFINITY));
          }
          segmentFrom = segmentTo;
        }
      }
      nodes = Math.max(nodes, a.node() + 1);
    }
    for (FaultEvent f : r.faults()) {
      if (f.injectedMs() == null || f.node() < 0) {
        continue;
      }
      long to = f.healedMs() == null ? end : f.healedMs();
      String spinners = f.kind().equals("cpu-hog") ? f.detail().get("spinners") : null;
      String limit = f.kind().equals("slow-node") ? f.detail().get("cpuCores") : null;
      if (spinners != null || limit != null) {
        intervals.add(new Interval(f.node(), f.injectedMs(), to, null, 0, spinners == null ? 0 : Integer.parseInt(spinners),
            limit == null ? Double.POSITIVE_INFINITY : Double.parseDouble(limit)));
      }
      nodes = Math.max(nodes, f.node() + 1);
    }
    TreeSet<Long> times = new TreeSet<>();
    for (Interval i : intervals) {
      times.add(i.from());
      times.add(i.to());
    }
    Long previous = null;
    for (long t : times) {
      if (previous != null) {
        share(intervals, nodes, machines, previous, t, received);
      }
      previous = t;
    }
    return received;
  }

  private static void share(List<Interval> intervals, int nodes, Machines machines, long t0, long t1,
      Map<String, double[]> received) {
    int[] threads = new int[nodes];
    double[] limits = new double[nodes];
    java.util.Arrays.fill(limits, Double.POSITIVE_INFINITY);
    List<Interval> running = new ArrayList<>();
    for (Interval i : intervals) {
      if (!i.covers(t0, t1)) {
        continue;
      }
      if (i.attempt() != null) {
        threads[i.node()]++;
        running.add(i);
      } else {
        threads[i.node()] += i.spinners();
        limits[i.node()] = Math.min(limits[i.node()], i.limit());
      }
    }
    List<CpuSharing.NodeLoad> loads = new ArrayList<>();
    for (int n = 0; n < nodes; n++) {
      loads.add(new CpuSharing.NodeLoad(threads[n], limits[n]));
    }
    double[] perThread;
    if (machines.perNode()) {
      perThread = new double[nodes];
      for (int n = 0; n < nodes; n++) {
        perThread[n] = CpuSharing.perThread(List.of(loads.get(n)), machines.cores())[0];
      }
    } else {
      perThread = CpuSharing.perThread(loads, machines.cores());
    }
    for (Interval i : running) {
      received.get(i.attempt())[i.segment()] += perThread[i.node()] * (t1 - t0);
    }
  }

  /**
   * The kinds of slowing faults that act beyond the CPU (disk contention, a disk throttle) in force
   * on the attempt's node over the whole of its CPU interval, sorted; empty when none, or when one
   * began or ended while it ran (its time then mixes two speeds). Faults of the {@code baseline} are
   * the cluster's, in the work itself, and not counted.
   */
  static List<String> beyondCpuThroughout(RunRecord r, AttemptRecord a, List<String> baseline) {
    Long from = a.type().equals("MAP") ? a.startMs() : a.sortFinishMs();
    if (a.node() == null || from == null || a.finishMs() == null) {
      return List.of();
    }
    Set<String> kinds = new TreeSet<>();
    for (FaultEvent f : r.faults()) {
      if (f.injectedMs() == null || f.node() != a.node() || !f.effect().slowsNode() || !beyondCpu(f)
          || Baseline.partOf(baseline, r, f)) {
        continue;
      }
      long healed = f.healedMs() == null ? Long.MAX_VALUE : f.healedMs();
      boolean overlaps = f.injectedMs() < a.finishMs() && healed > from;
      boolean throughout = f.injectedMs() <= from && healed >= a.finishMs();
      if (overlaps && !throughout) {
        return List.of();
      }
      if (throughout) {
        kinds.add(f.kind());
      }
    }
    return List.copyOf(kinds);
  }

  static boolean beyondCpu(FaultEvent f) {
    return TimeModel.actsBeyondCpu(f.kind(), f.detail());
  }
}
