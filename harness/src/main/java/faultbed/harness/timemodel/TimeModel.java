package faultbed.harness.timemodel;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.FaultEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.commons.statistics.descriptive.Median;
import org.apache.commons.statistics.descriptive.StandardDeviation;

/**
 * The times a simulated cluster supplies, fitted from real runs' records: for each workload, how
 * long a map and a reduce phase take (log-normal, from attempts no fault touched), how long after
 * the last map a reduce has its input and how long it sorts; how long the job takes to set up and
 * commit; and how many times longer work takes on a node where slowing faults are in force. Nothing
 * here decides anything: Hadoop's classes do, with these times. A model is a file; it names the runs
 * it came from, and every simulated record names it.
 *
 * @param name       what the model is called in records
 * @param fittedFrom where its numbers come from
 * @param workloads  by workload type ("wordcount", "sort")
 * @param slowdowns  one per set of slowing fault kinds seen in force together on a node, beyond the
 *                   baseline
 * @param baseline   the condition every node of every fitted run had from start to end (see
 *                   {@link Baseline}), which the work includes; empty when none
 */
public record TimeModel(String name, FittedFrom fittedFrom, Map<String, WorkloadTimes> workloads, long jobSetupMs,
    long jobCommitMs, List<Slowdown> slowdowns, List<String> baseline) {
  /** The model shipped with faultbed, fitted from its published suites (see docs/simulation.md). */
  public static final String DEFAULT_RESOURCE = "/faultbed/harness/timemodel/default-model.json";
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  public TimeModel {
    workloads = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(workloads)); // sorted: a model file writes alike every time
    slowdowns = List.copyOf(slowdowns);
    baseline = baseline == null ? List.of() : List.copyOf(baseline);
  }

  /**
   * The records a model was fitted from.
   *
   * @param scenarios the scenarios' names, each once
   * @param backends  the backends they ran on
   * @param machineCores the cores of the machine their nodes shared, or of each node's own machine
   *                     when {@code machinePerNode}
   * @param machinePerNode whether each node was a machine of its own (a real cluster); false, and so
   *                     in models written before it was recorded, for one machine every node shared
   */
  public record FittedFrom(int runs, List<String> scenarios, List<String> backends, double machineCores,
      boolean machinePerNode) {}

  /**
   * A log-normal time: half the times are below {@code medianMs}; {@code logSd} is the standard
   * deviation of their natural log; {@code n} how many times it was fitted from.
   */
  public record Spread(double medianMs, double logSd, int n) {
    /** One time drawn from it. */
    public long draw(SplittableRandom random) {
      return Math.round(medianMs * Math.exp(logSd * random.nextGaussian()));
    }

    static Spread of(List<Double> millis) {
      double[] logs = millis.stream().mapToDouble(m -> Math.log(Math.max(1, m))).toArray();
      double sd = logs.length < 2 ? 0 : StandardDeviation.of(logs).getAsDouble(); // n - 1 in the denominator
      return new Spread(median(millis), sd, millis.size());
    }
  }

  /**
   * One workload's task times.
   *
   * @param bytesPerMap the input each map read in the fitted runs; a map of another size takes
   *                    proportionally longer or shorter (an assumption the validation tests)
   * @param shuffleLag  wall time from the later of a reduce's launch and the last map's end to its
   *                    shuffle's end; how long a copy takes once its output is there
   * @param shuffleTail the CPU a reduce launched before the last map's end received from then to its
   *                    shuffle's end (what was left to copy and merge), so that the simulation's
   *                    shuffle ends slower on a loaded node; null when no fitted reduce launched so
   *                    early, and in models fitted before it was: the shuffle then ends after
   *                    {@code shuffleLag} wherever it runs
   * @param lateShuffle the same for a reduce launched after the last map, from its launch: its JVM
   *                    starting and every copy; null likewise
   * @param shuffleBytesPerInputByte how many bytes a map's output holds for the reduces per byte of
   *                    its input (the median of maps whose records carry their shuffled bytes):
   *                    what a copy carries through a link a fault shapes; null when no fitted record
   *                    carried them
   * @param disk        what its tasks move through their node's disk, for a disk held to a rate
   *                    ({@code slow-disk}); null when no fitted run slowed a disk, and in models
   *                    fitted before it was
   */
  public record WorkloadTimes(long bytesPerMap, Spread map, Spread reduce, Spread shuffleLag, Spread sort,
      MapProgress mapProgress, Spread shuffleTail, Spread lateShuffle, Double shuffleBytesPerInputByte,
      DiskBytes disk) {
    public WorkloadTimes {
      if (mapProgress == null) {
        throw new IllegalArgumentException("mapProgress: expected how a map's progress unfolds (a model written by"
            + " 'faultbed sim-model' since it fits one), got none; fit the model again");
      }
    }
  }

  /**
   * How a map's work unfolds, as its progress reports show it: its sort and spill last, {@code sortShare}
   * of its work (the median of {@code sortMaps} maps); of what comes before, first {@code startupShare},
   * in which it reports no progress (its JVM starts, the task sets up), the median of
   * {@code startupMaps} maps whose progress clocks say when their progress began, in runs of
   * {@code startupFrom}; then its map phase, progress rising to 2/3 as it reads its input; in its
   * sort, progress stays at 2/3 until it is done. Hadoop's estimators judge a map by these reports. Shares,
   * not times: runs recorded on another day of a shared machine read the same shares at other speeds.
   */
  public record MapProgress(double startupShare, int startupMaps, List<String> startupFrom, double sortShare,
      int sortMaps) {
    public MapProgress {
      startupFrom = List.copyOf(startupFrom);
    }
  }

  /**
   * Bytes a task moves through a disk, per byte of its share of the job's input (a map's: its split;
   * a reduce's: the input over the reduces), in four parts: a map's whole life ({@code map}, its
   * split read and its output spilled and merged), a reduce's shuffle ({@code shuffle}: what it
   * copies, read off the disks of the nodes that serve it, each its outputs' part, the slowest
   * setting the pace, from the shuffle's typical lag after the last map), its sort ({@code sort},
   * the merge of what it copied, on disk when it does not fit in memory) and its reduce phase
   * ({@code reduce}, its output written). What a disk held to a rate of R bytes a second, shared
   * equally by the {@code n} tasks using it, adds to a part: its bytes times n over R. Bytes, not
   * seconds, so a model fitted on one disk's rate times another's. Each is the median over the
   * attempts ({@code maps}, {@code shuffles}, {@code sorts}, {@code reduces}) that ran wholly on a
   * node whose disks a slow-disk held: their time over the part's typical (its work at the CPU share
   * they had, the shuffle's lag, the sort's median) times the rate over the tasks that shared the
   * disk; Kaplan-Meier's where backups won first (a lower bound). A reduce's output goes through HDFS's pipeline, as fast as the slowest
   * of its replicas' disks (its node's and {@code dfs.replication - 1} others'). A task's files go to
   * its node's disks in turn (YARN's local folders and HDFS's volumes, round-robin), so its bytes
   * spread over them alike: one slow disk of three holds a third of every task's bytes. {@code from}
   * names the suites the samples came from.
   */
  public record DiskBytes(double map, int maps, double shuffle, int shuffles, double sort, int sorts, double reduce,
      int reduces, List<String> from) {
    public DiskBytes {
      from = from == null ? List.of() : List.copyOf(from);
    }
  }

  /**
   * Work on a node with exactly these slowing fault kinds in force takes {@code factor} times as
   * long, beyond the CPU they take or limit (which the simulation shares out): the median over
   * {@code attempts} attempts of the CPU time they received against a typical task's work. Of them,
   * {@code killed} were killed before they were done (a backup won), so their work was at least what
   * they received: the median is then Kaplan-Meier's, and when more than half were killed, the
   * largest such lower bound (the straggler's true speed is beyond what its runs show).
   */
  public record Slowdown(List<String> kinds, double factor, int attempts, int killed) {}

  /**
   * Whether a slowing fault, as its injection describes it ({@code detail}), does more than take or
   * limit CPU (which CPU sharing accounts for): a disk throttle, disk load. A fault on a link is
   * neither: the simulation times what crosses the link itself ({@link #onLinks}). Asked of records
   * by the fit and of faults by the simulation, so the two agree.
   */
  public static boolean actsBeyondCpu(String kind, Map<String, String> detail) {
    return switch (kind) {
      case "cpu-hog", "bandwidth-cap", "latency" -> false;
      case "slow-node" -> detail.containsKey("readBytesPerSecond") || detail.containsKey("writeBytesPerSecond");
      default -> true;
    };
  }

  /**
   * Whether a fault kind shapes a node's link (a cap, a delay): what crosses it takes the time the
   * simulation's links give it, from the fault's own rate or delay, so the fit takes no slow-down
   * from it and no attempt whose data crossed it as a sample of a task's work.
   */
  public static boolean onLinks(String kind) {
    return kind.equals("bandwidth-cap") || kind.equals("latency");
  }

  /** The model faultbed ships. */
  public static TimeModel standard() {
    try (InputStream in = TimeModel.class.getResourceAsStream(DEFAULT_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the default time model is missing from the classpath: " + DEFAULT_RESOURCE);
      }
      return JSON.readValue(in, TimeModel.class);
    } catch (IOException e) {
      throw new UncheckedIOException("reading the default time model", e);
    }
  }

  public static TimeModel read(Path file) {
    try {
      return JSON.readValue(file.toFile(), TimeModel.class);
    } catch (IOException e) {
      throw new IllegalArgumentException("time model " + file + ": expected a model file written by"
          + " 'faultbed sim-model', got: " + e.getMessage(), e);
    }
  }

  public void write(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      JSON.writeValue(file.toFile(), this);
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + file, e);
    }
  }

  /** The times of one workload, or one clear line naming the workloads the model knows. */
  public WorkloadTimes workload(String type) {
    WorkloadTimes w = workloads.get(type);
    if (w == null) {
      throw new IllegalArgumentException("workload.type: the time model \"" + name + "\" knows "
          + new TreeSet<>(workloads.keySet()) + ", got \"" + type + "\"; fit a model from runs of it (faultbed sim-model)");
    }
    return w;
  }

  /**
   * How many times longer work takes with these kinds in force: the set as fitted, else the product
   * of each kind fitted alone; one clear line when the model has neither.
   */
  public double slowdown(Set<String> kinds) {
    List<String> wanted = List.copyOf(new TreeSet<>(kinds));
    for (Slowdown s : slowdowns) {
      if (s.kinds().equals(wanted)) {
        return s.factor();
      }
    }
    double product = 1;
    for (String kind : wanted) {
      Slowdown alone = slowdowns.stream().filter(s -> s.kinds().equals(List.of(kind))).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("faults: the time model \"" + name + "\" has no slow-down for "
              + wanted + " on one node; it has " + slowdowns.stream().map(Slowdown::kinds).toList()));
      product *= alone.factor();
    }
    return product;
  }

  /**
   * Fits a model from records of real runs on one machine of {@code machineCores} cores that all
   * their nodes shared (faultbed's own backends): only jobs that succeeded. Each run is replayed on
   * the machine's cores as {@link CpuSharing} shares them (its attempts, and the spinners and CPU
   * limits its faults put on nodes), which gives every attempt the CPU time it received; a task's work
   * is that time, from attempts on nodes no fault had touched. What slowing faults did beyond the CPU
   * (disk contention) is the residual: the CPU time an attempt wholly under them received over a
   * typical task's work.
   */
  public static TimeModel fit(String name, Collection<RunRecord> records, double machineCores) {
    return fit(name, records, List.of(), List.of(), Machines.shared(machineCores));
  }

  /**
   * As {@link #fit(String, Collection, double)}, on {@code machines} (one all nodes shared, or one
   * per node: a real cluster's, whose nodes' attempts compete only with their own node's), with
   * {@code progressOnly}: runs of the same machines whose maps' progress clocks give the work a map
   * does before it reports progress, which records written before they carried progress clocks
   * cannot show; nothing else is taken from them. Likewise {@code shuffleBytesOnly}: runs whose maps'
   * records carry their shuffled bytes give a workload's shuffle bytes per input byte (a property of
   * the job and its data, not of the machine) where the fitted records do not carry them.
   */
  public static TimeModel fit(String name, Collection<RunRecord> records, Collection<RunRecord> progressOnly,
      Collection<RunRecord> shuffleBytesOnly, Machines machines) {
    return fit(name, records, progressOnly, shuffleBytesOnly, List.of(), machines);
  }

  /**
   * As above, with {@code diskOnly}: runs of the same machines whose disks a slow-disk held to a rate,
   * which give what a workload's tasks move through a disk ({@link DiskBytes}) against the work the
   * fitted records give; nothing else is taken from them.
   */
  public static TimeModel fit(String name, Collection<RunRecord> records, Collection<RunRecord> progressOnly,
      Collection<RunRecord> shuffleBytesOnly, Collection<RunRecord> diskOnly, Machines machines) {
    Map<String, List<Double>> maps = new TreeMap<>();
    Map<String, List<Double>> reduces = new TreeMap<>();
    Map<String, List<Double>> lags = new TreeMap<>();
    Map<String, List<Double>> shuffleTails = new TreeMap<>();
    Map<String, List<Double>> lateShuffles = new TreeMap<>();
    Map<String, List<Double>> sorts = new TreeMap<>();
    Map<String, List<Double>> bytes = new TreeMap<>();
    Map<String, List<Double>> shuffleRatios = shuffleRatios(records);
    Map<String, List<Double>> sortShares = new TreeMap<>();
    Map<String, List<Double>> startups = new TreeMap<>();
    Map<String, Set<String>> startupFrom = new TreeMap<>();
    record Residual(String type, boolean map, List<String> kinds, double received, boolean done) {}
    List<Residual> residuals = new ArrayList<>();
    DiskSamples disk = new DiskSamples();
    List<Double> setups = new ArrayList<>();
    List<Double> commits = new ArrayList<>();
    Set<String> scenarios = new TreeSet<>();
    Set<String> backends = new TreeSet<>();
    int runs = 0;
    // the runs' common condition, if they all had one, is the cluster's: its faults touch no attempt
    List<List<String>> conditions = records.stream().filter(TimeModel::usable).map(Baseline::of).distinct().toList();
    List<String> baseline = conditions.size() == 1 ? conditions.get(0) : List.of();
    for (RunRecord r : records) {
      if (!usable(r)) {
        continue;
      }
      runs++;
      scenarios.add(r.scenario());
      backends.add(r.cluster() == null ? "?" : r.cluster().backend());
      String type = r.workload().type();
      String mapCount = r.workload().parameters().get("maps");
      String inputBytes = r.workload().parameters().get("bytes");
      if (mapCount != null && inputBytes != null) {
        bytes.computeIfAbsent(type, k -> new ArrayList<>()).add(Double.parseDouble(inputBytes) / Integer.parseInt(mapCount));
      }
      Map<String, double[]> received = Replay.cpuReceived(r, machines, TimeModel::phaseMarks);
      long lastMap = 0;
      long lastAttempt = 0;
      long firstStart = Long.MAX_VALUE;
      for (AttemptRecord a : r.attempts()) {
        if (a.startMs() != null) {
          firstStart = Math.min(firstStart, a.startMs());
        }
        if ("SUCCEEDED".equals(a.state()) && a.finishMs() != null) {
          lastAttempt = Math.max(lastAttempt, a.finishMs());
          if (a.type().equals("MAP")) {
            lastMap = Math.max(lastMap, a.finishMs());
          }
        }
      }
      for (AttemptRecord a : r.attempts()) {
        double[] segments = received.get(a.attemptId());
        boolean succeeded = "SUCCEEDED".equals(a.state());
        // an attempt killed while it worked (its backup won) shows its work was at least what it received
        boolean killed = "KILLED".equals(a.state()) && a.finishMs() != null;
        if (segments == null || !succeeded && !killed) {
          continue;
        }
        double cpu = java.util.Arrays.stream(segments).sum();
        boolean map = a.type().equals("MAP");
        boolean untouched = untouched(r, a, baseline);
        if (succeeded && untouched) {
          (map ? maps : reduces).computeIfAbsent(type, k -> new ArrayList<>()).add(cpu);
          if (map && a.mapFinishMs() != null && cpu > 0) {
            sortShares.computeIfAbsent(type, k -> new ArrayList<>()).add(segments[2] / cpu);
            startupShare(a, segments).ifPresent(share -> {
              startups.computeIfAbsent(type, k -> new ArrayList<>()).add(share);
              startupFrom.computeIfAbsent(type, k -> new TreeSet<>()).add(r.scenario());
            });
          }
          if (!map) {
            sorts.computeIfAbsent(type, k -> new ArrayList<>()).add((double) (a.sortFinishMs() - a.shuffleFinishMs()));
            double[] shuffle = received.get(a.attemptId() + Replay.SHUFFLE);
            (a.startMs() < lastMap ? shuffleTails : lateShuffles).computeIfAbsent(type, k -> new ArrayList<>())
                .add(shuffle == null ? 0 : shuffle[0]);
            lags.computeIfAbsent(type, k -> new ArrayList<>())
                .add((double) Math.max(0, a.shuffleFinishMs() - Math.max(a.startMs(), lastMap)));
          }
        } else if (!untouched) {
          List<String> kinds = Replay.beyondCpuThroughout(r, a, baseline);
          // a disk held to a rate is timed by its bytes (DiskBytes), every part of every attempt under it alike
          disk.add(r, a, baseline, cpu, succeeded);
          if (!kinds.isEmpty() && !kinds.contains(DiskSamples.KIND) && a.attempt() == 0) {
            residuals.add(new Residual(type, map, kinds, cpu, succeeded));
          }
        }
      }
      if (firstStart != Long.MAX_VALUE) {
        setups.add((double) firstStart);
      }
      commits.add((double) Math.max(0, r.job().finishedMs() - lastAttempt));
    }
    if (runs == 0) {
      throw new IllegalArgumentException("records: expected runs whose jobs succeeded, got none among " + records.size());
    }
    for (RunRecord r : progressOnly) {
      if (!usable(r)) {
        continue;
      }
      Map<String, double[]> received = Replay.cpuReceived(r, machines, TimeModel::phaseMarks);
      String type = r.workload().type();
      for (AttemptRecord a : r.attempts()) {
        if ("SUCCEEDED".equals(a.state()) && untouched(r, a, Baseline.of(r))) {
          startupShare(a, received.get(a.attemptId())).ifPresent(share -> {
            startups.computeIfAbsent(type, k -> new ArrayList<>()).add(share);
            startupFrom.computeIfAbsent(type, k -> new TreeSet<>()).add(r.scenario());
          });
        }
      }
    }
    for (RunRecord r : diskOnly) {
      if (!usable(r)) {
        continue;
      }
      List<String> condition = Baseline.of(r);
      Map<String, double[]> received = Replay.cpuReceived(r, machines, TimeModel::phaseMarks);
      for (AttemptRecord a : r.attempts()) {
        double[] segments = received.get(a.attemptId());
        boolean succeeded = "SUCCEEDED".equals(a.state());
        if (segments != null && (succeeded || "KILLED".equals(a.state()) && a.finishMs() != null)) {
          disk.add(r, a, condition, java.util.Arrays.stream(segments).sum(), succeeded);
        }
      }
    }
    if (startups.isEmpty()) {
      throw new IllegalArgumentException("records: expected maps whose records carry progress clocks (recorded by this"
          + " version of faultbed), which show how long a map reports no progress; none of the " + runs
          + " runs' maps do: give runs of the same machine that do (sim-model --progress-from DIR)");
    }
    List<Double> anyStartup = startups.values().stream().flatMap(List::stream).toList();
    Set<String> anyStartupFrom = new TreeSet<>();
    startupFrom.values().forEach(anyStartupFrom::addAll);
    if (maps.values().stream().allMatch(List::isEmpty)) {
      throw new IllegalArgumentException("records: expected maps on nodes no fault had touched beyond their CPU (a disk"
          + " throttle or load, a crash), which give a task's own work; every map of the " + runs + " runs ran on such a node");
    }
    Map<String, List<Double>> otherRatios = shuffleRatios(shuffleBytesOnly);
    Map<String, WorkloadTimes> workloads = new TreeMap<>();
    for (String type : maps.keySet()) {
      if (maps.get(type).isEmpty() || !reduces.containsKey(type)) {
        continue;
      }
      long perMap = bytes.containsKey(type) ? Math.round(median(bytes.get(type))) : 0;
      // JVM start and set-up are much the same whatever the job: a workload with no progress clocks of
      // its own takes every workload's
      List<Double> startup = startups.getOrDefault(type, anyStartup);
      List<Double> shares = sortShares.getOrDefault(type, List.of(0.0));
      MapProgress progress = new MapProgress(median(startup), startup.size(),
          List.copyOf(startupFrom.getOrDefault(type, anyStartupFrom)), median(shares), sortShares.getOrDefault(type, List.of()).size());
      workloads.put(type, new WorkloadTimes(perMap, Spread.of(maps.get(type)), Spread.of(reduces.get(type)),
          Spread.of(lags.get(type)), Spread.of(sorts.get(type)), progress, spread(shuffleTails.get(type)),
          spread(lateShuffles.get(type)), shuffleRatio(shuffleRatios.getOrDefault(type, otherRatios.get(type))), null));
    }
    disk.fit(workloads).forEach((type, moved) -> workloads.computeIfPresent(type, (t, w) -> new WorkloadTimes(
        w.bytesPerMap(), w.map(), w.reduce(), w.shuffleLag(), w.sort(), w.mapProgress(), w.shuffleTail(), w.lateShuffle(),
        w.shuffleBytesPerInputByte(), moved)));
    Map<String, List<Censored>> ratios = new TreeMap<>();
    for (Residual residual : residuals) {
      WorkloadTimes w = workloads.get(residual.type());
      if (w != null) {
        double typical = (residual.map() ? w.map() : w.reduce()).medianMs();
        ratios.computeIfAbsent(String.join("+", residual.kinds()), k -> new ArrayList<>())
            .add(new Censored(residual.received() / typical, residual.done()));
      }
    }
    List<Slowdown> slowdowns = new ArrayList<>();
    ratios.forEach((kinds, list) -> slowdowns.add(new Slowdown(List.of(kinds.split("\\+")), Censored.median(list),
        list.size(), (int) list.stream().filter(c -> !c.observed()).count())));
    return new TimeModel(name, new FittedFrom(runs, List.copyOf(scenarios), List.copyOf(backends), machines.cores(),
        machines.perNode()),
        workloads, Math.round(median(setups)), Math.round(median(commits)), slowdowns, baseline);
  }

  /** Per workload, each succeeded map's shuffled bytes over its input's bytes, from records that carry both. */
  private static Map<String, List<Double>> shuffleRatios(Collection<RunRecord> records) {
    Map<String, List<Double>> ratios = new TreeMap<>();
    for (RunRecord r : records) {
      String maps = r.workload() == null ? null : r.workload().parameters().get("maps");
      String bytes = r.workload() == null ? null : r.workload().parameters().get("bytes");
      if (maps == null || bytes == null || Long.parseLong(bytes) <= 0) {
        continue;
      }
      double perMap = Double.parseDouble(bytes) / Integer.parseInt(maps);
      for (AttemptRecord a : r.attempts()) {
        if (a.type().equals("MAP") && "SUCCEEDED".equals(a.state()) && a.shuffleBytes() != null) {
          ratios.computeIfAbsent(r.workload().type(), k -> new ArrayList<>()).add(a.shuffleBytes() / perMap);
        }
      }
    }
    return ratios;
  }

  private static Double shuffleRatio(List<Double> ratios) {
    return ratios == null || ratios.isEmpty() ? null : median(ratios);
  }

  /**
   * Of a map's work before its sort, the share before its progress began, when its clock says:
   * {@code segments} is the CPU it received cut by {@link #phaseMarks}.
   */
  private static java.util.OptionalDouble startupShare(AttemptRecord a, double[] segments) {
    boolean cut = segments != null && segments.length == 3 && segments[0] + segments[1] > 0;
    return cut && ProgressStart.of(a).isPresent() ? java.util.OptionalDouble.of(segments[0] / (segments[0] + segments[1]))
        : java.util.OptionalDouble.empty();
  }

  private static boolean usable(RunRecord r) {
    return r.job() != null && r.job().succeeded() && r.job().finishedMs() != null && !r.attempts().isEmpty();
  }

  /** A map's CPU interval cut where its progress began (when its clock says) and where its map phase ended. */
  private static long[] phaseMarks(AttemptRecord a) {
    if (!a.type().equals("MAP") || a.mapFinishMs() == null || a.startMs() == null) {
      return new long[0];
    }
    long progressBegan = Math.min(ProgressStart.of(a).orElse(a.startMs()), a.mapFinishMs());
    return new long[] {progressBegan, a.mapFinishMs()};
  }

  /**
   * No fault had acted on the attempt's node by the time it finished, other than by taking or
   * limiting CPU, which the replay has accounted for; and no fault shaped a link while the attempt's
   * data may have crossed one (a reduce's copies, a map's read of a split off its node).
   */
  private static boolean untouched(RunRecord r, AttemptRecord a, List<String> baseline) {
    for (FaultEvent f : r.faults()) {
      if (Baseline.partOf(baseline, r, f)) {
        continue;
      }
      boolean during = f.injectedMs() != null && a.finishMs() != null && f.injectedMs() < a.finishMs()
          && (f.healedMs() == null || a.startMs() == null || f.healedMs() > a.startMs());
      if (onLinks(f.kind()) && during && (!a.type().equals("MAP") || !"NODE_LOCAL".equals(a.locality()))) {
        return false;
      }
      if (f.injectedMs() != null && a.node() != null && f.node() == a.node() && a.finishMs() != null
          && f.injectedMs() < a.finishMs() && (f.effect().stopsNode() || f.effect().slowsNode() && Replay.beyondCpu(f))) {
        return false;
      }
    }
    return true;
  }

  /** A ratio observed, or known only to be at least this much (the attempt was killed first). */
  record Censored(double value, boolean observed) {
    /** Kaplan-Meier's median; the plain median when nothing is censored; the largest value when it is undefined. */
    static double median(List<Censored> all) {
      if (all.stream().allMatch(Censored::observed)) {
        return TimeModel.median(all.stream().map(Censored::value).toList());
      }
      List<Censored> sorted = new ArrayList<>(all);
      // at a tie an observed value leaves before a censored one, as Kaplan-Meier takes it
      sorted.sort(java.util.Comparator.comparingDouble(Censored::value).thenComparing(c -> !c.observed()));
      double survival = 1;
      int atRisk = sorted.size();
      for (Censored c : sorted) {
        if (c.observed()) {
          survival *= 1 - 1.0 / atRisk;
          if (survival <= 0.5) {
            return c.value();
          }
        }
        atRisk--;
      }
      return sorted.get(sorted.size() - 1).value();
    }
  }

  /** A spread of the times, or null for none. */
  private static Spread spread(List<Double> millis) {
    return millis == null || millis.isEmpty() ? null : Spread.of(millis);
  }

  private static double median(List<Double> values) {
    return Median.withDefaults().evaluate(values.stream().mapToDouble(Double::doubleValue).toArray());
  }
}
