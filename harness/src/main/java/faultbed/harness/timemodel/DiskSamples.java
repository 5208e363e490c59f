package faultbed.harness.timemodel;

import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.FaultEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * What a disk held to a rate ({@code slow-disk}) added to attempts that ran wholly under it, as
 * {@link TimeModel.DiskBytes} counts it: bytes through the disk per byte of the task's input share.
 * A task's files go to its node's disks in turn (YARN's local folders, HDFS's volumes, round-robin),
 * so its bytes spread over them alike: on a node of D disks, a byte takes the mean of 1/rate over
 * them (an unslowed disk adding nothing), times the tasks sharing them.
 */
final class DiskSamples {
  /** The fault kind whose rate the disk model times. */
  static final String KIND = "slow-disk";

  enum Part { MAP, SHUFFLE, SORT, REDUCE }

  /**
   * One part of one attempt: its wall time {@code ms}, the CPU it received then ({@code cpu}, NaN for
   * the sort, which is not CPU work), the disk's rate, the tasks that shared the disk with it on
   * average, itself included, and its share of the job's input.
   */
  record Sample(String scenario, String type, Part part, double ms, double cpu, double bytesPerSecond, double sharing,
      double shareBytes, boolean done) {
    /** Bytes through the disk: the time beyond the part's typical at its CPU share, at the rate its share of the disk had. */
    double bytes(double typical) {
      double own = Double.isNaN(cpu) ? typical : typical * ms / cpu;
      return (ms - own) / 1000 * bytesPerSecond / sharing;
    }
  }

  private final List<Sample> samples = new ArrayList<>();

  /** Whether the fault is one the disk model times. */
  static boolean timed(FaultEvent f) {
    return KIND.equals(f.kind());
  }

  /** The attempt's parts that ran wholly with the node's every disk at one rate, and nothing else beyond its CPU. */
  void add(RunRecord r, AttemptRecord a, List<String> baseline, double cpu, boolean done) {
    Integer node = a.node();
    if (node == null || a.finishMs() == null || a.startMs() == null || r.workload() == null) {
      return;
    }
    OptionalDouble share = shareBytes(r, a.type().equals("MAP"));
    if (share.isEmpty()) {
      return;
    }
    String type = r.workload().type();
    if (a.type().equals("MAP")) {
      rate(r, node, a.startMs(), a.finishMs(), baseline).ifPresent(rate -> samples.add(new Sample(r.scenario(), type, Part.MAP,
          a.finishMs() - a.startMs(), cpu, rate, sharing(r, a, a.startMs(), a.finishMs()), share.getAsDouble(), done)));
      return;
    }
    if (a.sortFinishMs() == null || a.shuffleFinishMs() == null) {
      return;
    }
    if (done) {
      long lastMap = r.attempts().stream().filter(m -> m.type().equals("MAP") && "SUCCEEDED".equals(m.state())
          && m.finishMs() != null).mapToLong(AttemptRecord::finishMs).max().orElse(Long.MAX_VALUE);
      long from = Math.max(a.startMs(), lastMap);
      if (from < a.shuffleFinishMs() && rate(r, node, from, a.shuffleFinishMs(), baseline).isPresent()) {
        servingRate(r, from, a.shuffleFinishMs(), baseline).ifPresent(rate -> samples.add(new Sample(r.scenario(), type, Part.SHUFFLE,
            a.shuffleFinishMs() - from, Double.NaN, rate, 1, share.getAsDouble(), true)));
      }
      rate(r, node, a.shuffleFinishMs(), a.sortFinishMs(), baseline).ifPresent(rate -> samples.add(new Sample(r.scenario(), type,
          Part.SORT, a.sortFinishMs() - a.shuffleFinishMs(), Double.NaN, rate,
          sharing(r, a, a.shuffleFinishMs(), a.sortFinishMs()), share.getAsDouble(), true)));
    }
    double sharing = sharing(r, a, a.sortFinishMs(), a.finishMs());
    rate(r, node, a.sortFinishMs(), a.finishMs(), baseline).stream().boxed()
        .flatMap(own -> pipelineRate(r, node, own / sharing, a.sortFinishMs(), a.finishMs(), baseline).stream())
        .forEach(rate -> samples.add(new Sample(r.scenario(), type, Part.REDUCE, a.finishMs() - a.sortFinishMs(), cpu, rate, 1,
            share.getAsDouble(), done)));
  }

