package faultbed.harness.sim;

import faultbed.faults.Capability;
import faultbed.harness.Backend;
import faultbed.harness.Cluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.NetworkBackend;
import faultbed.harness.Speculation;
import faultbed.harness.timeline.Fault;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.timemodel.Baseline;
import faultbed.harness.timemodel.TimeModel;
import faultbed.harness.workload.Workload;
import java.io.UncheckedIOException;
import java.util.TreeSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import faultbed.harness.timeline.SlowDisk;
import java.util.function.Consumer;

/**
 * {@code sim}: Hadoop's own ApplicationMaster on a simulated cluster of any size, on a virtual
 * clock in the harness's JVM (see {@link Simulation}); a time model fitted from real records
 * supplies how long work takes. Nothing runs on this host's OS, so the host needs nothing and its
 * memory and disk do not bound the cluster; faults are what the model can time: nodes that die or
 * stop, and nodes slowed by the kinds it has fitted.
 */
public final class SimBackend extends Backend {
  /** The fault kinds a simulated node can suffer. */
  static final List<String> KINDS = List.of("crash", "stop", "freeze", "blackhole", "rst-suppression", "slow-node",
      "cpu-hog", "disk-load", "slow-disk", "bandwidth-cap", "latency");

  public SimBackend() {
    super("sim", "Hadoop's AM on a simulated cluster, virtual time");
  }

  /** Needs nothing of the host; a cluster larger than the simulated address space is refused. */
  @Override
  public List<String> problems(ClusterSpec spec) {
    return spec.nodes() > SimulatedCluster.MAX_NODES ? List.of("cluster.nodes: expected at most "
        + SimulatedCluster.MAX_NODES + " simulated nodes (one address each in 198.18.0.0/15), got " + spec.nodes())
        : List.of();
  }

  @Override
  public String requires(NetworkBackend network) {
    return "nothing";
  }

  @Override
  public Set<Capability> needs(Mechanism mechanism) {
    return Set.of();
  }

  @Override
  public Optional<String> refuses(Mechanism mechanism) {
    return switch (mechanism) {
      case NODE_CLOCK -> Optional.of("the sim backend's nodes share its one virtual clock: none has a clock of its"
          + " own; use cluster.backend \"namespace\"");
      case REORDER -> Optional.of("the sim backend's links add a delay to a transfer and keep no packets to reorder;"
          + " use a backend with netem");
      default -> Optional.empty();
    };
  }

  @Override
  public Optional<String> refusesKind(String kind) {
    return KINDS.contains(kind) ? Optional.empty() : Optional.of("the sim backend has no model of " + kind
        + " faults; it simulates " + String.join(", ", KINDS));
  }

  /** Its containers are placed by a slot allocator of its own, which reads no node labels. */
  @Override
  public Optional<String> refusesPinning() {
    return Optional.of("the sim backend places containers with an allocator of its own, not the ResourceManager's"
        + " scheduler, so it has no node labels to pin parts with; expected no \"pin\" with backend \"sim\"");
  }

