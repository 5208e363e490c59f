package faultbed.experiments.cli;

import faultbed.experiments.RunOrder;
import faultbed.experiments.SuiteRunner;
import faultbed.experiments.scenario.Scenario;
import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.faults.Ledger;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.SuiteSummary;
import faultbed.results.compare.SequentialSuite;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code faultbed} command. Exit codes: 0 done, 1 a verdict WORSE (or leftovers found), 2 bad
 * input, 3 the machine lacks something, 4 an internal error (one line; the stack trace in a log).
 */
@Command(name = "faultbed", mixinStandardHelpOptions = true, versionProvider = FaultbedCli.Version.class,
    description = "Runs MapReduce jobs on a real Hadoop cluster while faults hit it, and records every run.",
    subcommands = {FaultbedCli.Run.class, FaultbedCli.Summary.class, FaultbedCli.Doctor.class,
        ReportCommand.class, ClassifyCommand.class, CompareCommand.class, BaselineCommand.class,
        PlanCommand.class, CalibrateCommand.class, MergeCommand.class, ValidateCommand.class,
        ClusterCommand.class, VerifyCommand.class, SimModelCommand.class, SimValidateCommand.class,
        ImportHistoryCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:done", "1:a verdict WORSE, or leftovers found", "2:bad input (one line naming the field)",
        "3:this machine lacks something the scenario needs", "4:internal error (one line; the stack trace in a log)"})
