package faultbed.experiments.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.harness.Cluster;
import faultbed.harness.Node;
import faultbed.harness.timeline.Fault;
import faultbed.harness.timeline.Injection;
import faultbed.harness.timeline.Target;
import faultbed.results.RecordStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A cluster kept up by {@code faultbed cluster up}, and the folder other commands reach it through:
 * {@code cluster.json} says it is up (pid, nodes, client configuration), and {@code requests/} takes
 * one JSON file per request (a fault, heal, status) and gets one answer file back. A folder rather
 * than a port: it needs no address, and only who may write the folder may break the cluster.
 */
final class LiveCluster {
  static final String STATE = "cluster.json";
  static final String CONF = "conf";
  static final String REQUESTS = "requests";
  private static final ObjectMapper JSON = RecordStore.json();

  /** What {@code cluster.json} holds while the cluster is up. */
  record State(long pid, String backend, int nodes, String conf, String startedAt) {}

  /** One request: exactly one of fault (the scenario's fault format, without "at"), heal, status, down. */
  record Request(String fault, boolean heal, boolean status, boolean down) {}

  /** A fault in force on the live cluster. */
  record Active(int id, String kind, int node, String since, Double lastsSeconds, Map<String, String> detail) {}

  record NodeView(int index, String nodeId, String address, boolean up, String state, List<String> runningAttempts,
      boolean applicationMaster) {}

  /** The answer: exit code as the command returns it (0, 2 bad input, 3 host lacks, 4 error), and what happened. */
  record Answer(int exit, String message, Active fault, List<Active> healed, List<NodeView> nodes, List<Active> faults) {
    static Answer failed(int exit, String message) {
      return new Answer(exit, message, null, List.of(), List.of(), List.of());
    }
  }