  /**
   * What the simulation cannot time or drive: a workload or a set of slowing faults on one node the
   * time model has not fitted, faults on links where the model does not know what a map's output
   * weighs, a speculator other than Hadoop's and faultbed's policies (its thread would run on the
   * wall clock), or several jobs at once.
   */
  @Override
  public Optional<Fault.Unsupported> refusesRun(ClusterSpec spec, Workload workload, Timeline timeline,
      Speculation speculation) {
    TimeModel model;
    try {
      model = SimCluster.model(spec);
    } catch (IllegalArgumentException | UncheckedIOException e) {
      return Optional.of(new Fault.Unsupported("hadoop." + SimCluster.MODEL, e.getMessage()));
    }
    for (String cores : List.of(SimCluster.SHARED_CORES, SimCluster.NODE_CORES)) {
      String value = spec.hadoop().get(cores);
      double parsed = value == null ? 1 : parsePositive(value);
      if (!(parsed > 0 && Double.isFinite(parsed))) {
        return Optional.of(new Fault.Unsupported("hadoop." + cores, "expected a positive number of"
            + " cores, e.g. \"2\", got \"" + value + "\""));
      }
    }
    // the replay settings, each parsed as the cluster will parse it
    java.util.Map<String, Consumer<ClusterSpec>> replays = new java.util.LinkedHashMap<>();
    replays.put(SimCluster.AM_NODES, SimCluster::amNodes);
    replays.put(SimCluster.FAULT_NODES, SimCluster::faultNodes);
    replays.put(SimCluster.LIVENESS_CHECKS, SimCluster::livenessChecks);
    replays.put(SimCluster.SETUPS, SimCluster::setups);
    for (java.util.Map.Entry<String, Consumer<ClusterSpec>> replay : replays.entrySet()) {
      try {
        replay.getValue().accept(spec);
      } catch (IllegalArgumentException e) {
        return Optional.of(new Fault.Unsupported("hadoop." + replay.getKey(), e.getMessage()));
      }
    }
    if (workload.concurrentJobs() > 1) {
      return Optional.of(new Fault.Unsupported("workload.concurrentJobs", "the simulation runs one job at a time;"
          + " expected 1, got " + workload.concurrentJobs()));
    }
    if (!model.workloads().containsKey(workload.type())) {
      return Optional.of(new Fault.Unsupported("workload.type", "the time model \"" + model.name() + "\" knows "
          + new TreeSet<>(model.workloads().keySet()) + ", got \"" + workload.type() + "\"; fit one from runs of it (faultbed sim-model)"));
    }
    java.util.Optional<String> onLinks = timeline.steps().stream().map(s -> s.fault().kind())
        .filter(TimeModel::onLinks).findFirst();
    if (onLinks.isPresent() && model.workload(workload.type()).shuffleBytesPerInputByte() == null) {
      return Optional.of(new Fault.Unsupported("faults", "a " + onLinks.get() + " shapes what crosses a link, and the"
          + " time model \"" + model.name() + "\" does not know how many bytes a " + workload.type() + " map's output"
          + " holds; expected a model fitted from records that carry shuffled bytes (faultbed sim-model"
          + " --shuffle-bytes-from DIR)"));
    }
    if (timeline.steps().stream().anyMatch(s -> s.fault() instanceof SlowDisk)
        && model.workload(workload.type()).disk() == null) {
      return Optional.of(new Fault.Unsupported("faults", "a slow-disk holds a node's disks to a rate, and the time"
          + " model \"" + model.name() + "\" does not know how many bytes a " + workload.type() + " task moves through"
          + " its disk; expected a model fitted from runs with slow-disk faults (faultbed sim-model)"));
    }
    if (speculation.kind().equals("speculator") && !Simulation.drives(speculation.name())) {
      return Optional.of(new Fault.Unsupported("speculation", "the simulation drives Hadoop's DefaultSpeculator and"
          + " faultbed's policies on its virtual clock; a speculator class of its own runs a thread on the wall clock,"
          + " got " + speculation.name()));
    }
    // A model fitted under a condition of the whole cluster holds for a cluster in that condition only
    if (!model.baseline().isEmpty()) {
      List<String> scenario = Baseline.of(spec.nodes(), SimulatedFaults.conditions(timeline));
      if (!scenario.equals(model.baseline())) {
        return Optional.of(new Fault.Unsupported("faults", "the time model \"" + model.name() + "\" was fitted on"
            + " nodes that all had " + model.baseline() + " from start to end, which its work includes; expected"
            + " the same on every node, got " + (scenario.isEmpty() ? "none" : scenario.toString())
            + "; fit a model from runs like these (faultbed sim-model)"));
      }
    }
    Set<Timeline.Step> baseline = SimulatedFaults.baselineSteps(timeline, spec.nodes(), model.baseline());
    // Faults on one node: a chain of steps each aimed at "same" as the one before; faults due together
    // take effect together, so a chain's whole set is what the model must have timed.
    List<Set<String>> chains = new ArrayList<>();
    for (Timeline.Step step : timeline.steps()) {
      if (chains.isEmpty() || !(step.fault().target() instanceof Target.Same)) {
        chains.add(new TreeSet<>());
      }
      if (SimulatedFaults.slowsWork(step.fault()) && SimulatedFaults.beyondCpu(step.fault()) && !baseline.contains(step)
          && !(step.fault() instanceof SlowDisk)) {
        chains.get(chains.size() - 1).add(step.fault().kind());
      }
    }
    for (Set<String> kinds : chains) {
      try {
        if (!kinds.isEmpty()) {
          model.slowdown(kinds);
        }
      } catch (IllegalArgumentException e) {
        return Optional.of(new Fault.Unsupported("faults", e.getMessage().replaceFirst("^faults: ", "")
            + "; fit a model from runs with those faults (faultbed sim-model)"));
      }
    }
    return Optional.empty();
  }

  private static double parsePositive(String number) {
    try {
      return Double.parseDouble(number);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  @Override
  public Optional<String> refusesNetwork(NetworkBackend network) {
    return network.isToxiproxy() ? Optional.of("the sim backend has no network to put Toxiproxy in front of;"
        + " expected \"kernel\" (the default), got \"toxiproxy\"") : Optional.empty();
  }

  @Override
  public boolean boundedByThisHost() {
    return false;
  }

  @Override
  public boolean runsDaemons() {
    return false;
  }

  @Override
  public Cluster start(ClusterSpec spec, Consumer<String> log) {
    return new SimCluster(spec, log);
  }
}
