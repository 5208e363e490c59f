package faultbed.harness.timeline;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A fault kind, described once: the name scenario files use, the fields it takes besides
 * {@code kind}, {@code node}, {@code at}, {@code for} and {@code spareAm}, whether it lasts until
 * the run ends, how a fault is made from those fields, and examples of it for {@code doctor}. What
 * a fault needs of the host and of the backends is the fault's to say ({@link Fault#needs},
 * {@link Fault#unsupported}), and how it is healed is what its injection returns. The scenario
 * reader, the scenario schema's test, the docs' test and {@code doctor} read this.
 *
 * @param permanent lasts until the run ends: a {@code for} is refused
 * @param effect what it does to a node, as the analysis reads it from every record's fault
 */
public record FaultKind(String name, List<String> fields, boolean permanent, faultbed.results.FaultEffect effect,
    Maker maker,
    Function<Target, List<FaultKind.Example>> examples) {

  /** A fault of the kind, as {@code doctor} names it in its table. */
  public record Example(String label, Fault fault) {}

  /** Makes a fault of this kind on {@code target}, lasting {@code lasts} (null: until the run ends). */
  @FunctionalInterface
  public interface Maker {
    Fault make(Target target, Duration lasts, FaultParams params);
  }

  /** The one example, named as the kind. */
  static Function<Target, List<Example>> example(String name, Function<Target, Fault> of) {
    return t -> List.of(new Example(name, of.apply(t)));
  }

  public Fault make(Target target, Duration lasts, FaultParams params) {
    return maker.make(target, lasts, params);
  }

  /** Every kind, in the order the docs list them. */
  public static List<FaultKind> all() {
    return List.of(NodeCrash.KIND, NodeStop.KIND, RstSuppression.KIND, Blackhole.KIND, BandwidthCap.KIND, Latency.KIND, PacketLoss.KIND,
        DiskLoad.KIND, CpuHog.KIND, SlowNode.KIND, Freeze.KIND);
  }

  public static Optional<FaultKind> named(String name) {
    return all().stream().filter(k -> k.name.equals(name)).findFirst();
  }

  public static List<String> names() {
    return all().stream().map(FaultKind::name).toList();
  }
}
