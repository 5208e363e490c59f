package faultbed.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import faultbed.experiments.scenario.Scenario;
import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.harness.timemodel.Machines;
import faultbed.harness.timemodel.TimeModel;
import faultbed.results.Distribution;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.classify.Classification;
import faultbed.results.classify.DinuNgClassifier;
import faultbed.results.classify.DinuNgGroup;
import faultbed.results.compare.SampleSet;
import faultbed.results.compare.SuiteComparison;
import faultbed.results.stats.Analysis;
import faultbed.results.stats.Comparison;
import faultbed.results.stats.Holm;
import faultbed.results.stats.HomogeneityTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Judges the sim backend against suites recorded on real clusters: for each suite, a time model is
 * fitted to its reference variant's runs only (its one fault-free variant's where it names no
 * reference), every variant is simulated with the suite's own
 * scenario (same seeds, faults, settings and blocks), and the simulated suite is read as the real one
 * was: each variant's median and p90 against the real ones, each comparison with the reference (the
 * Hodges-Lehmann ratio) against the real ratio's 95 % interval and direction. A negative control
 * simulates every variant with the reference's speculation and settings, so the variants differ in nothing the
 * simulation sees: criteria that it also passes would not be evidence.
 */
public final class SimValidation {
  private static final ObjectMapper JSON = RecordStore.json();

  /**
   * The criteria the issue sets: at least 80 % of variants within 10 % on the median, at least 80 %
   * of comparisons with the simulated ratio inside the real 95 % interval, and every comparison
   * significant on the real cluster in the same direction.
   */
  public record Criteria(double medianErrorShare, double insideShare, boolean directionsAgree, boolean met) {}

  /**
   * @param perfectWithinChance the chance that a simulation drawing this variant's runs from the real
   *     runs' own distribution would put its median within 10 % of the real one ({@link Ceiling})
   */
  public record VariantRow(String suite, String variant, int realRuns, int simulatedRuns, double realMedianSeconds,
      double simulatedMedianSeconds, double medianErrorPercent, double realP90Seconds, double simulatedP90Seconds,
      double p90ErrorPercent, double perfectWithinChance, boolean negativeControl) {}

  /**
   * What the median-error criterion asks of a simulation that is exactly right but for chance: one that
   * drew each variant's runs, as many as the real variant has, from the real runs' own distribution.
   * Each variant's chance to land within 10 % is read from {@value #RESAMPLES} pairs of bootstrap
   * resamples of its real runs (the median of one against the other's); the count of variants within
   * 10 % is then a sum of independent draws of those chances (Poisson-binomial, exact by convolution).
   * With five to ten runs a variant the real medians themselves move by about 10 %, so a variant with
   * a wide spread (a crash that is lost work in some runs and nothing in others) is a coin toss even
   * for a perfect simulation.
   *
   * @param expectedShare the share of variants such a simulation is expected to place within 10 %
   * @param chanceToMeetCriterion the chance its share reaches the criterion's 80 %
   * @param chanceOfObservedOrLower the chance its share is at most the simulation's: small when the
   *     simulation misses more than chance explains
   */
  public record Ceiling(double expectedShare, double chanceToMeetCriterion, double chanceOfObservedOrLower,
      int resamples) {}

  static final int RESAMPLES = 4_000;

  public record ComparisonRow(String suite, String variant, String reference, double realRatio, double realLow,
      double realHigh, double realAdjustedP, double simulatedRatio, boolean inside, Boolean directionAgrees,
      boolean negativeControl) {}

  /**
   * One variant's Dinu-Ng groups, real against simulated: how many runs each classified into each
   * group (both classified by the same {@link DinuNgClassifier}), how far apart the shares are (total
   * variation, 0 to 1) and whether they could be one distribution ({@link HomogeneityTest}'s
   * permutation p, and Holm's over the suite's variants).
   */
  public record GroupRow(String suite, String variant, Map<String, Integer> real, Map<String, Integer> simulated,
      double totalVariation, double pValue, double holmPValue, boolean negativeControl) {}

  /**
   * How the variants' group shares compare where the suites took nodes down: the share of variants
   * whose real and simulated shares are within 0.25 of each other in total variation, and the share
   * not told apart at 5 % (Holm over each suite's variants). Reported beside the criteria, not one of
   * them: the issue sets no bound for groups. NaN where no suite took a node down.
   */
  public record GroupAgreement(int variants, double closeShare, double notRejectedShare) {}