  /**
   * The rate a reduce's output went at: HDFS writes it to its own node ({@code own}: its share of
   * its disks) and to {@code dfs.replication - 1} others through a pipeline, as fast as its slowest
   * disk's share (another node's shared by the tasks moving bytes there and this write). The records
   * do not say which nodes, so the rate is the one every choice of others, alike likely, gives on
   * average (their bytes' time averaged); empty when another node's disks were in a state the model
   * cannot time then.
   */
  private static java.util.Optional<Double> pipelineRate(RunRecord r, int node, double own, long from, long to,
      List<String> baseline) {
    String set = r.hadoop().getOrDefault("dfs.replication", "");
    int replicas = set.matches("\\d+") ? Integer.parseInt(set) : 3; // HDFS's default where the record says it was unset
    List<Double> others = new ArrayList<>();
    for (RunRecord.NodeInfo n : r.nodes()) {
      if (n.index() == node) {
        continue;
      }
      if (!slowed(r, n.index(), from, to, baseline)) {
        others.add(Double.POSITIVE_INFINITY);
        continue;
      }
      OptionalDouble rate = rate(r, n.index(), from, to, baseline);
      if (rate.isEmpty()) {
        return java.util.Optional.empty();
      }
      others.add(rate.getAsDouble() / (1 + busy(r, n.index(), from, to)));
    }
    int partners = Math.min(Math.max(0, replicas - 1), others.size());
    double[] seconds = {0};
    int[] choices = {0};
    choose(others, partners, 0, 1 / own, seconds, choices);
    return java.util.Optional.of(choices[0] / seconds[0]);
  }

  /**
   * The rate a reduce's copies were read at, off the nodes that served them: each node's part (its
   * maps' outputs over all) at its disks' rate over the tasks sharing them and this read, the slowest
   * setting the pace; as one rate for the whole shuffle's bytes. Empty when a serving node's disks
   * were in a state the model cannot time then, or none was held.
   */
  private static OptionalDouble servingRate(RunRecord r, long from, long to, List<String> baseline) {
    Map<Integer, Integer> held = new TreeMap<>();
    int maps = 0;
    for (AttemptRecord m : r.attempts()) {
      if (m.type().equals("MAP") && "SUCCEEDED".equals(m.state()) && m.node() != null) {
        held.merge(m.node(), 1, Integer::sum);
        maps++;
      }
    }
    double slowest = 0; // seconds per byte of the shuffle
    for (Map.Entry<Integer, Integer> e : held.entrySet()) {
      if (!slowed(r, e.getKey(), from, to, baseline)) {
        continue;
      }
      OptionalDouble rate = rate(r, e.getKey(), from, to, baseline);
      if (rate.isEmpty()) {
        return rate;
      }
      double users = 1 + busy(r, e.getKey(), from, to);
      slowest = Math.max(slowest, e.getValue() / (double) maps * users / rate.getAsDouble());
    }
    return slowest > 0 ? OptionalDouble.of(1 / slowest) : OptionalDouble.empty();
  }

  /** How many of the node's attempts moved bytes on average over {@code [from, to)}. */
  private static double busy(RunRecord r, int node, long from, long to) {
    double ms = 0;
    for (AttemptRecord o : r.attempts()) {
      if (o.node() != null && o.node() == node) {
        ms += movingBytes(o, from, to);
      }
    }
    return to > from ? ms / (to - from) : 0;
  }

  /**
   * How long in {@code [from, to)} the attempt moved bytes through its disks as a task's work does:
   * a map all its life, a reduce in its reduce phase (its copies and sort are waits, not work that
   * shares the disk with others', as the simulation takes them).
   */
  private static long movingBytes(AttemptRecord o, long from, long to) {
    Long start = o.type().equals("MAP") ? o.startMs() : o.sortFinishMs();
    if (start == null) {
      return 0;
    }
    long end = o.finishMs() == null ? to : o.finishMs();
    return Math.max(0, Math.min(end, to) - Math.max(start, from));
  }

  /** Every choice of {@code left} of {@code others} from {@code from} on: the seconds a byte takes at the slowest. */
  private static void choose(List<Double> others, int left, int from, double slowest, double[] seconds, int[] choices) {
    if (left == 0) {
      seconds[0] += slowest;
      choices[0]++;
      return;
    }
    for (int i = from; i <= others.size() - left; i++) {
      choose(others, left - 1, i + 1, Math.max(slowest, 1 / others.get(i)), seconds, choices);
    }
  }

  /** Whether a fault beyond the CPU was in force on the node at some time in {@code [from, to)}. */
  private static boolean slowed(RunRecord r, int node, long from, long to, List<String> baseline) {
    return r.faults().stream().anyMatch(f -> f.injectedMs() != null && f.node() == node && f.effect().slowsNode()
        && Replay.beyondCpu(f) && !Baseline.partOf(baseline, r, f) && f.injectedMs() < to
        && (f.healedMs() == null || f.healedMs() > from));
  }

