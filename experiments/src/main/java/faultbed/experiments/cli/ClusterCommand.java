package faultbed.experiments.cli;

import static faultbed.experiments.cli.FaultbedCli.BAD_INPUT;
import static faultbed.experiments.cli.FaultbedCli.INTERNAL_ERROR;
import static faultbed.experiments.cli.FaultbedCli.MISSING_ENVIRONMENT;

import faultbed.experiments.scenario.Preconditions;
import faultbed.experiments.scenario.Scenario;
import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.experiments.scenario.Variant;
import faultbed.faults.Ledger;
import faultbed.harness.ClientConfiguration;
import faultbed.harness.Cluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.Clusters;
import faultbed.results.RecordStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code faultbed cluster}: a cluster kept up for the user's own Hadoop clients (stock examples,
 * their jobs, their tools), broken on request from a second shell. See {@link LiveCluster} for the
 * folder the commands meet in.
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
    description = "Keeps a cluster up for your own Hadoop clients, and breaks it on request from another shell.",
    subcommands = {ClusterCommand.Up.class, ClusterCommand.Down.class, ClusterCommand.FaultCommand.class,
        ClusterCommand.Heal.class, ClusterCommand.Status.class})
final class ClusterCommand {

  /** The folder the cluster's commands meet in. */
  static final class Folder {
    @Option(names = "--dir", paramLabel = "DIR", description = "the cluster's folder: client configuration, state,"
        + " requests (default: out/cluster)")
    Path dir = Path.of("out", "cluster");
  }

