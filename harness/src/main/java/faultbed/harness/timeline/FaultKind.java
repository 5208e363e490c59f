package faultbed.harness.timeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A fault kind, described once: the name scenario files use, what it does (in a line for the
 * schema and in full for the docs' table), the fields it takes besides {@code kind}, {@code node},
 * {@code at}, {@code for}, {@code spareAm} and {@code spareReducers} with their forms, how long it
 * lasts, how a fault is made from those fields, and examples of it for {@code doctor}. What a fault
 * needs of the host and of the backends is the fault's to say ({@link Fault#needs},
 * {@link Fault#unsupported}), and how it is healed is what its injection returns. The scenario
 * reader, the published schema's fault branches, the docs' fault table and {@code doctor} come
 * from this.
 *
 * @param summary what it does, in the schema's line ("the node's traffic capped")
 * @param docs what it does, as the docs' table says it
 * @param params its own fields, in the order the schema and the docs give them
 * @param anyOf fields of which at least one must be given (empty: no such rule)
 * @param effect what it does to a node, as the analysis reads it from every record's fault
 */
public record FaultKind(String name, String summary, String docs, Lasts lasts, List<Param> params,
    List<String> anyOf, faultbed.results.FaultEffect effect, Maker maker,
    Function<Target, List<FaultKind.Example>> examples) {

  public FaultKind {
    params = List.copyOf(params);
    anyOf = List.copyOf(anyOf);
  }

  /** How long a fault of the kind lasts, and so what a scenario's {@code for} may say. */
  public enum Lasts {
    /** Until the run ends: a {@code for} is refused. */
    UNTIL_RUN_ENDS,
    /** For its {@code for} if given, else until the run ends. */
    FOR_OR_RUN,
    /** For its {@code for}, which must be given. */
    FOR_ONLY
  }

  /** The form of a field's value, as the scenario reader reads it and the schema says it. */
  public enum Form {
    FLAG, COUNT, SIZE, RATE, DURATION, PROBABILITY, CORES,
    /** A signed duration other than zero, such as "+15m" or "-90s". */
    OFFSET,
    /** A number above 0 other than 1: how many times as fast. */
    FACTOR,
    /** One of the param's {@code choices}, as a string. */
    CHOICE,
    /** Indices, such as [2, 3]: of nodes, or of a node's disks. */
    INDICES
  }

  /**
   * One of a kind's own fields.
   *
   * @param note what the schema says of it, or null
   * @param docs how the docs' table gives it, with its default ("`writers` (4)")
   */
  public record Param(String name, Form form, boolean required, String note, String docs, List<String> choices) {
    public Param {
      choices = List.copyOf(choices);
      if ((form == Form.CHOICE) == choices.isEmpty()) {
        throw new IllegalArgumentException(name + ": a choice, and only a choice, names its values");
      }
    }

    public static Param optional(String name, Form form, String docs) {
      return new Param(name, form, false, null, docs, List.of());
    }

    public static Param required(String name, Form form, String docs) {
      return new Param(name, form, true, null, docs, List.of());
    }

    /** A field that must be one of {@code values}. */
    public static Param requiredChoice(String name, List<String> values, String docs) {
      return new Param(name, Form.CHOICE, true, null, docs, values);
    }

    /** A field that may be left out, and otherwise must be one of {@code values}. */
    public static Param optionalChoice(String name, List<String> values, String docs) {
      return new Param(name, Form.CHOICE, false, null, docs, values);
    }

    /** The same with the schema's note. */
    public Param noted(String note) {
      return new Param(name, form, required, note, docs, choices);
    }
  }

  /** A fault of the kind, as {@code doctor} names it in its table. */
  public record Example(String label, Fault fault) {}

  /** Makes a fault of this kind on {@code target}, lasting {@code lasts} (null: until the run ends). */
  @FunctionalInterface
  public interface Maker {
    Fault make(Target target, Duration lasts, FaultParams params);
  }

  /** A kind being described; {@link Builder#made} ends it. */
  public static Builder kind(String name, faultbed.results.FaultEffect effect) {
    return new Builder(name, effect);
  }

  /** The parts of a kind's description, given one at a time so each says what it is. */
  public static final class Builder {
    private final String name;
    private final faultbed.results.FaultEffect effect;
    private String summary;
    private String docs;
    private Lasts lasts = Lasts.FOR_OR_RUN;
    private final List<Param> params = new ArrayList<>();
    private List<String> anyOf = List.of();

    private Builder(String name, faultbed.results.FaultEffect effect) {
      this.name = name;
      this.effect = effect;
    }

    /** What it does, in the schema's line and in the docs' table. */
    public Builder does(String summary, String docs) {
      this.summary = summary;
      this.docs = docs;
      return this;
    }

    public Builder lasts(Lasts lasts) {
      this.lasts = lasts;
      return this;
    }

    public Builder param(Param param) {
      params.add(param);
      return this;
    }

    /** At least one of these fields must be given. */
    public Builder anyOf(String... fields) {
      anyOf = List.of(fields);
      return this;
    }

    public FaultKind made(Maker maker, Function<Target, List<Example>> examples) {
      return new FaultKind(name, summary, docs, lasts, params, anyOf, effect, maker, examples);
    }
  }

  /** The one example, named as the kind. */
  static Function<Target, List<Example>> example(String name, Function<Target, Fault> of) {
    return t -> List.of(new Example(name, of.apply(t)));
  }

  /** A choice field's values, one per constant of {@code choice}: its name in lower case, words joined by "-". */
  public static <E extends Enum<E>> List<String> choices(Class<E> choice) {
    return java.util.Arrays.stream(choice.getEnumConstants()).map(FaultKind::choice).toList();
  }

  /** A constant as a scenario writes it ("application-master"). */
  public static String choice(Enum<?> constant) {
    return constant.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /** The constant of {@code choice} a scenario's value names; the reader has checked it is one. */
  public static <E extends Enum<E>> E chosen(Class<E> choice, String value) {
    return java.util.Arrays.stream(choice.getEnumConstants()).filter(c -> choice(c).equals(value)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("expected one of " + choices(choice) + ", got " + value));
  }

  /** Its own fields' names. */
  public List<String> fields() {
    return params.stream().map(Param::name).toList();
  }

  /** Lasts until the run ends: a {@code for} is refused. */
  public boolean permanent() {
    return lasts == Lasts.UNTIL_RUN_ENDS;
  }

  public Fault make(Target target, Duration lasts, FaultParams params) {
    return maker.make(target, lasts, params);
  }

  /** Every kind, in the order the docs list them. */
  public static List<FaultKind> all() {
    return List.of(NodeCrash.KIND, NodeStop.KIND, RstSuppression.KIND, Blackhole.KIND, BandwidthCap.KIND, Latency.KIND, PacketLoss.KIND,
        PacketDuplication.KIND,
        DiskLoad.KIND, CpuHog.KIND, SlowNode.KIND, MemoryPressure.KIND, Freeze.KIND, Pause.KIND, Partition.KIND,
        DiskFull.KIND, DiskFailure.KIND, SlowDisk.KIND, CorruptReplica.KIND, ClockJump.KIND, ClockDrift.KIND);
  }

  public static Optional<FaultKind> named(String name) {
    return all().stream().filter(k -> k.name.equals(name)).findFirst();
  }

  public static List<String> names() {
    return all().stream().map(FaultKind::name).toList();
  }
}
