package faultbed.experiments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import faultbed.experiments.scenario.Scenario;
import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.harness.timemodel.TimeModel;
import faultbed.results.Distribution;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.compare.SampleSet;
import faultbed.results.compare.SuiteComparison;
import faultbed.results.stats.Analysis;
import faultbed.results.stats.Comparison;
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

  public record VariantRow(String suite, String variant, int realRuns, int simulatedRuns, double realMedianSeconds,
      double simulatedMedianSeconds, double medianErrorPercent, double realP90Seconds, double simulatedP90Seconds,
      double p90ErrorPercent, boolean negativeControl) {}

  public record ComparisonRow(String suite, String variant, String reference, double realRatio, double realLow,
      double realHigh, double realAdjustedP, double simulatedRatio, boolean inside, Boolean directionAgrees,
      boolean negativeControl) {}

  /** A suite the simulation cannot express, and why. */
  public record Skipped(String suite, String why) {}

  public record Result(String machine, List<String> suites, List<Skipped> skipped, List<VariantRow> variants,
      List<ComparisonRow> comparisons, Criteria criteria, Criteria negativeControl) {}

  private final double machineCores;
  private final List<RunRecord> progressOnly;
  private final Path work;
  private final Consumer<String> log;

  /**
   * @param machineCores the cores of the machine the suites' nodes shared
   * @param progressOnly runs of the same machine whose progress clocks give how long a map reports no
   *                     progress, for suites recorded before records carried them (the same for every suite)
   * @param work         where models and simulated records go, a folder per suite
   */
  public SimValidation(double machineCores, List<RunRecord> progressOnly, Path work, Consumer<String> log) {
    this.machineCores = machineCores;
    this.progressOnly = List.copyOf(progressOnly);
    this.work = work;
    this.log = log;
  }

  public Result validate(List<Path> suites) {
    List<String> names = new ArrayList<>();
    List<Skipped> skipped = new ArrayList<>();
    List<VariantRow> variants = new ArrayList<>();
    List<ComparisonRow> comparisons = new ArrayList<>();
    for (Path suite : suites) {
      String name = suite.getFileName().toString();
      try {
        validate(suite, name, variants, comparisons);
        names.add(name);
      } catch (ScenarioException | IllegalArgumentException e) {
        log.accept(name + ": not simulated: " + e.getMessage());
        skipped.add(new Skipped(name, e.getMessage()));
      }
    }
    return new Result(machineCores + " cores shared by every node", names, skipped, variants, comparisons,
        criteria(variants, comparisons, false), criteria(variants, comparisons, true));
  }

  private void validate(Path suite, String name, List<VariantRow> variants, List<ComparisonRow> comparisons) {
    String text = read(suite.resolve(RecordStore.SCENARIO_COPY));
    JsonNode scenario = parseJson(text);
    String reference = fittedVariant(scenario, text, name);
    List<RunRecord> real = new RecordStore(suite).readAll();
    List<RunRecord> fitted = real.stream().filter(r -> r.variant().equals(reference)).toList();
    Path folder = work.resolve(name);
    Path model = folder.resolve("model.json");
    TimeModel.fit(name + "-" + reference, fitted, progressOnly, machineCores).write(model);
    Map<String, Map<String, String>> replayed = replayed(real);
    List<RunRecord> simulated = simulate(simScenario(scenario, model, null, replayed), name, folder.resolve("simulated"));
    List<RunRecord> control = simulate(simScenario(scenario, model, reference, replayed), name + "-control",
        folder.resolve("negative-control"));
    collect(name, reference, real, simulated, false, variants, comparisons);
    collect(name, reference, real, control, true, variants, comparisons);
  }

  /** The variant whose runs the model is fitted to: the named reference, or the one fault-free variant. */
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
   * records that keep it) and which node each fault struck ({@code faultbed.sim.fault-nodes}). Both
   * are the cluster's choices, not the AM's: a fault aimed at a random node sparing the AM struck
   * whichever node the AM was not on, so a simulation that placed its AM elsewhere would crash other
   * nodes than the real runs did.
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
      boolean anyAm = false;
      boolean anyFault = false;
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
      }
      Map<String, String> settings = new java.util.LinkedHashMap<>();
      if (anyAm) {
        settings.put("faultbed.sim.am-nodes", String.join(",", am));
      }
      if (anyFault) {
        settings.put("faultbed.sim.fault-nodes", String.join(",", faults));
      }
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
          r.p90(), s.p90(), percent(s.p90(), r.p90()), control));
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
    double[] seconds = records.stream().filter(r -> r.variant().equals(variant) && r.job() != null
        && r.job().succeeded()).flatMap(r -> r.completionSeconds().stream()).mapToDouble(Double::doubleValue).toArray();
    return seconds.length == 0 ? null : Distribution.of(seconds);
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