  @Command(name = "up", mixinStandardHelpOptions = true, description = {
      "Starts a cluster and keeps it up until Ctrl-C or 'faultbed cluster down'. Writes a client configuration"
          + " folder (DIR/conf) and prints the line to use it with a stock Hadoop client.",
      "Its shape is a scenario's cluster (first variant, or --variant), else faultbed's defaults; options override it."})
  static final class Up implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO", description = "take the cluster and Hadoop"
        + " settings from this scenario")
    Path scenarioFile;

    @Option(names = "--variant", paramLabel = "NAME", description = "the scenario variant whose cluster to start"
        + " (default: the first)")
    String variant;

    @Option(names = "--nodes", paramLabel = "N", description = "worker nodes (default 4)")
    Integer nodes;

    @CommandLine.Mixin
    ClusterOptions overrides;

    @CommandLine.Mixin
    Folder folder;

    @CommandLine.Mixin
    UserClasspath userClasspath;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      PrintWriter err = spec.commandLine().getErr();
      ClusterSpec cluster;
      try {
        cluster = clusterSpec();
      } catch (ScenarioException e) {
        err.println("faultbed: " + e.getMessage());
        return BAD_INPUT;
      }
      Path dir = folder.dir.toAbsolutePath();
      Optional<LiveCluster.State> running = LiveCluster.up(dir);
      if (running.isPresent()) {
        err.println("faultbed: --dir: a cluster is already up in " + dir + " (pid " + running.get().pid()
            + "); 'faultbed cluster down --dir " + folder.dir + "' stops it");
        return BAD_INPUT;
      }
      List<String> problems = Preconditions.problems(cluster);
      if (!problems.isEmpty()) {
        err.println("faultbed: cannot run here: " + problems.get(0));
        return MISSING_ENVIRONMENT;
      }
      try (UserClasspath.Installed cp = userClasspath.install()) {
        return serve(cluster, dir, err);
      } catch (UserClasspath.BadEntry e) {
        err.println("faultbed: " + e.getMessage());
        return BAD_INPUT;
      }
    }

    private ClusterSpec clusterSpec() {
      ClusterSpec cluster = ClusterSpec.defaults();
      if (scenarioFile != null) {
        Scenario s = ScenarioParser.parse(scenarioFile);
        Variant v = variant == null ? s.variants().get(0) : s.variants().stream()
            .filter(x -> x.name().equals(variant)).findFirst()
            .orElseThrow(() -> new ScenarioException("--variant", "expected one of "
                + s.variants().stream().map(Variant::name).toList() + ", got \"" + variant + "\""));
        cluster = v.cluster();
      } else if (variant != null) {
        throw new ScenarioException("--variant", "names a variant of a scenario; give the SCENARIO too");
      }
      if (nodes != null) {
        cluster = cluster.withNodes(ScenarioParser.nodes(nodes, "--nodes"));
      }
      if (overrides.backend() != null) {
        cluster = cluster.withBackend(overrides.backend());
      }
      if (cluster.backend().usesExistingCluster() || overrides.inventory != null) {
        throw new ScenarioException(overrides.inventory != null ? "--inventory" : "--backend", "'cluster up' starts a"
            + " cluster, and a remote one is up already: submit to it with its own client configuration");
      }
      if (!cluster.backend().runsDaemons()) {
        throw new ScenarioException(overrides.backend() != null ? "--backend" : "cluster.backend", "'cluster up' serves"
            + " a cluster's daemons to stock clients, and the " + cluster.backend().name() + " backend has none;"
            + " expected a backend that starts daemons, e.g. \"mini\"");
      }
      return cluster.withHadoop(overrides.settings());
    }

    private int serve(ClusterSpec spec, Path dir, PrintWriter err) throws InterruptedException {
      PrintWriter out = this.spec.commandLine().getOut();
      CountDownLatch stopped = new CountDownLatch(1);
      boolean[] stop = {false};
      Thread hook = new Thread(() -> {
        synchronized (stop) {
          stop[0] = true;
        }
        try {
          // Ctrl-C or 'cluster down': let the serving thread take the faults away and close the cluster
          if (!stopped.await(5, TimeUnit.MINUTES)) {
            System.err.println("faultbed: the cluster did not stop in 5 minutes; 'faultbed doctor --fix' removes what it left");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "faultbed-cluster-down");
      Runtime.getRuntime().addShutdownHook(hook);
      LiveCluster.ownerOnly(dir);
      try (Cluster cluster = Clusters.start(spec, line -> err.println("faultbed: " + line))) {
        Path conf = dir.resolve(LiveCluster.CONF);
        LiveCluster.ownerOnly(conf);
        int settings = ClientConfiguration.write(cluster, conf);
        LiveCluster live = new LiveCluster(cluster, dir);
        live.announce(new LiveCluster.State(ProcessHandle.current().pid(), spec.backend().name(),
            spec.nodes(), conf.toString(), Instant.now().toString()));
        out.printf("faultbed: cluster up: %d node(s) (%s), client configuration in %s (%d settings)%n",
            spec.nodes(), cluster.info().backend(), conf, settings);
        out.printf("  use it:  HADOOP_CONF_DIR=%s hadoop jar hadoop-mapreduce-examples-*.jar pi 4 100%n", conf);
        out.printf("  faults:  ./faultbed cluster fault --dir %s '{\"kind\": \"crash\", \"node\": 1}'%n", dir);
        out.printf("  status:  ./faultbed cluster status --dir %s%n", dir);
        out.printf("  stop:    Ctrl-C, or ./faultbed cluster down --dir %s%n", dir);
        out.flush();
        live.serve(() -> {
          synchronized (stop) {
            return stop[0];
          }
        });
        err.println("faultbed: cluster stopping");
      } finally {
        stopped.countDown(); // the hook, if it runs, need not wait any longer
      }
      return 0;
    }
  }

  @Command(name = "down", mixinStandardHelpOptions = true, description = "Stops the cluster 'cluster up' keeps"
      + " (it takes its faults away, stops every daemon and removes what it put on this machine).")
  static final class Down implements Callable<Integer> {
    @CommandLine.Mixin
    Folder folder;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      PrintWriter err = spec.commandLine().getErr();
      Path dir = folder.dir.toAbsolutePath();
      Optional<LiveCluster.State> up = LiveCluster.up(dir);
      if (up.isEmpty()) {
        if (Files.deleteIfExists(dir.resolve(LiveCluster.STATE))) {
          // the process died without closing: what it put on the machine is healed now
          Ledger.healOrphans().forEach(h -> err.println("faultbed: healed leftover: " + h));
          err.println("faultbed: the cluster in " + dir + " had died; its leftovers are removed");
          return 0;
        }
        err.println("faultbed: --dir: no cluster is up in " + dir);
        return BAD_INPUT;
      }
      // asked through the request folder, the cluster closes in order and its process exits 0;
      // a signal (Ctrl-C) also heals everything, but by shutdown hooks that run side by side
      ProcessHandle p = ProcessHandle.of(up.get().pid()).orElse(null);
      PrintWriter quiet = new PrintWriter(java.io.Writer.nullWriter());
      int asked = Requests.ask(dir, up.get(), new LiveCluster.Request(null, false, false, true), false, quiet, quiet);
      if (p != null && asked != 0) {
        p.destroy();
      }
      if (p != null) {
        try {
          p.onExit().get(5, TimeUnit.MINUTES);
        } catch (java.util.concurrent.TimeoutException e) {
          err.println("faultbed: the cluster (pid " + p.pid() + ") did not stop in 5 minutes");
          return INTERNAL_ERROR;
        }
      }
      spec.commandLine().getOut().println("faultbed: cluster in " + dir + " is down");
      return 0;
    }
  }

  @Command(name = "fault", mixinStandardHelpOptions = true, description = {
      "Injects a fault into the cluster 'cluster up' keeps, at once. FAULT is the scenario format's fault"
          + " without \"at\", e.g. '{\"kind\": \"crash\", \"node\": 1}' or"
          + " '{\"kind\": \"slow-node\", \"node\": \"running-reducer\", \"cpu\": 0.25, \"for\": \"30s\"}'.",
      "node: an index, \"random\", \"application-master\" or \"running-reducer\". Without \"for\" it lasts"
          + " until 'cluster heal'."})
  static final class FaultCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FAULT", description = "the fault, as JSON")
    String fault;

    @CommandLine.Mixin
    Folder folder;

    @CommandLine.Mixin
    JsonOutput json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      PrintWriter err = spec.commandLine().getErr();
      Optional<LiveCluster.State> up = LiveCluster.up(folder.dir.toAbsolutePath());
      if (up.isEmpty()) {
        err.println("faultbed: --dir: no cluster is up in " + folder.dir.toAbsolutePath());
        return BAD_INPUT;
      }
      try {
        ScenarioParser.liveFault(fault, up.get().nodes()); // refused here, before the cluster sees it
      } catch (ScenarioException e) {
        err.println("faultbed: " + e.getMessage());
        return BAD_INPUT;
      }
      return ask(new LiveCluster.Request(fault, false, false, false), up.get());
    }

    private int ask(LiveCluster.Request r, LiveCluster.State state) throws Exception {
      return Requests.ask(folder.dir.toAbsolutePath(), state, r, json.enabled, spec.commandLine().getOut(),
          spec.commandLine().getErr());
    }
  }

  /** A command that is one request to the live cluster, answered in text or JSON. */
  abstract static class Ask implements Callable<Integer> {
    @CommandLine.Mixin
    Folder folder;

    @CommandLine.Mixin
    JsonOutput json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    abstract LiveCluster.Request request();

    @Override
    public Integer call() throws Exception {
      return Requests.ask(folder.dir.toAbsolutePath(), request(), json.enabled, spec.commandLine().getOut(),
          spec.commandLine().getErr());
    }
  }

  @Command(name = "heal", mixinStandardHelpOptions = true, description = "Takes every fault away and brings crashed"
      + " nodes back, as between a suite's runs: run it when no job runs, since bringing a node back kills the"
      + " containers still running.")
  static final class Heal extends Ask {
    @Override
    LiveCluster.Request request() {
      return new LiveCluster.Request(null, true, false, false);
    }
  }

  @Command(name = "status", mixinStandardHelpOptions = true, description = "Says what each node of the cluster"
      + " 'cluster up' keeps is doing, and which faults are in force.")
  static final class Status extends Ask {
    @Override
    LiveCluster.Request request() {
      return new LiveCluster.Request(null, false, true, false);
    }
  }

  /** The asking side of the request folder. */
  static final class Requests {
    /** A crash, or bringing nodes back, waits on the ResourceManager: a minute or so at most. */
    private static final Duration ANSWER_WITHIN = Duration.ofMinutes(3);

    private Requests() {}

    static int ask(Path dir, LiveCluster.Request r, boolean json, PrintWriter out, PrintWriter err) throws Exception {
      Optional<LiveCluster.State> up = LiveCluster.up(dir);
      if (up.isEmpty()) {
        err.println("faultbed: --dir: no cluster is up in " + dir);
        return BAD_INPUT;
      }
      return ask(dir, up.get(), r, json, out, err);
    }

    static int ask(Path dir, LiveCluster.State state, LiveCluster.Request r, boolean json, PrintWriter out,
        PrintWriter err) throws Exception {
      Path requests = dir.resolve(LiveCluster.REQUESTS);
      String name = String.format("%d-%d", System.currentTimeMillis(), ProcessHandle.current().pid());
      Path tmp = requests.resolve(name + ".tmp");
      RecordStore.json().writeValue(tmp.toFile(), r);
      Files.move(tmp, requests.resolve(name + ".request.json"), StandardCopyOption.ATOMIC_MOVE);
      Path answer = requests.resolve(name + ".answer.json");
      Instant until = Instant.now().plus(ANSWER_WITHIN);
      while (!Files.exists(answer)) {
        if (ProcessHandle.of(state.pid()).map(p -> !p.isAlive()).orElse(true)) {
          err.println("faultbed: the cluster's process (pid " + state.pid() + ") ended before it answered");
          return INTERNAL_ERROR;
        }
        if (Instant.now().isAfter(until)) {
          Files.deleteIfExists(requests.resolve(name + ".request.json"));
          err.println("faultbed: the cluster did not answer in " + ANSWER_WITHIN.toMinutes() + " minutes");
          return INTERNAL_ERROR;
        }
        Thread.sleep(100); // the up process polls its folder at the same pace
      }
      LiveCluster.Answer a = RecordStore.json().readValue(answer.toFile(), LiveCluster.Answer.class);
      Files.deleteIfExists(answer);
      if (json) {
        JsonOutput.print(out, a);
        return a.exit();
      }
      if (a.exit() != 0) {
        err.println("faultbed: " + a.message());
        return a.exit();
      }
      out.println("faultbed: " + a.message());
      if (a.fault() != null && !a.fault().detail().isEmpty()) {
        out.println("  observed: " + a.fault().detail());
      }
      for (LiveCluster.NodeView n : a.nodes()) {
        out.printf("  node %d  %-5s RM: %-11s %-22s %s%s%n", n.index(), n.up() ? "up" : "down", n.state(), n.nodeId(),
            n.applicationMaster() ? "AM " : "", n.runningAttempts().isEmpty() ? "" : n.runningAttempts().size() + " attempt(s) running");
      }
      for (LiveCluster.Active f : a.faults()) {
        out.printf("  fault %d: %s on node %d since %s%s%n", f.id(), f.kind(), f.node(), f.since(),
            f.lastsSeconds() == null ? "" : " for " + f.lastsSeconds() + " s");
      }
      out.flush();
      return 0;
    }
  }
}
