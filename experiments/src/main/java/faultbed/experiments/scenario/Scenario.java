package faultbed.experiments.scenario;

import faultbed.harness.ClusterSpec;
import faultbed.harness.Speculation;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.workload.Workload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

/**
 * An experiment: variants of (cluster, workload, fault timeline) each run a number of times with
 * seeds derived from one scenario seed. Scenario files and {@link #builder(String)} produce the
 * same value.
 */
public record Scenario(String name, String description, long seed, int warmup, List<Variant> variants) {
  public Scenario {
    variants = List.copyOf(variants);
    if (warmup < 0) {
      throw new ScenarioException("warmup", "expected 0 or more, got " + warmup);
    }
    if (variants.isEmpty()) {
      throw new ScenarioException("variants", "expected at least one variant");
    }
  }

  /** Unrecorded fault-free runs after each cluster start: the first job on a fresh cluster is slower. */
  public int warmupRuns() {
    return warmup;
  }

  /**
   * The seed of run {@code index}: the same in every variant, so variants are compared on the
   * same fault times and targets.
   */
  public long runSeed(int index) {
    return new SplittableRandom(seed + 0x9E3779B97F4A7C15L * (index + 1)).nextLong();
  }

  public int totalRuns() {
    return variants.stream().mapToInt(Variant::runs).sum();
  }

  /** Every variant run {@code n} times instead (the CLI's --runs). */
  public Scenario withRuns(int n) {
    return new Scenario(name, description, seed, warmup, variants.stream().map(v -> v.withRuns(n)).toList());
  }

  /** The same experiment with every variant's nodes on backend {@code b}. */
  public Scenario withBackend(faultbed.harness.Backend b) {
    return new Scenario(name, description, seed, warmup, variants.stream().map(v -> v.withBackend(b)).toList());
  }

  /** The same experiment on the cluster {@code inventory} names (the remote backend). */
  public Scenario withInventory(faultbed.harness.Inventory inventory) {
    return new Scenario(name, description, seed, warmup, variants.stream().map(v -> v.withInventory(inventory)).toList());
  }

  /** Every variant with {@code settings} added to its Hadoop configuration, over the scenario's own (the CLI's -D). */
  public Scenario withHadoop(Map<String, String> settings) {
    return new Scenario(name, description, seed, warmup, variants.stream().map(v -> v.withHadoop(settings)).toList());
  }

  /** Only the named variants, in the scenario's order (the CLI's --variant); an unknown name is bad input. */
  public Scenario onlyVariants(java.util.Collection<String> names) {
    List<String> known = variants.stream().map(Variant::name).toList();
    for (String n : names) {
      if (!known.contains(n)) {
        throw new ScenarioException("--variant", "expected one of " + known + ", got \"" + n + "\"");
      }
    }
    return new Scenario(name, description, seed, warmup, variants.stream().filter(v -> names.contains(v.name())).toList());
  }

  public Scenario withSeed(long s) {
    return new Scenario(name, description, s, warmup, variants);
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Builds scenarios in code: defaults first, then variants that change some of them. */
  public static final class Builder {
    private final String name;
    private String description = "";
    private ClusterSpec cluster = ClusterSpec.defaults();
    private Workload workload;
    private Timeline timeline = Timeline.none();
    private int runs = 1;
    private long seed = 1;
    private int warmup;
    private Speculation speculation = Speculation.off();
    private java.util.Set<faultbed.harness.Pin> pinned = java.util.Set.of();
    private final Map<String, UnaryOperator<VariantBuilder>> variants = new LinkedHashMap<>();

    private Builder(String name) {
      this.name = name;
    }

    public Builder description(String d) {
      this.description = d;
      return this;
    }

    public Builder cluster(ClusterSpec c) {
      this.cluster = c;
      return this;
    }

    public Builder workload(Workload w) {
      this.workload = w;
      return this;
    }

    public Builder timeline(Timeline t) {
      this.timeline = t;
      return this;
    }

    public Builder runs(int n) {
      this.runs = n;
      return this;
    }

    /** The speculator every variant uses unless it says otherwise (default: off). */
    public Builder speculation(Speculation s) {
      this.speculation = s;
      return this;
    }

    public Builder seed(long s) {
      this.seed = s;
      return this;
    }

    /** The parts of every job pinned to nodes chosen per block (see {@link faultbed.harness.Pin}) unless a variant says otherwise. */
    public Builder pin(faultbed.harness.Pin... parts) {
      this.pinned = java.util.Set.of(parts);
      return this;
    }

    /** Unrecorded fault-free runs after each cluster start, as JMH warms up before measuring. */
    public Builder warmup(int n) {
      this.warmup = n;
      return this;
    }

    /** A variant that starts from the scenario's defaults and changes what {@code change} sets. */
    public Builder variant(String variantName, UnaryOperator<VariantBuilder> change) {
      variants.put(variantName, change);
      return this;
    }

    public Scenario build() {
      if (workload == null) {
        throw new ScenarioException("workload", "expected a workload");
      }
      List<Variant> out = new ArrayList<>();
      if (variants.isEmpty()) {
        out.add(new Variant("default", cluster, workload, timeline, runs, speculation, null, pinned));
      }
      variants.forEach((n, change) -> out.add(change.apply(new VariantBuilder(n, cluster, workload,
          timeline, runs, speculation, pinned)).build()));
      return new Scenario(name, description, seed, warmup, out);
    }
  }

  /** The mutable form of a variant while a builder changes it. */
  public static final class VariantBuilder {
    private final String name;
    private ClusterSpec cluster;
    private Workload workload;
    private Timeline timeline;
    private int runs;
    private Speculation speculation;
    private java.util.Set<faultbed.harness.Pin> pinned;

    VariantBuilder(String name, ClusterSpec cluster, Workload workload, Timeline timeline, int runs,
        Speculation speculation, java.util.Set<faultbed.harness.Pin> pinned) {
      this.speculation = speculation;
      this.pinned = pinned;
      this.name = name;
      this.cluster = cluster;
      this.workload = workload;
      this.timeline = timeline;
      this.runs = runs;
    }

    public VariantBuilder cluster(ClusterSpec c) {
      this.cluster = c;
      return this;
    }

    public VariantBuilder hadoop(String key, String value) {
      this.cluster = cluster.withHadoop(key, value);
      return this;
    }

    public VariantBuilder workload(Workload w) {
      this.workload = w;
      return this;
    }

    public VariantBuilder timeline(Timeline t) {
      this.timeline = t;
      return this;
    }

    public VariantBuilder addFaults(Timeline t) {
      this.timeline = timeline.plus(t);
      return this;
    }

    public VariantBuilder runs(int n) {
      this.runs = n;
      return this;
    }

    public VariantBuilder speculation(Speculation s) {
      this.speculation = s;
      return this;
    }

    public VariantBuilder pin(faultbed.harness.Pin... parts) {
      this.pinned = java.util.Set.of(parts);
      return this;
    }

    Variant build() {
      return new Variant(name, cluster, workload, timeline, runs, speculation, null, pinned);
    }
  }
}