public final class FaultbedCli implements Callable<Integer> {
  /** faultbed's version and commit, and the Hadoop and Java it runs on. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return faultbed.experiments.BuildInfo.here().lines();
    }
  }

  static final int BAD_INPUT = 2;
  static final int MISSING_ENVIRONMENT = 3;
  static final int INTERNAL_ERROR = 4;
  /** Stopped by SIGINT or SIGTERM while it worked, as a shell reports a command Ctrl-C ended. */
  static final int STOPPED = 130;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** No subcommand: the usage, on the error stream, and bad input. */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return BAD_INPUT;
  }

  private static final java.util.concurrent.atomic.AtomicBoolean STOPPED_SAID =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** The one line a signal's stop gets, whichever of the hook and the run's own thread says it first. */
  private static void saidStopped(PrintWriter err, String what) {
    if (STOPPED_SAID.compareAndSet(false, true)) {
      err.println("faultbed: stopped by a signal; " + what);
      err.flush();
    }
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  public static int execute(String... args) {
    return execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
  }

  public static int execute(PrintWriter out, PrintWriter err, String... args) {
    return commandLine(out, err, args).execute(args);
  }

  /** The command line with faultbed's handlers: one line and exit 2 for bad arguments, exit 4 for an error. */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err, String... args) {
    UncaughtToLog.install();
    CommandLine cli = new CommandLine(new FaultbedCli()).setOut(out).setErr(err);
    // a path no file can have (a NUL in it) is a bad argument like any other, not an exception's text
    cli.registerConverter(Path.class, text -> {
      try {
        return Path.of(text);
      } catch (java.nio.file.InvalidPathException e) {
        throw new CommandLine.TypeConversionException("expected a path, got \"" + text + "\" (" + e.getReason() + ")");
      }
    });
    // one line, not a usage screen, for a bad argument (a line break in it escaped)
    cli.setParameterExceptionHandler((ex, a) -> {
      ex.getCommandLine().getErr().println(ScenarioException.oneLine("faultbed: " + ex.getMessage()
          + " (see '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help')"));
      return BAD_INPUT;
    });
    cli.setExecutionExceptionHandler((ex, c, parsed) -> {
      for (Throwable t = ex; t != null; t = t.getCause()) {
        if (t instanceof faultbed.faults.Ledger.Stopping) {
          // Ctrl-C or a signal while a run went on: the clean-up on exit has healed what it made
          saidStopped(cli.getErr(), "what was made is healed (" + t.getMessage() + ")");
          return STOPPED;
        }
      }
      cli.getErr().println("faultbed: internal error: " + ex + " (stack trace in " + InternalErrors.log(ex, args) + ")");
      return INTERNAL_ERROR;
    });
    return cli;
  }

  @Command(name = "run", mixinStandardHelpOptions = true, description = "Runs a scenario: every variant, every run; one JSON record per run plus summary.json.")
  static final class Run implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCENARIO", description = "scenario file (JSON)")
    Path scenarioFile;

    @Option(names = "--runs", paramLabel = "N", description = "runs per variant, instead of the scenario's")
    Integer runs;

    @Option(names = "--seed", paramLabel = "S", description = "scenario seed, instead of the scenario's")
    Long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "output folder (default out/<scenario>-<time>)")
    Path out;

    @CommandLine.Mixin
    ClusterOptions cluster;

    @Option(names = "--resume", description = "continue a suite in --out: runs already recorded there are kept,"
        + " the rest are run (the scenario file must be the one the folder was started with); a folder with no"
        + " record yet is started")
    boolean resume;

    @Option(names = "--shard", paramLabel = "I/N", description = "run only shard I of N: every N-th whole block"
        + " (one run of each variant, same seed), so shards on separate machines stay balanced and paired;"
        + " join their folders with 'faultbed merge'")
    String shard;

    @Option(names = "--variant", paramLabel = "NAME", description = "run only this variant; repeatable"
        + " (blocks and seeds stay those of the whole scenario)")
    List<String> variants = new java.util.ArrayList<>();

    @Option(names = "--confirm-hosts", paramLabel = "NAMES", split = ",", description = "the remote backend's"
        + " hosts, as the inventory names them, comma-separated: faults go to a remote cluster only when every worker"
        + " of its inventory is named here")
    List<String> confirmHosts;

    @Option(names = "--dry-run", description = "on the remote backend: print, per host, every command starting the"
        + " cluster and making (and healing) each of the scenario's faults would run there; nothing runs but"
        + " read-only probes, and no job is submitted")
    boolean dryRun;

    @CommandLine.Mixin
    UserClasspath userClasspath;

    @CommandLine.Mixin
    JsonOutput json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      PrintWriter err = spec.commandLine().getErr();
      // Ctrl-C or a signal ends the JVM once its shutdown hooks (the ledgers' heal among them) are
      // done, before the run's own thread can say anything: the line is said from a hook too
      Thread stoppedLine = new Thread(() -> saidStopped(err, "healing what this run made; the runs recorded in "
          + (out == null ? "the records folder" : out) + " are kept: continue with --resume"), "faultbed-stopped-line");
      Runtime.getRuntime().addShutdownHook(stoppedLine);
      try (UserClasspath.Installed cp = userClasspath.install()) {
        return runScenario(err);
      } catch (UserClasspath.BadEntry e) {
        err.println("faultbed: " + e.getMessage());
        return BAD_INPUT;
      } catch (faultbed.faults.PreconditionFailed e) {
        // what a cluster's start found missing: a host not reachable, not a NodeManager of the RM, no command to run
        err.println("faultbed: cannot run here: " + e.getMessage());
        return MISSING_ENVIRONMENT;
      } finally {
        try {
          Runtime.getRuntime().removeShutdownHook(stoppedLine);
        } catch (IllegalStateException shuttingDown) {
          // the hook runs, or ran: the line is said once
        }
      }
    }

    private int runScenario(PrintWriter err) {
      int[] shardOf = {1, 1};
      if (shard != null) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]{1,6})/([0-9]{1,6})").matcher(shard);
        if (!m.matches() || Integer.parseInt(m.group(1)) < 1 || Integer.parseInt(m.group(1)) > Integer.parseInt(m.group(2))) {
          err.println("faultbed: --shard: expected I/N with 1 <= I <= N (such as 2/4), got \"" + shard + "\"");
          return BAD_INPUT;
        }
        shardOf = new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
      }
      Scenario scenario;
      java.util.Optional<SequentialSuite> sequential;
      try {
        scenario = ScenarioParser.parse(scenarioFile);
        sequential = SequentialSuite.ofFile(scenarioFile);
        if (runs != null) {
          if (runs < 1) {
            throw new ScenarioException("--runs", "expected at least 1, got " + runs);
          }
          if (sequential.isPresent()) {
            throw new ScenarioException("--runs", "expected none for a sequential scenario (its design fixes at most "
                + sequential.get().design().maxBlocks() + " blocks: change sequential.blocks and runs together), got "
                + runs);
          }
          scenario = scenario.withRuns(runs);
        }
        if (seed != null) {
          scenario = scenario.withSeed(seed);
        }
        scenario = scenario.withHadoop(cluster.settings());
        if (!variants.isEmpty()) {
          scenario = scenario.onlyVariants(variants);
        }
        scenario = cluster.apply(scenario);
      } catch (ScenarioException e) {
        err.println(ScenarioException.oneLine("faultbed: " + scenarioFile + ": " + e.getMessage()));
        return BAD_INPUT;
      }
      java.util.Optional<faultbed.harness.Inventory> remote = scenario.variants().stream()
          .map(v -> v.cluster().inventory()).filter(java.util.Objects::nonNull).findFirst();
      if (dryRun) {
        return remote.isEmpty() ? badInput(err, "--dry-run: expected a scenario on the remote backend (--inventory"
            + " FILE); it shows what would run on each of the inventory's hosts") : dryRun(scenario, err);
      }
      if (remote.isPresent()) {
        List<String> hosts = remote.get().workers().stream().map(faultbed.faults.remote.SshTarget::name).toList();
        if (confirmHosts == null || !java.util.Set.copyOf(confirmHosts).equals(java.util.Set.copyOf(hosts))) {
          return badInput(err, "--confirm-hosts: the remote backend crashes, freezes and cuts off the hosts of"
              + " inventory " + remote.get().name() + "; expected --confirm-hosts " + String.join(",", hosts) + ", got "
              + (confirmHosts == null ? "none" : String.join(",", confirmHosts)) + " (--dry-run shows what it would do)");
        }
      }
      Path dir = out != null ? out : Path.of("out", scenario.name() + "-"
          + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss")));
      java.util.Map<String, faultbed.results.RunRecord> done = new java.util.HashMap<>();
      if (resume && out == null) {
        err.println("faultbed: --resume: expected --out naming the suite's folder");
        return BAD_INPUT;
      }
      String refusal = resume ? resumeRefusal(dir, scenarioFile) : newFolderRefusal(dir);
      if (refusal != null) {
        err.println("faultbed: " + refusal);
        return BAD_INPUT;
      }
      if (resume && hasRecords(dir)) {
        for (faultbed.results.RunRecord r : new RecordStore(dir).readAll()) {
          done.put(r.runId(), r);
        }
      }
      List<String> problems = faultbed.experiments.scenario.Preconditions.problems(scenario);
      if (!problems.isEmpty()) {
        err.println("faultbed: cannot run here: " + problems.get(0));
        return MISSING_ENVIRONMENT;
      }
      RunOrder order = RunOrder.of(scenario);
      int blocks = order.blocks();
      if (shard != null && sequential.isPresent()) {
        return badInput(err, "--shard: expected none for a sequential scenario, got " + shard + " (it stops at a"
            + " look, which needs every block before it: run it in one process)");
      }
      if (!variants.isEmpty() && sequential.isPresent()) {
        return badInput(err, "--variant: expected none for a sequential scenario (its design gates every candidate"
            + " against " + sequential.get().reference() + "), got " + String.join(",", variants));
      }
      if (shardOf[1] > blocks) {
        err.println("faultbed: --shard: expected at most " + blocks + " shards (one per block), got " + shard);
        return BAD_INPUT;
      }
      order = order.shard(shardOf[0], shardOf[1]);
      try {
        Files.createDirectories(dir);
        Files.copy(scenarioFile, dir.resolve(RecordStore.SCENARIO_COPY),
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      } catch (java.nio.file.FileAlreadyExistsException e) {
        err.println("faultbed: --out: expected a folder, but " + dir + " is a file");
        return BAD_INPUT;
      } catch (IOException e) {
        err.println("faultbed: --out: cannot write to " + dir + ": " + e.getMessage());
        return BAD_INPUT;
      }
      // with --json only the summary goes to standard output
      java.io.PrintStream console = json.enabled ? System.err : System.out;
      ProgressDisplay display = new ProgressDisplay(console, System.console() != null);
      console.printf("faultbed: %s, %d variant(s), %d run(s) in %d interleaved block(s)%s%s, seed %d, %d cluster start(s) -> %s%n",
          scenario.name(), scenario.variants().size(), order.size(), blocks,
          shard == null ? "" : ", shard " + shard + " (every " + shardOf[1] + "th block)",
          done.isEmpty() ? "" : " (" + done.size() + " already recorded)", scenario.seed(), order.clusterStarts(), dir);
      RecordStore store = new RecordStore(dir);
      sequential.ifPresent(q -> console.println("faultbed: " + q.describe()));
      SuiteSummary summary;
      try {
        summary = new SuiteRunner(scenario, order, store, display, done,
            faultbed.experiments.Provenances.here(scenarioFile), sequential.orElse(null)).run();
      } catch (RecordStore.NotWritten e) {
        // the records folder's disk is full, or no longer writable: the runs recorded stay, and
        // --resume runs the rest once it is writable again
        display.finish();
        err.println("faultbed: --out: " + e.getMessage() + "; the " + store.list().size() + " run(s) recorded before"
            + " it are kept: make room there and continue with --resume");
        return MISSING_ENVIRONMENT;
      } catch (faultbed.faults.PreconditionFailed e) {
        // a cluster's start found something missing; once runs are recorded (it stopped in the
        // middle: a Toxiproxy server that died, a host gone), they stay and --resume goes on
        display.finish();
        int kept = store.list().size();
        if (kept == 0) {
          throw e;
        }
        err.println("faultbed: cannot run here: " + e.getMessage() + "; the " + kept + " run(s) recorded before are"
            + " kept: continue with --resume once it is back");
        return MISSING_ENVIRONMENT;
      }
      display.finish();
      if (json.enabled) {
        console.println("records: " + dir.toAbsolutePath());
        JsonOutput.print(spec.commandLine().getOut(), summary);
        return 0;
      }
      System.out.println();
      System.out.print(summary.table());
      sequential.ifPresent(q -> q.decide(store.readAll()).forEach(r -> System.out.println("sequential: " + r.describe())));
      System.out.println();
      System.out.println("records: " + dir.toAbsolutePath());
      if (UncaughtToLog.logFile() != null) {
        System.out.println("log:     " + Path.of(UncaughtToLog.logFile()).toAbsolutePath()
            + " (Hadoop's warnings and errors, and what any thread died of)");
      }
      return 0;
    }

    private static int badInput(PrintWriter err, String line) {
      err.println("faultbed: " + line);
      return BAD_INPUT;
    }

    /** Every command each host would see: the cluster's start, then each distinct fault made and healed on it. */
    private int dryRun(Scenario scenario, PrintWriter err) {
      List<String> problems = faultbed.experiments.scenario.Preconditions.problems(scenario);
      if (!problems.isEmpty()) {
        err.println("faultbed: cannot run here: " + problems.get(0));
        return MISSING_ENVIRONMENT;
      }
      java.util.Set<faultbed.harness.timeline.Fault> faults = new java.util.LinkedHashSet<>();
      scenario.variants().forEach(v -> v.timeline().steps().forEach(s -> faults.add(s.fault())));
      faultbed.harness.ClusterSpec cluster = scenario.variants().get(0).cluster();
      PrintWriter out = spec.commandLine().getOut();
      out.printf("faultbed: dry run of %s on inventory %s: starting the cluster, then %d fault(s) made and healed on"
          + " every worker; nothing below was run%n", scenario.name(), cluster.inventory().name(), faults.size());
      var planned = cluster.backend().dryRun(cluster, List.copyOf(faults),
          line -> err.println("faultbed: " + line));
      planned.forEach((host, commands) -> {
        out.println("host " + host + ":");
        commands.forEach(c -> out.println("  " + c));
      });
      out.flush();
      return 0;
    }

    /**
     * Why {@code --resume} may not continue {@code dir}, or null. A folder with no records yet is started
     * afresh, so one command both starts a long suite and continues it after an interruption.
     */
    static String resumeRefusal(Path dir, Path scenarioFile) {
      if (!hasRecords(dir)) {
        return null;
      }
      try {
        if (!Files.isRegularFile(dir.resolve(RecordStore.SCENARIO_COPY))
            || !Files.readString(dir.resolve(RecordStore.SCENARIO_COPY)).equals(Files.readString(scenarioFile))) {
          return "--resume: expected " + dir + " to have been started with " + scenarioFile
              + " (its scenario.json.txt differs or is missing)";
        }
        return null;
      } catch (IOException e) {
        return "--resume: cannot read " + dir + ": " + e.getMessage();
      }
    }

    /** Why a run without {@code --resume} may not write into {@code dir}, or null. */
    static String newFolderRefusal(Path dir) {
      return hasRecords(dir) ? "--out: expected a new or empty folder, but " + dir + " already holds run records"
          + " (--resume continues it)" : null;
    }

    private static boolean hasRecords(Path dir) {
      if (!Files.isDirectory(dir)) {
        return false;
      }
      try (Stream<Path> s = Files.list(dir)) {
        return s.anyMatch(p -> p.toString().endsWith(".json"));
      } catch (IOException e) {
        return true;
      }
    }
  }

  @Command(name = "summary", mixinStandardHelpOptions = true, description = "Recomputes the summary of a folder of run records (no cluster needed).")
  static final class Summary implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR")
    Path dir;

    @CommandLine.Mixin
    JsonOutput json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      var read = RecordsFolder.read(dir, spec.commandLine().getErr());
      if (read.isEmpty()) {
        return BAD_INPUT;
      }
      RecordStore store = new RecordStore(dir);
      List<RunRecord> records = read.get();
      SuiteSummary s = SuiteSummary.of(records);
      store.writeSummary(s);
      if (json.enabled) {
        JsonOutput.print(spec.commandLine().getOut(), s);
      } else {
        System.out.print(s.table());
      }
      return 0;
    }
  }

  @Command(name = "doctor", mixinStandardHelpOptions = true, description = "Says what this host can run (cgroup layout, capabilities, each fault kind)"
      + " and lists what dead faultbed runs left on it; --fix removes that. Exit 1 when leftovers are listed, not fixed.")
  static final class Doctor implements Callable<Integer> {
    @Option(names = "--fix", description = "remove the leftovers (only ever what faultbed created)")
    boolean fix;

    @CommandLine.Mixin
    JsonOutput json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** doctor --json: the host's facts, what dead runs left (and whether it was removed), foreign container JVMs. */
    record DoctorReport(HostTable.Report host, List<String> leftovers, boolean fixed, List<String> foreignContainers) {}

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      HostTable.Report host = HostTable.probe();
      List<String> found = fix ? Ledger.healOrphans() : Ledger.orphans();
      if (json.enabled) {
        JsonOutput.print(out, new DoctorReport(host, found, fix,
            ContainerScan.foreign().stream().map(String::valueOf).toList()));
        return found.isEmpty() || fix ? 0 : 1;
      }
      HostTable.print(out, host);
      out.println();
      if (found.isEmpty()) {
        out.println("no leftovers");
      } else {
        found.forEach(f -> out.println((fix ? "healed: " : "leftover: ") + f));
        if (!fix) {
          out.println("run 'faultbed doctor --fix' to remove them");
        }
      }
      ContainerScan.foreign().forEach(p -> out.println("container JVM outside faultbed's cgroups"
          + " (not touched): " + p));
      out.flush();
      return found.isEmpty() || fix ? 0 : 1;
    }
  }
}