  private final Cluster cluster;
  private final Path dir;
  private final ScheduledExecutorService healer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "faultbed-live-healer");
    t.setDaemon(true);
    return t;
  });
  private final Map<Integer, Injection> injections = new LinkedHashMap<>();
  private final Map<Integer, Active> active = new LinkedHashMap<>();
  private final Random random = new Random();
  private int faults;
  private volatile boolean downRequested;

  LiveCluster(Cluster cluster, Path dir) {
    this.cluster = cluster;
    this.dir = dir;
  }

  /** The live cluster's state, if a process that is still alive wrote it. */
  static Optional<State> up(Path dir) {
    Path file = dir.resolve(STATE);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      State s = JSON.readValue(file.toFile(), State.class);
      return ProcessHandle.of(s.pid()).filter(ProcessHandle::isAlive).map(p -> s);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The folder and the ones in it made for its owner alone (rwx------): the client configuration
   * may hold the cluster's secrets, and whoever can write a request can inject faults.
   */
  static void ownerOnly(Path folder) {
    try {
      Files.createDirectories(folder);
      Files.setPosixFilePermissions(folder, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: its own access rules apply
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make " + folder + " its owner's alone", e);
    }
  }

  void announce(State state) {
    try {
      ownerOnly(dir);
      ownerOnly(dir.resolve(REQUESTS));
      Path tmp = dir.resolve(STATE + ".tmp");
      JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), state);
      Files.move(tmp, dir.resolve(STATE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir.resolve(STATE), e);
    }
  }

  /** Answers requests until {@code stop} says so; then takes every fault away (the cluster's close does the rest). */
  void serve(java.util.function.BooleanSupplier stop) throws InterruptedException {
    Path requests = dir.resolve(REQUESTS);
    while (!stop.getAsBoolean() && !downRequested) {
      List<Path> pending;
      try (Stream<Path> s = Files.list(requests)) {
        pending = s.filter(p -> p.getFileName().toString().endsWith(".request.json")).sorted().toList();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + requests, e);
      }
      for (Path p : pending) {
        answer(p);
      }
      Thread.sleep(100); // a folder poll: requests are a person's or a script's pace
    }
    healer.shutdownNow();
    synchronized (this) {
      new ArrayList<>(active.keySet()).forEach(this::healOne);
    }
    try {
      Files.deleteIfExists(dir.resolve(STATE));
    } catch (IOException ignored) {
      // the pid in it is dead now, which readers check
    }
  }

  private void answer(Path request) {
    String name = request.getFileName().toString().replace(".request.json", "");
    Answer a;
    try {
      a = handle(JSON.readValue(request.toFile(), Request.class));
    } catch (IOException e) {
      a = Answer.failed(FaultbedCli.BAD_INPUT, "request " + name + ": " + e.getMessage());
    } catch (RuntimeException e) {
      a = Answer.failed(FaultbedCli.INTERNAL_ERROR, e.toString());
    }
    try {
      Path tmp = dir.resolve(REQUESTS).resolve(name + ".answer.tmp");
      JSON.writeValue(tmp.toFile(), a);
      Files.move(tmp, dir.resolve(REQUESTS).resolve(name + ".answer.json"), StandardCopyOption.ATOMIC_MOVE);
      Files.deleteIfExists(request);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot answer " + request, e);
    }
  }

  private synchronized Answer handle(Request r) {
    if (r.down()) {
      downRequested = true;
      return new Answer(0, "stopping", null, List.of(), List.of(), List.copyOf(active.values()));
    }
    if (r.fault() != null) {
      return inject(r.fault());
    }
    if (r.heal()) {
      List<Active> healed = new ArrayList<>(active.values());
      new ArrayList<>(active.keySet()).forEach(this::healOne);
      boolean someDown = cluster.nodes().stream().anyMatch(n -> !n.isUp());
      if (someDown) {
        cluster.reset();
      }
      return new Answer(0, healed.isEmpty() && !someDown ? "nothing to heal"
          : "healed " + healed.size() + " fault(s)" + (someDown ? "; crashed nodes are back" : ""),
          null, healed, nodes(), List.of());
    }
    return new Answer(0, "up", null, List.of(), nodes(), List.copyOf(active.values()));
  }

  private Answer inject(String text) {
    Fault fault;
    try {
      fault = ScenarioParser.liveFault(text, cluster.nodes().size());
    } catch (ScenarioException e) {
      return Answer.failed(FaultbedCli.BAD_INPUT, e.getMessage());
    }
    var refused = fault.unsupported(cluster.spec());
    if (refused.isPresent()) {
      return Answer.failed(FaultbedCli.BAD_INPUT, "fault." + refused.get().field() + ": " + refused.get().why());
    }
    for (var c : fault.needs(cluster.spec())) {
      List<String> problems = c.problems();
      if (!problems.isEmpty()) {
        return Answer.failed(FaultbedCli.MISSING_ENVIRONMENT, "fault \"" + fault.kind() + "\": " + problems.get(0));
      }
    }
    Node node = resolve(fault.target());
    if (node == null) {
      return Answer.failed(FaultbedCli.BAD_INPUT, "fault.node: no node is " + fault.target().describe() + " now");
    }
    if (!node.isUp() && fault.needsLiveNode()) {
      return Answer.failed(FaultbedCli.BAD_INPUT, "fault.node: node " + node.index()
          + " is down ('faultbed cluster heal' brings it back)");
    }
    int id = ++faults;
    Injection injection = fault.inject(node, cluster.faultContext("live-" + id));
    Active a = new Active(id, fault.kind(), node.index(), Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString(),
        fault.duration() == null ? null : fault.duration().toMillis() / 1000.0, injection.detail());
    injections.put(id, injection);
    active.put(id, a);
    if (fault.duration() != null) {
      healer.schedule(() -> {
        synchronized (this) {
          healOne(id);
        }
      }, fault.duration().toMillis(), TimeUnit.MILLISECONDS);
    }
    return new Answer(0, fault.kind() + " on node " + node.index()
        + (a.lastsSeconds() == null ? " until 'faultbed cluster heal'" : " for " + a.lastsSeconds() + " s"),
        a, List.of(), nodes(), List.copyOf(active.values()));
  }

  private void healOne(int id) {
    Injection i = injections.remove(id);
    active.remove(id);
    if (i != null) {
      i.healer().heal();
    }
  }

  /** The target as the cluster shows it now: an index, or a role a node plays at this moment. */
  private Node resolve(Target target) {
    boolean spareReducers = target instanceof Target.SparingReducers;
    Target t = spareReducers ? ((Target.SparingReducers) target).choice() : target;
    boolean spareAm = t instanceof Target.SparingAm;
    t = spareAm ? ((Target.SparingAm) t).choice() : t;
    if (t instanceof Target.Index i) {
      return i.index() < cluster.nodes().size() ? cluster.node(i.index()) : null;
    }
    List<Node> candidates = new ArrayList<>();
    for (Node n : cluster.nodes()) {
      if (!n.isUp() || (spareAm && n.runsApplicationMaster())
          || (spareReducers && n.runsReducer())) {
        continue;
      }
      boolean plays = t == Target.Role.RANDOM
          || (t == Target.Role.APPLICATION_MASTER && n.runsApplicationMaster())
          || (t == Target.Role.RUNNING_REDUCER && n.runsReducer());
      if (plays) {
        candidates.add(n);
      }
    }
    return candidates.isEmpty() ? null : candidates.get(random.nextInt(candidates.size()));
  }

  private List<NodeView> nodes() {
    Map<String, String> states = cluster.nodeStates();
    List<NodeView> out = new ArrayList<>();
    for (Node n : cluster.nodes()) {
      boolean up = n.isUp();
      out.add(new NodeView(n.index(), n.nodeId(), n.address(), up, states.getOrDefault(n.nodeId(), "UNKNOWN"),
          up ? n.runningAttempts() : List.of(), up && n.runsApplicationMaster()));
    }
    return out;
  }
}