  /** A suite the simulation cannot express, and why. */
  public record Skipped(String suite, String why) {}

  public record Result(String machine, List<String> suites, List<Skipped> skipped, List<VariantRow> variants,
      List<ComparisonRow> comparisons, List<GroupRow> groups, Criteria criteria, Criteria negativeControl,
      Ceiling perfectSimulation, GroupAgreement groupAgreement, GroupAgreement negativeControlGroupAgreement) {}

  private final double machineCores;
  private final List<RunRecord> progressOnly;
  private final List<RunRecord> shuffleBytesOnly;
  private final List<RunRecord> diskOnly;
  private final Path work;
  private final Consumer<String> log;
  private final TimeModel given;

  /**
   * @param machineCores the cores of the machine the suites' nodes shared
   * @param progressOnly runs of the same machine whose progress clocks give how long a map reports no
   *                     progress, for suites recorded before records carried them (the same for every suite)
   * @param shuffleBytesOnly runs whose records carry shuffled bytes, for a workload's shuffle bytes per
   *                     input byte, for suites recorded before records carried them
   * @param work         where models and simulated records go, a folder per suite
   */
  public SimValidation(double machineCores, List<RunRecord> progressOnly, List<RunRecord> shuffleBytesOnly, Path work,
      Consumer<String> log) {
    this(machineCores, progressOnly, shuffleBytesOnly, List.of(), work, log, null);
  }

  /**
   * The same, with {@code diskOnly}: runs of the same machine whose disks a slow-disk held to a rate,
   * for what a workload's tasks move through a disk; and every suite simulated with {@code given}
   * rather than a model fitted to its reference, when not null: a prediction from other runs.
   */
  public SimValidation(double machineCores, List<RunRecord> progressOnly, List<RunRecord> shuffleBytesOnly,
      List<RunRecord> diskOnly, Path work, Consumer<String> log, TimeModel given) {
    this.given = given;
    this.diskOnly = List.copyOf(diskOnly);
    this.machineCores = machineCores;
    this.progressOnly = List.copyOf(progressOnly);
    this.shuffleBytesOnly = List.copyOf(shuffleBytesOnly);
    this.work = work;
    this.log = log;
  }

  public Result validate(List<Path> suites) {
    List<String> names = new ArrayList<>();
    List<Skipped> skipped = new ArrayList<>();
    List<VariantRow> variants = new ArrayList<>();
    List<ComparisonRow> comparisons = new ArrayList<>();
    List<GroupRow> groups = new ArrayList<>();
    for (Path suite : suites) {
      String name = suite.getFileName().toString();
      try {
        validate(suite, name, variants, comparisons, groups);
        names.add(name);
      } catch (ScenarioException | IllegalArgumentException e) {
        log.accept(name + ": not simulated: " + e.getMessage());
        skipped.add(new Skipped(name, e.getMessage()));
      }
    }
    return new Result(machineCores + " cores shared by every node", names, skipped, variants, comparisons, groups,
        criteria(variants, comparisons, false), criteria(variants, comparisons, true), ceiling(variants),
        agreement(groups, false),
        agreement(groups, true));
  }

  private void validate(Path suite, String name, List<VariantRow> variants, List<ComparisonRow> comparisons,
      List<GroupRow> groups) {
    String text = read(suite.resolve(RecordStore.SCENARIO_COPY));
    JsonNode scenario = parseJson(text);
    String reference = fittedVariant(scenario, text, name);
    List<String> fittedVariants = fittedVariants(text, name, reference);
    List<RunRecord> real = new RecordStore(suite).readAll();
    List<RunRecord> fitted = real.stream().filter(r -> fittedVariants.contains(r.variant())).toList();
    Path folder = work.resolve(name);
    Path model = folder.resolve("model.json");
    (given != null ? given : TimeModel.fit(name + "-" + String.join("+", fittedVariants), fitted, progressOnly,
        shuffleBytesOnly, diskOnly, Machines.shared(machineCores))).write(model);
    Map<String, Map<String, String>> replayed = replayed(real);
    List<RunRecord> simulated = simulate(simScenario(scenario, model, null, replayed), name, folder.resolve("simulated"));
    List<RunRecord> control = simulate(simScenario(scenario, model, reference, replayed), name + "-control",
        folder.resolve("negative-control"));
    collect(name, reference, real, simulated, false, variants, comparisons);
    collect(name, reference, real, control, true, variants, comparisons);
    List<Classification> realGroups = DinuNgClassifier.classifyAll(real);
    groups.addAll(groups(name, realGroups, DinuNgClassifier.classifyAll(simulated), false));
    groups.addAll(groups(name, realGroups, DinuNgClassifier.classifyAll(control), true));
  }