  /**
   * Per workload, the bytes of each part, from the typical work of its maps and reduces and its
   * sort's typical time; null for a workload no sample came from.
   */
  Map<String, TimeModel.DiskBytes> fit(Map<String, TimeModel.WorkloadTimes> workloads) {
    Map<String, TimeModel.DiskBytes> out = new TreeMap<>();
    for (String type : new TreeSet<>(samples.stream().map(Sample::type).toList())) {
      TimeModel.WorkloadTimes w = workloads.get(type);
      if (w == null) {
        continue;
      }
      List<TimeModel.Censored> map = perByte(type, Part.MAP, s -> w.map().medianMs());
      List<TimeModel.Censored> shuffle = perByte(type, Part.SHUFFLE, s -> w.shuffleLag().medianMs());
      List<TimeModel.Censored> sort = perByte(type, Part.SORT, s -> w.sort().medianMs());
      List<TimeModel.Censored> reduce = perByte(type, Part.REDUCE, s -> w.reduce().medianMs());
      out.put(type, new TimeModel.DiskBytes(median(map), map.size(), median(shuffle), shuffle.size(), median(sort),
          sort.size(), median(reduce), reduce.size(), samples.stream().filter(s -> s.type().equals(type))
              .map(Sample::scenario).distinct().sorted().toList()));
    }
    return out;
  }

  private List<TimeModel.Censored> perByte(String type, Part part, ToDoubleFunction<Sample> typical) {
    return samples.stream().filter(s -> s.type().equals(type) && s.part() == part && (Double.isNaN(s.cpu()) || s.cpu() > 0))
        .map(s -> new TimeModel.Censored(s.bytes(typical.applyAsDouble(s)) / s.shareBytes(), s.done())).toList();
  }

  private static double median(List<TimeModel.Censored> values) {
    return values.isEmpty() ? 0 : TimeModel.Censored.median(values);
  }

  /** A map's split, or a reduce's part of the job's input. */
  private static OptionalDouble shareBytes(RunRecord r, boolean map) {
    String bytes = r.workload().parameters().get("bytes");
    String count = r.workload().parameters().get(map ? "maps" : "reduces");
    if (bytes == null || count == null || Integer.parseInt(count) <= 0 || Long.parseLong(bytes) <= 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(Double.parseDouble(bytes) / Integer.parseInt(count));
  }

  /**
   * The rate, in bytes a second, every disk of the node had from {@code from} to {@code to} under one
   * slow-disk fault (and no other fault beyond the CPU); empty otherwise.
   */
  private static OptionalDouble rate(RunRecord r, int node, long from, long to, List<String> baseline) {
    Double rate = null;
    for (FaultEvent f : r.faults()) {
      if (f.injectedMs() == null || f.node() != node || !f.effect().slowsNode() || !Replay.beyondCpu(f)
          || Baseline.partOf(baseline, r, f)) {
        continue;
      }
      long healed = f.healedMs() == null ? Long.MAX_VALUE : f.healedMs();
      if (f.injectedMs() >= to || healed <= from) {
        continue; // not in force then
      }
      if (!timed(f) || rate != null || f.injectedMs() > from || healed < to) {
        return OptionalDouble.empty(); // something else, or not throughout
      }
      OptionalDouble one = spreadRate(r, node, f.detail());
      if (one.isEmpty()) {
        return one;
      }
      rate = one.getAsDouble();
    }
    return rate == null ? OptionalDouble.empty() : OptionalDouble.of(rate);
  }

  /**
   * The rate a task's bytes, spread alike over the node's disks, went at: the number of disks over
   * the sum of 1/rate of those the fault held (the others add nothing).
   */
  private static OptionalDouble spreadRate(RunRecord r, int node, Map<String, String> detail) {
    int disks = disks(r, node);
    double seconds = 0;
    for (int i = 0; i < disks; i++) {
      String rate = detail.get("disk" + i + "BytesPerSecond");
      if (rate != null) {
        seconds += 1 / Double.parseDouble(rate);
      }
    }
    return seconds > 0 ? OptionalDouble.of(disks / seconds) : OptionalDouble.empty();
  }

  /** How many disks of its own the node had: its local folders, one a disk ({@code .../disk-N/...}). */
  static int disks(RunRecord r, int node) {
    return r.nodes().stream().filter(n -> n.index() == node).findFirst()
        .map(n -> (int) n.localDirs().stream().filter(d -> d.matches(".*/disk-\\d+/.*")).count()).orElse(0);
  }

  /**
   * How many tasks shared the node's disks with it on average over {@code [from, to)}, itself
   * included: the node's other attempts while they moved bytes ({@link #movingBytes}).
   */
  private static double sharing(RunRecord r, AttemptRecord a, long from, long to) {
    if (to <= from) {
      return 1;
    }
    double others = 0;
    for (AttemptRecord o : r.attempts()) {
      if (o != a && o.node() != null && o.node().equals(a.node())) {
        others += movingBytes(o, from, to);
      }
    }
    return 1 + others / (to - from);
  }
}
