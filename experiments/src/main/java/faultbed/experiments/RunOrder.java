package faultbed.experiments;

import faultbed.experiments.scenario.Scenario;
import faultbed.experiments.scenario.Variant;
import faultbed.harness.ClusterSpec;
import faultbed.results.RunRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The order a suite's runs happen in: randomized complete blocks. Block {@code i} holds run
 * {@code i} of every variant that has one, all with the seed of run {@code i} (so the same fault
 * draw), in an order shuffled by the scenario seed. A machine that drifts (warms up, fills its
 * disk, gets a noisy neighbour) then slows every variant of a block alike, and a comparison of
 * variants within blocks does not mistake the drift for an effect, as it would if each variant
 * ran all its runs before the next one started. Variants that need differently configured
 * clusters run in groups within a block (groups and the variants in each shuffled), so a block
 * restarts the cluster once per configuration, not once per variant.
 *
 * @param runs every run, in the order they happen
 */
public record RunOrder(List<Slot> runs) {
  /** One run: the variant, its run index, and its place in the design. */
  public record Slot(Variant variant, int runIndex, RunRecord.Block block) {
    public String runId() {
      return String.format("%s-%03d", variant.name(), runIndex);
    }
  }

  public RunOrder {
    runs = List.copyOf(runs);
  }

  public static RunOrder of(Scenario scenario) {
    int blocks = scenario.variants().stream().mapToInt(Variant::runs).max().orElse(0);
    List<Slot> out = new ArrayList<>();
    for (int b = 0; b < blocks; b++) {
      int block = b;
      // its own stream per block, so a block's order does not depend on how many blocks came before
      Random random = new Random(scenario.runSeed(b) ^ 0x5DEECE66DL);
      Map<ClusterSpec, List<Variant>> groups = new LinkedHashMap<>();
      scenario.variants().stream().filter(v -> v.runs() > block)
          .forEach(v -> groups.computeIfAbsent(v.cluster(), c -> new ArrayList<>()).add(v));
      List<List<Variant>> order = new ArrayList<>(groups.values());
      Collections.shuffle(order, random);
      List<Variant> in = new ArrayList<>();
      for (List<Variant> group : order) {
        Collections.shuffle(group, random);
        in.addAll(group);
      }
      for (int p = 0; p < in.size(); p++) {
        out.add(new Slot(in.get(p), b, new RunRecord.Block(b, p, in.size())));
      }
    }
    return new RunOrder(out);
  }

  /**
   * Shard {@code index} (from 1) of {@code count}: every count-th whole block, so shards on
   * different machines get the same mix of variants, keep their pairs, and spread over the suite.
   */
  public RunOrder shard(int index, int count) {
    if (count < 1 || index < 1 || index > count) {
      throw new IllegalArgumentException("expected a shard i/N with 1 <= i <= N, got " + index + "/" + count);
    }
    return new RunOrder(runs.stream().filter(s -> s.block().index() % count == index - 1).toList());
  }

  /** How many blocks the runs span (a shard keeps the suite's block numbers). */
  public int blocks() {
    return runs().isEmpty() ? 0 : runs().get(size() - 1).block().index() + 1;
  }

  /** How many times the cluster starts: each time a run needs other cluster settings than the one before. */
  public int clusterStarts() {
    int starts = 0;
    Object current = null;
    for (Slot s : runs) {
      if (!s.variant().cluster().equals(current)) {
        starts++;
        current = s.variant().cluster();
      }
    }
    return starts;
  }

  public int size() {
    return runs.size();
  }
}
