package faultbed.experiments.cli;

import faultbed.harness.Backends;
import faultbed.harness.observe.HistoryImport;
import faultbed.harness.timemodel.Machines;
import faultbed.harness.timemodel.TimeModel;
import faultbed.results.RunRecord;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Fits the time model the sim backend runs on from folders of real runs' records: per workload its
 * task and phase times, the job's set-up and commit, and the slow-down of each set of slowing faults
 * seen on a node. A scenario names the file in {@code cluster.hadoop["faultbed.sim.model"]}.
 */
@Command(name = "sim-model", mixinStandardHelpOptions = true,
    description = "Fits the sim backend's time model from folders of real runs' records.")
final class SimModelCommand implements Callable<Integer> {

  @Parameters(paramLabel = "DIR", arity = "1..*", description = "folders of run records of real clusters")
  List<Path> dirs;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "where to write the model (JSON)")
  Path out;

  @Option(names = "--name", paramLabel = "NAME", description = "what records simulated with it call the model"
      + " (default: the file's name)")
  String name;

  @Option(names = "--variant", paramLabel = "NAME", description = "fit from these variants' runs only (repeatable),"
      + " e.g. a suite's reference, so its other variants can be checked against the simulation")
  List<String> variants = new ArrayList<>();

  @CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
  Cores cores;

  /** Where the runs' nodes ran: one machine they all shared, or a machine each. */
  static final class Cores {
    @Option(names = "--machine-cores", required = true, paramLabel = "N", description = "the cores of the machine the"
        + " runs' nodes shared (faultbed's own backends run every node on one machine)")
    Double machineCores;

    @Option(names = "--node-cores", required = true, paramLabel = "N", description = "the cores of each node's own"
        + " machine, for runs of a real cluster (the remote backend's, or jobs read with 'faultbed import-history')")
    Double nodeCores;
  }

  @Option(names = "--progress-from", paramLabel = "DIR", description = "folders of runs of the same machine whose"
      + " records carry progress clocks, for how long a map reports no progress, when DIR's records were written"
      + " before they carried them (repeatable); nothing else is fitted from them")
  List<Path> progressFrom = new ArrayList<>();

  @Option(names = "--shuffle-bytes-from", paramLabel = "DIR", description = "folders of runs whose records carry"
      + " each attempt's shuffled bytes (recorded by faultbed since records' schema 4), for how many bytes a map's"
      + " output holds per byte of its input, when DIR's records do not carry them (repeatable); what copies carry"
      + " through links a bandwidth-cap or latency shapes; nothing else is fitted from them")
  List<Path> shuffleBytesFrom = new ArrayList<>();

  @Option(names = "--disk-from", paramLabel = "DIR", description = "folders of runs of the same machine whose disks a"
      + " slow-disk held to a rate, for how many bytes a workload's tasks move through a disk, when DIR's runs slowed"
      + " no disk (repeatable); nothing else is fitted from them")
  List<Path> diskFrom = new ArrayList<>();

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    List<RunRecord> records = new ArrayList<>();
    for (Path dir : dirs) {
      var read = RecordsFolder.read(dir, err);
      if (read.isEmpty()) {
        return FaultbedCli.BAD_INPUT;
      }
      read.get().stream().filter(r -> variants.isEmpty() || variants.contains(r.variant())).forEach(records::add);
    }
    if (records.isEmpty()) {
      err.println("faultbed: --variant: expected variants the folders hold, got " + variants + " (no run of them)");
      return FaultbedCli.BAD_INPUT;
    }
    if (records.stream().anyMatch(r -> r.cluster() != null && "sim".equals(r.cluster().backend()))) {
      err.println("faultbed: DIR: expected records of real clusters, got simulated ones: a model is fitted to what"
          + " Hadoop did on real nodes");
      return FaultbedCli.BAD_INPUT;
    }
    boolean perNode = cores.nodeCores != null;
    double n = perNode ? cores.nodeCores : cores.machineCores;
    String option = perNode ? "--node-cores" : "--machine-cores";
    if (!(n > 0) || Double.isInfinite(n)) {
      err.println("faultbed: " + option + ": expected a positive number of cores, got " + n);
      return FaultbedCli.BAD_INPUT;
    }
    // a machine per node or one for all: runs of both kinds cannot share one replay
    var wrong = records.stream().filter(r -> r.cluster() != null && machinePerNode(r.cluster().backend()) != perNode)
        .findFirst();
    if (wrong.isPresent()) {
      String backend = wrong.get().cluster().backend();
      err.println(perNode
          ? "faultbed: DIR: expected records of a cluster whose nodes are machines of their own (remote, history) for"
              + " --node-cores, got runs of faultbed's " + backend + " backend, whose nodes share one machine: give"
              + " --machine-cores"
          : "faultbed: DIR: expected records of faultbed's own backends (all nodes on one machine) for --machine-cores,"
              + " got runs of a " + backend + " cluster, whose nodes are machines of their own: give --node-cores");
      return FaultbedCli.BAD_INPUT;
    }
    var progressOnly = RecordsFolder.readAll("--progress-from", progressFrom, err);
    if (progressOnly.isEmpty()) {
      return FaultbedCli.BAD_INPUT;
    }
    var shuffleBytesOnly = RecordsFolder.readAll("--shuffle-bytes-from", shuffleBytesFrom, err);
    if (shuffleBytesOnly.isEmpty()) {
      return FaultbedCli.BAD_INPUT;
    }
    var diskOnly = RecordsFolder.readAll("--disk-from", diskFrom, err);
    if (diskOnly.isEmpty()) {
      return FaultbedCli.BAD_INPUT;
    }
    String modelName = name != null ? name : out.getFileName().toString().replaceFirst("\\.json$", "");
    TimeModel model;
    try {
      model = TimeModel.fit(modelName, records, progressOnly.get(), shuffleBytesOnly.get(), diskOnly.get(),
          perNode ? Machines.perNode(n) : Machines.shared(n));
    } catch (IllegalArgumentException e) {
      err.println("faultbed: DIR: " + e.getMessage());
      return FaultbedCli.BAD_INPUT;
    }
    model.write(out);
    PrintWriter o = spec.commandLine().getOut();
    o.printf("%s: fitted from %d runs of %s on %s%n", out, model.fittedFrom().runs(), model.fittedFrom().scenarios(),
        (perNode ? Machines.perNode(n) : Machines.shared(n)).describe());
    model.workloads().forEach((type, w) -> o.printf("  %s: map %.0f ms of CPU (log sd %.2f, %d), reduce %.0f ms (%d),"
        + " shuffle after the last map %.0f ms, sort %.0f ms%n", type, w.map().medianMs(), w.map().logSd(), w.map().n(),
        w.reduce().medianMs(), w.reduce().n(), w.shuffleLag().medianMs(), w.sort().medianMs()));
    model.workloads().forEach((type, w) -> o.printf("  %s: a map reports no progress for the first %.0f %% of its work"
        + " before its sort (%d maps of %s), sorts for the last %.0f %% (%d)%n", type, 100 * w.mapProgress().startupShare(),
        w.mapProgress().startupMaps(), w.mapProgress().startupFrom(), 100 * w.mapProgress().sortShare(),
        w.mapProgress().sortMaps()));
    model.workloads().forEach((type, w) -> o.printf("  %s: %s%n", type, w.shuffleBytesPerInputByte() == null
        ? "no shuffled bytes in its records: scenarios with bandwidth-cap or latency cannot use the model"
        : String.format("a map's output holds %.3f bytes per byte of its input", w.shuffleBytesPerInputByte())));
    model.workloads().forEach((type, w) -> {
      if (w.disk() != null) {
        o.printf("  %s: through a disk, per byte of its input share: a map %.2f bytes (%d), a reduce's shuffle %.2f (%d),"
            + " its sort %.2f (%d), its reduce phase %.2f (%d)%n", type, w.disk().map(), w.disk().maps(),
            w.disk().shuffle(), w.disk().shuffles(), w.disk().sort(), w.disk().sorts(), w.disk().reduce(),
            w.disk().reduces());
      }
    });
    o.printf("  job set-up %d ms, commit %d ms%n", model.jobSetupMs(), model.jobCommitMs());
    model.slowdowns().forEach(s -> o.printf("  %s on a node, beyond CPU: x%.2f (%d attempts, %d killed before done)%n",
        String.join(" + ", s.kinds()), s.factor(), s.attempts(), s.killed()));
    if (!model.baseline().isEmpty()) {
      o.printf("  every node, from start to end, in every run: %s (the work includes it)%n", model.baseline());
    }
    return 0;
  }

  /**
   * Whether a record's nodes are machines of their own: a cluster faultbed did not put on this one
   * (a backend that works on a cluster already up, or jobs read from history files).
   */
  private static boolean machinePerNode(String backend) {
    return HistoryImport.BACKEND.equals(backend)
        || Backends.all().stream().anyMatch(b -> b.name().equals(backend) && b.usesExistingCluster());
  }
}
