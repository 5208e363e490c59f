package faultbed.experiments.scenario;

import faultbed.harness.ClusterSpec;
import faultbed.results.RunRecord;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Whether a pilot measured the gate: a pilot variant must be one of the gate scenario's variants
 * (the one with its speculation, the variant under test) in everything else: cluster, time scale,
 * Hadoop settings, workload, faults and job limit, and in the Hadoop settings its records show in
 * force. A pilot that ran otherwise measured another noise than the gate's, and its power figures
 * say nothing about the gate.
 */
public final class PilotOfGate {
  /**
   * The sim backend's label for a variant's own random draws: an A/A pilot on the sim backend gives
   * one of its pair draws of its own, or every difference would be zero; the gate is the same
   * cluster with other draws, so the label is no difference.
   */
  private static final String SIM_STREAM = "faultbed.sim.stream";

  private PilotOfGate() {}

  /**
   * The first difference between pilot variant {@code name} and the gate's variant of the same
   * speculation, as "field: got X, expected Y"; empty when there is none.
   *
   * @param records the pilot's records of that variant (their Hadoop settings in force are checked too)
   */
  public static Optional<String> difference(Scenario pilot, String name, List<RunRecord> records, Scenario gate) {
    Variant p = pilot.variants().stream().filter(v -> v.name().equals(name)).findFirst()
        .orElseThrow(() -> new ScenarioException("variants", "expected a variant " + name));
    Optional<Variant> match = gate.variants().stream().filter(g -> g.speculation().equals(p.speculation())).findFirst();
    if (match.isEmpty()) {
      return Optional.of("speculation: got " + p.speculation().describe() + ", expected one of the gate's "
          + gate.variants().stream().map(g -> g.name() + " " + g.speculation().describe()).toList());
    }
    Variant g = match.get();
    ClusterSpec pc = p.cluster();
    ClusterSpec gc = g.cluster();
    Optional<String> d = first(
        differ("warmup", pilot.warmup(), gate.warmup()),
        differ("cluster.nodes", pc.nodes(), gc.nodes()),
        differ("cluster.nodeMemoryMb", pc.nodeMemoryMb(), gc.nodeMemoryMb()),
        differ("cluster.nodeVcores", pc.nodeVcores(), gc.nodeVcores()),
        differ("cluster.containerMemoryMb", pc.containerMemoryMb(), gc.containerMemoryMb()),
        differ("cluster.timeScale", pc.timeScale(), gc.timeScale()),
        differ("cluster.network", pc.network(), gc.network()),
        differ("pin", p.pinned().stream().map(faultbed.harness.Pin::scenarioName).toList(),
            g.pinned().stream().map(faultbed.harness.Pin::scenarioName).toList()),
        settings("hadoop", pc.hadoop(), gc.hadoop()),
        differ("workload.type", p.workload().type(), g.workload().type()),
        settings("workload", p.workload().parameters(), g.workload().parameters()),
        differ("faults", p.timeline(), g.timeline()),
        differ("jobLimit", p.jobLimit(), g.jobLimit()));
    if (d.isPresent()) {
      return d.map(s -> s + " (the gate's " + g.name() + ")");
    }
    for (RunRecord r : records) {
      for (Map.Entry<String, String> e : gc.hadoop().entrySet()) {
        if (e.getKey().equals(SIM_STREAM)) {
          continue;
        }
        String inForce = r.hadoop() == null ? null : r.hadoop().get(e.getKey());
        if (inForce != null && !inForce.equals(e.getValue())) {
          return Optional.of("hadoop." + e.getKey() + " in force in " + r.runId() + ": got " + inForce + ", expected "
              + e.getValue() + " (the gate's " + g.name() + ")");
        }
      }
    }
    return Optional.empty();
  }

  @SafeVarargs
  private static Optional<String> first(Optional<String>... differences) {
    for (Optional<String> d : differences) {
      if (d.isPresent()) {
        return d;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> differ(String field, Object got, Object expected) {
    return Objects.equals(got, expected) ? Optional.empty()
        : Optional.of(field + ": got " + got + ", expected " + expected);
  }

  private static Optional<String> settings(String prefix, Map<String, String> got, Map<String, String> expected) {
    TreeSet<String> keys = new TreeSet<>(got.keySet());
    keys.addAll(expected.keySet());
    keys.remove(SIM_STREAM);
    for (String k : keys) {
      if (!Objects.equals(got.get(k), expected.get(k))) {
        return Optional.of(prefix + "." + k + ": got " + describe(got.get(k)) + ", expected " + describe(expected.get(k)));
      }
    }
    return Optional.empty();
  }

  private static String describe(String value) {
    return value == null ? "not set" : value;
  }
}