  /** Per variant whose real runs took a node down: its groups, real against simulated. */
  static List<GroupRow> groups(String suite, List<Classification> real, List<Classification> simulated,
      boolean control) {
    Map<String, Map<String, Integer>> realCounts = groupCounts(real);
    Map<String, Map<String, Integer>> simCounts = groupCounts(simulated);
    List<String> order = java.util.Arrays.stream(DinuNgGroup.values()).filter(DinuNgGroup::isNodeFailure)
        .map(SimValidation::compared).distinct().toList();
    List<String> names = new ArrayList<>();
    List<HomogeneityTest> tests = new ArrayList<>();
    realCounts.forEach((variant, r) -> {
      Map<String, Integer> sim = simCounts.getOrDefault(variant, Map.of());
      long[] first = order.stream().mapToLong(g -> r.getOrDefault(g, 0)).toArray();
      long[] second = order.stream().mapToLong(g -> sim.getOrDefault(g, 0)).toArray();
      names.add(variant);
      tests.add(HomogeneityTest.of(first, second, (suite + "/" + variant).hashCode()));
    });
    double[] holm = Holm.adjust(tests.stream().mapToDouble(HomogeneityTest::pValue).toArray());
    List<GroupRow> rows = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      String variant = names.get(i);
      rows.add(new GroupRow(suite, variant, realCounts.get(variant), simCounts.getOrDefault(variant, Map.of()),
          tests.get(i).totalVariation(), tests.get(i).pValue(), holm[i], control));
    }
    return rows;
  }

  /**
   * The group a run is compared in: G1 and G2 as one, "G1/G2". Both are recoveries at node expiry; which
   * of the two depends on where the failure fell on the liveness grid against the suite's fault-free
   * job end, which the classifier reads off the suite's fault-free (or G7) runs and, without any, by a
   * rule of its own (detection longer than the expiry is G2): a simulated suite with no G7 run would
   * be placed by the rule where the real one was placed by its runs. The job times compare the rest.
   */
  static String compared(DinuNgGroup group) {
    return group == DinuNgGroup.G1 || group == DinuNgGroup.G2 ? "G1/G2" : group.label();
  }

  /** Variant to compared group to runs, for the runs a node failure was classified in, groups in their order. */
  private static Map<String, Map<String, Integer>> groupCounts(List<Classification> runs) {
    Map<String, Map<String, Integer>> counts = new java.util.TreeMap<>();
    for (Classification c : runs) {
      if (c.group().isNodeFailure()) {
        counts.computeIfAbsent(c.variant(), v -> new java.util.LinkedHashMap<>()).merge(compared(c.group()), 1, Integer::sum);
      }
    }
    counts.replaceAll((v, m) -> {
      Map<String, Integer> ordered = new java.util.LinkedHashMap<>();
      for (DinuNgGroup g : DinuNgGroup.values()) {
        if (m.containsKey(compared(g))) {
          ordered.put(compared(g), m.get(compared(g)));
        }
      }
      return ordered;
    });
    return counts;
  }

  private static GroupAgreement agreement(List<GroupRow> groups, boolean control) {
    List<GroupRow> rows = groups.stream().filter(g -> g.negativeControl() == control && !Double.isNaN(g.pValue()))
        .toList();
    if (rows.isEmpty()) {
      return new GroupAgreement(0, Double.NaN, Double.NaN);
    }
    return new GroupAgreement(rows.size(),
        rows.stream().filter(g -> g.totalVariation() <= 0.25).count() / (double) rows.size(),
        rows.stream().filter(g -> g.holmPValue() >= 0.05).count() / (double) rows.size());
  }

  /** The variant whose runs the model is fitted to: the named reference, or the one fault-free variant. */
  /**
   * The variants a suite's model is fitted to: its reference; and where every fault of the reference
   * shapes a link, its fault-free variants too. The simulation times what crosses a shaped link from
   * the fault's own rate and delay, so such a reference teaches the model nothing of them, while its
   * copies hide every reduce's own times (each reduce copies across the shaped links).
   */
  private static List<String> fittedVariants(String text, String name, String reference) {
    List<faultbed.experiments.scenario.Variant> all = ScenarioParser.parse(text, name).variants();
    faultbed.experiments.scenario.Variant ref = all.stream().filter(v -> v.name().equals(reference)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("reference: expected one of the scenario's variants, got "
            + reference));
    List<String> out = new ArrayList<>(List.of(reference));
    boolean onLinks = !ref.timeline().steps().isEmpty()
        && ref.timeline().steps().stream().allMatch(s -> TimeModel.onLinks(s.fault().kind()));
    if (onLinks) {
      all.stream().filter(v -> v.timeline().steps().isEmpty()).map(faultbed.experiments.scenario.Variant::name)
          .forEach(out::add);
    }
    return out;
  }

  private static String fittedVariant(JsonNode scenario, String text, String name) {
    String reference = scenario.path("reference").asText(null);
    if (reference != null) {
      return reference;
    }
    List<String> faultFree = ScenarioParser.parse(text, name).variants().stream()
        .filter(v -> v.timeline().steps().isEmpty()).map(faultbed.experiments.scenario.Variant::name).toList();
    if (faultFree.size() != 1) {
      throw new IllegalArgumentException("the scenario names no reference variant to fit the model to, and has "
          + faultFree.size() + " fault-free variants " + faultFree + " where one would do");
    }
    return faultFree.get(0);
  }

  /**
   * What each real run's cluster decided that the simulation must replay, per variant, as the sim
   * backend's settings: where the ResourceManager put the AM ({@code faultbed.sim.am-nodes}, from
   * records that keep it), which node each fault struck ({@code faultbed.sim.fault-nodes}) and when
   * the ResourceManager's liveness monitor checked (a node's LOST time, {@code
   * faultbed.sim.liveness-checks}). All are the cluster's, not the AM's: a fault aimed at a random
   * node sparing the AM struck whichever node the AM was not on, so a simulation that placed its AM
   * elsewhere would crash other nodes than the real runs did; and the monitor's grid runs from the
   * ResourceManager's start, so where a failure falls on it (Dinu and Ng's G1 or G2, a check
   * interval apart) is the cluster's draw, not the job's.
   */
  static Map<String, Map<String, String>> replayed(List<RunRecord> real) {
    Map<String, java.util.TreeMap<Integer, RunRecord>> byVariant = new java.util.TreeMap<>();
    for (RunRecord r : real) {
      if (r.runIndex() >= 0) {
        byVariant.computeIfAbsent(r.variant(), v -> new java.util.TreeMap<>()).put(r.runIndex(), r);
      }
    }
    Map<String, Map<String, String>> out = new java.util.LinkedHashMap<>();
    byVariant.forEach((variant, runs) -> {
      List<String> am = new ArrayList<>();
      List<String> faults = new ArrayList<>();
      List<String> checks = new ArrayList<>();
      List<String> setups = new ArrayList<>();
      boolean anyAm = false;
      boolean anyFault = false;
      boolean anyCheck = false;
      for (int i = 0; i <= runs.lastKey(); i++) {
        RunRecord r = runs.get(i);
        Integer amNode = r == null || r.amAttempts() == null || r.amAttempts().isEmpty() ? null
            : r.amAttempts().get(0).node();
        anyAm |= amNode != null;
        am.add(amNode == null ? "-" : amNode.toString());
        List<String> struck = new ArrayList<>();
        for (RunRecord.FaultEvent f : r == null ? List.<RunRecord.FaultEvent>of() : r.faults()) {
          anyFault |= f.node() >= 0;
          struck.add(f.node() < 0 ? "-" : Integer.toString(f.node()));
        }
        faults.add(struck.isEmpty() ? "-" : String.join("/", struck));
        Long lost = r == null ? null : r.nodeTransitions().stream().filter(t -> t.to().equals("LOST") && t.atMs() >= 0)
            .map(RunRecord.NodeTransition::atMs).findFirst().orElse(null);
        anyCheck |= lost != null;
        checks.add(lost == null ? "-" : lost.toString());
        Long setup = r == null ? null : r.attempts().stream().map(RunRecord.AttemptRecord::startMs)
            .filter(java.util.Objects::nonNull).min(Long::compare).orElse(null);
        setups.add(setup == null ? "-" : setup.toString());
      }
      Map<String, String> settings = new java.util.LinkedHashMap<>();
      if (anyAm) {
        settings.put("faultbed.sim.am-nodes", String.join(",", am));
      }
      if (anyFault) {
        settings.put("faultbed.sim.fault-nodes", String.join(",", faults));
      }
      if (anyCheck) {
        settings.put("faultbed.sim.liveness-checks", String.join(",", checks));
      }
      settings.put("faultbed.sim.setups", String.join(",", setups));
      out.put(variant, settings);
    });
    return out;
  }

  /**
   * The suite's scenario on the sim backend: the fitted model, every node on one machine of the
   * machine's cores, each run's AM and faults where the real run had them, no warm-up (nothing to warm); with
   * {@code sameAs}, every variant speculates and is set as that one is.
   */
  private ObjectNode simScenario(JsonNode original, Path model, String sameAs, Map<String, Map<String, String>> replayed) {
    ObjectNode s = original.deepCopy();
    ObjectNode cluster = s.has("cluster") ? (ObjectNode) s.get("cluster") : s.putObject("cluster");
    cluster.put("backend", "sim");
    ObjectNode hadoop = s.has("hadoop") ? (ObjectNode) s.get("hadoop") : s.putObject("hadoop");
    hadoop.put("faultbed.sim.model", model.toAbsolutePath().toString());
    hadoop.put("faultbed.sim.shared-cores", Double.toString(machineCores));
    s.put("warmup", 0);
    for (Iterator<Map.Entry<String, JsonNode>> it = s.path("variants").fields(); it.hasNext(); ) {
      JsonNode v = it.next().getValue();
      if (v.has("cluster")) {
        ((ObjectNode) v.get("cluster")).put("backend", "sim");
      }
    }
    if (sameAs != null && s.has("variants")) {
      // every variant as the reference in what a variant tunes (speculation, settings); its faults its own
      JsonNode reference = s.path("variants").path(sameAs);
      for (Iterator<Map.Entry<String, JsonNode>> it = s.get("variants").fields(); it.hasNext(); ) {
        ObjectNode v = (ObjectNode) it.next().getValue();
        for (String field : List.of("speculation", "hadoop")) {
          if (reference.has(field)) {
            v.set(field, reference.get(field).deepCopy());
          } else {
            v.remove(field);
          }
        }
      }
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = s.path("variants").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> v = it.next();
      Map<String, String> settings = replayed.getOrDefault(v.getKey(), Map.of());
      if (!settings.isEmpty()) {
        ObjectNode variant = (ObjectNode) v.getValue();
        ObjectNode own = variant.has("hadoop") ? (ObjectNode) variant.get("hadoop") : variant.putObject("hadoop");
        settings.forEach(own::put);
      }
    }
    return s;
  }

  private List<RunRecord> simulate(ObjectNode scenarioJson, String name, Path out) {
    Scenario scenario = ScenarioParser.parse(scenarioJson.toString(), name);
    try {
      Files.createDirectories(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    log.accept(name + ": simulating " + scenario.variants().size() + " variants");
    new SuiteRunner(scenario, new RecordStore(out), new SuiteRunner.Progress() { }).run();
    return new RecordStore(out).readAll();
  }

  private static void collect(String suite, String reference, List<RunRecord> real, List<RunRecord> simulated,
      boolean control, List<VariantRow> variants, List<ComparisonRow> comparisons) {
    SampleSet realSet = SampleSet.fromRecords(suite, null, real);
    SampleSet simSet = SampleSet.fromRecords(suite + " simulated", null, simulated);
    for (String v : realSet.variantNames()) {
      Distribution r = times(real, v);
      Distribution s = times(simulated, v);
      if (r == null || s == null) {
        continue;
      }
      variants.add(new VariantRow(suite, v, r.n(), s.n(), r.median(), s.median(), percent(s.median(), r.median()),
          r.p90(), s.p90(), percent(s.p90(), r.p90()), perfectWithinChance(seconds(real, v), suite + "/" + v), control));
    }
    SuiteComparison realCmp = SuiteComparison.allAgainst(realSet, reference, realSet, Analysis.DEFAULT);
    SuiteComparison simCmp = SuiteComparison.allAgainst(simSet, reference, simSet, Analysis.DEFAULT);
    for (int i = 0; i < realCmp.comparisons().size(); i++) {
      Comparison rc = realCmp.comparisons().get(i);
      String variant = realCmp.pairs().get(i).candidateVariant();
      Comparison sc = null;
      for (int j = 0; j < simCmp.comparisons().size(); j++) {
        if (simCmp.pairs().get(j).candidateVariant().equals(variant)) {
          sc = simCmp.comparisons().get(j);
        }
      }
      if (sc == null || rc.shift() == null || sc.shift() == null) {
        continue;
      }
      double realRatio = rc.shift().ratio();
      double simRatio = sc.shift().ratio();
      boolean significant = rc.adjustedPValue() < 0.05;
      comparisons.add(new ComparisonRow(suite, variant, reference, realRatio, rc.shift().interval().low(),
          rc.shift().interval().high(), rc.adjustedPValue(), simRatio,
          simRatio >= rc.shift().interval().low() && simRatio <= rc.shift().interval().high(),
          significant ? Math.signum(Math.log(realRatio)) == Math.signum(Math.log(simRatio)) : null, control));
    }
  }

  private static Criteria criteria(List<VariantRow> variants, List<ComparisonRow> comparisons, boolean control) {
    List<VariantRow> vs = variants.stream().filter(v -> v.negativeControl() == control).toList();
    List<ComparisonRow> cs = comparisons.stream().filter(c -> c.negativeControl() == control).toList();
    double within = vs.isEmpty() ? 0 : vs.stream().filter(v -> Math.abs(v.medianErrorPercent()) <= 10).count()
        / (double) vs.size();
    double inside = cs.isEmpty() ? 0 : cs.stream().filter(ComparisonRow::inside).count() / (double) cs.size();
    boolean directions = cs.stream().allMatch(c -> c.directionAgrees() == null || c.directionAgrees());
    return new Criteria(within, inside, directions, within >= 0.8 && inside >= 0.8 && directions);
  }

  private static Distribution times(List<RunRecord> records, String variant) {
    double[] seconds = seconds(records, variant);
    return seconds.length == 0 ? null : Distribution.of(seconds);
  }

  private static double[] seconds(List<RunRecord> records, String variant) {
    return records.stream().filter(r -> r.variant().equals(variant) && r.job() != null
        && r.job().succeeded()).flatMap(r -> r.completionSeconds().stream()).mapToDouble(Double::doubleValue).toArray();
  }

  /** The chance that the medians of two resamples of {@code real}, each of its size, are within 10 %. */
  static double perfectWithinChance(double[] real, String key) {
    java.util.SplittableRandom random = new java.util.SplittableRandom(key.hashCode());
    double[] a = new double[real.length];
    double[] b = new double[real.length];
    int within = 0;
    for (int i = 0; i < RESAMPLES; i++) {
      for (int j = 0; j < real.length; j++) {
        a[j] = real[random.nextInt(real.length)];
        b[j] = real[random.nextInt(real.length)];
      }
      double realMedian = Distribution.quantile(a, 50);
      if (Math.abs(percent(Distribution.quantile(b, 50), realMedian)) <= 10) {
        within++;
      }
    }
    return within / (double) RESAMPLES;
  }

  /** The median-error criterion for a simulation right but for chance, against the simulation's own share. */
  static Ceiling ceiling(List<VariantRow> variants) {
    List<VariantRow> rows = variants.stream().filter(v -> !v.negativeControl()).toList();
    // Poisson-binomial: count[k] is the chance that k of the variants so far land within 10 %
    double[] count = {1};
    for (VariantRow v : rows) {
      double p = v.perfectWithinChance();
      double[] next = new double[count.length + 1];
      for (int k = 0; k < count.length; k++) {
        next[k] += count[k] * (1 - p);
        next[k + 1] += count[k] * p;
      }
      count = next;
    }
    int n = rows.size();
    int needed = (int) Math.ceil(0.8 * n - 1e-9);
    int observed = (int) rows.stream().filter(v -> Math.abs(v.medianErrorPercent()) <= 10).count();
    double meet = 0;
    double orLower = 0;
    for (int k = 0; k <= n; k++) {
      meet += k >= needed ? count[k] : 0;
      orLower += k <= observed ? count[k] : 0;
    }
    double expected = n == 0 ? Double.NaN : rows.stream().mapToDouble(VariantRow::perfectWithinChance).sum() / n;
    return new Ceiling(expected, Math.min(1, meet), Math.min(1, orLower), RESAMPLES);
  }

  private static double percent(double simulated, double real) {
    return 100 * (simulated - real) / real;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("expected the suite's scenario copy " + file + ": " + e.getMessage());
    }
  }

  private static JsonNode parseJson(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new IllegalArgumentException("its scenario copy is not JSON: " + e.getMessage());
    }
  }

  public void write(Result result, Path file) {
    try {
      JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), result);
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + file, e);
    }
  }
}
