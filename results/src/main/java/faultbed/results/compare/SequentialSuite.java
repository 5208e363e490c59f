package faultbed.results.compare;

import com.fasterxml.jackson.databind.JsonNode;
import faultbed.results.InvalidField;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.stats.Format;
import faultbed.results.stats.SequentialDesign;
import faultbed.results.stats.SequentialGate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A suite that stops when its verdict is decided: the scenario's {@code "sequential"} field, one
 * rule for the runner that stops it and for compare, which judges it again from its records.
 *
 * <pre>
 * "reference": "reference",
 * "runs": 80,
 * "sequential": { "blocks": 80, "looks": 16, "spending": "obrien-fleming", "alpha": 0.05, "maxRegression": 0 }
 * </pre>
 *
 * {@code blocks} is N, the most the suite runs (it must equal the scenario's blocks, so a changed
 * {@code runs} cannot silently change the design); {@code looks} a look every so many blocks, or
 * the list of block counts to look at. Every variant but the reference is gated against it by a
 * {@link SequentialGate} at alpha / (number of candidates), Bonferroni, so that the chance of any
 * false WORSE in the suite stays at most alpha / 2 (each gate's own bound); the suite stops at the
 * first look where every candidate's gate has ended. Blocks are paired by their index; a block
 * where exactly one of the two jobs failed counts the failed one as slower than any finished job
 * (ranks only: its log ratio is larger in magnitude than every finished block's), a block where
 * both failed or one did not run is left out.
 *
 * @param candidates the number of variants gated against the reference: the Bonferroni divisor
 */
public record SequentialSuite(String reference, SequentialDesign design, double maxRegressionPercent,
    int candidates) {

  private static final Set<String> FIELDS = faultbed.results.ScenarioFormat.SEQUENTIAL.fields();

  /** A "sequential" field that is not a design: which field, and what it should have been. */
  public static final class Invalid extends InvalidField {
    Invalid(String field, String expected) {
      super(field, expected);
    }
  }

  /** One candidate's gate: where it stands after the blocks so far. */
  public record Result(String candidate, SequentialGate.Outcome outcome, int pairedBlocks, int failedBlocks) {
    public String describe() {
      return candidate + ": " + outcome.describe() + (failedBlocks == 0 ? ""
          : " (" + failedBlocks + " block(s) with one job failed, counted as slower than any finished)");
    }
  }

  /**
   * The design a scenario file declares, checked against its {@code blocks}; empty without
   * {@code "sequential"}.
   *
   * @param blocks the scenario's block count (its variants' most runs)
   * @param variants the scenario's variant names
   */
  public static Optional<SequentialSuite> ofScenario(JsonNode root, int blocks, List<String> variants) {
    JsonNode n = root.get("sequential");
    if (n == null) {
      return Optional.empty();
    }
    if (!n.isObject()) {
      throw new Invalid("sequential", "expected an object with blocks and looks, got " + n);
    }
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!FIELDS.contains(f)) {
        throw new Invalid("sequential." + f, "expected one of " + FIELDS + ", not this field");
      }
    }
    JsonNode ref = root.get("reference");
    if (ref == null || !ref.isTextual() || !variants.contains(ref.asText())) {
      throw new Invalid("reference", "expected the variant the others are gated against (a sequential suite needs"
          + " one), one of " + variants + ", got " + (ref == null ? "none" : ref.toString()));
    }
    if (variants.size() < 2) {
      throw new Invalid("sequential", "expected a scenario with a reference and at least one other variant, got "
          + variants);
    }
    int maxBlocks = count(n.get("blocks"), "sequential.blocks");
    if (maxBlocks != blocks) {
      throw new Invalid("sequential.blocks", "expected the scenario's " + blocks + " blocks (its runs), got "
          + maxBlocks + " (the design is fixed before the suite runs: change both together)");
    }
    double alpha = number(n.get("alpha"), "sequential.alpha", 0.05);
    if (!(alpha > 0 && alpha < 1)) {
      throw new Invalid("sequential.alpha", "expected a number between 0 and 1, got " + n.get("alpha"));
    }
    double maxRegression = number(n.get("maxRegression"), "sequential.maxRegression", 0);
    if (!(maxRegression >= 0 && maxRegression < 1000)) {
      throw new Invalid("sequential.maxRegression", "expected a percentage from 0 to below 1000, got "
          + n.get("maxRegression"));
    }
    SequentialDesign.Spending spending = spending(n.get("spending"));
    JsonNode looks = n.get("looks");
    SequentialDesign design;
    try {
      if (looks != null && looks.isArray()) {
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < looks.size(); i++) {
          at.add(count(looks.get(i), "sequential.looks[" + i + "]"));
        }
        design = new SequentialDesign(maxBlocks, at, alpha, spending);
      } else {
        design = SequentialDesign.lookingEvery(count(looks, "sequential.looks"), maxBlocks, alpha, spending);
      }
    } catch (IllegalArgumentException e) {
      throw new Invalid("sequential.looks", e.getMessage().replaceFirst("^looks: ", ""));
    }
    return Optional.of(new SequentialSuite(ref.asText(), design, maxRegression, variants.size() - 1));
  }

  /** The design in a suite folder's copy of its scenario; empty when it has none or declares none. */
  public static Optional<SequentialSuite> of(Path dir) {
    return ofFile(dir.resolve(RecordStore.SCENARIO_COPY));
  }

  /** The design a scenario file declares (one the parser accepted); empty when it declares none or cannot be read. */
  public static Optional<SequentialSuite> ofFile(Path copy) {
    if (!Files.isRegularFile(copy)) {
      return Optional.empty();
    }
    JsonNode root;
    try {
      root = RecordStore.json().readTree(copy.toFile());
    } catch (IOException e) {
      return Optional.empty(); // an unreadable copy declares nothing; run checked it when the suite started
    }
    if (root == null || !root.has("sequential")) {
      return Optional.empty();
    }
    JsonNode variants = root.get("variants");
    List<String> names = new ArrayList<>();
    if (variants != null && variants.isObject()) {
      variants.fieldNames().forEachRemaining(names::add);
    }
    JsonNode blocks = root.path("sequential").get("blocks");
    return ofScenario(root, blocks != null && blocks.canConvertToInt() ? blocks.asInt() : -1, names);
  }

  /** Each candidate's gate, at alpha / candidates. */
  public SequentialGate gate() {
    return new SequentialGate(new SequentialDesign(design.maxBlocks(), design.looks(), design.alpha() / candidates,
        design.spending()), maxRegressionPercent);
  }

  /** Where every candidate stands after {@code records}, in the order the candidates first appear. */
  public List<Result> decide(List<RunRecord> records) {
    Map<String, Map<Integer, Double>> byVariant = new java.util.LinkedHashMap<>();
    for (RunRecord r : records) {
      if (r.block() == null) {
        continue;
      }
      Double seconds = r.job() != null && r.job().succeeded() ? r.completionSeconds().orElse(null) : null;
      byVariant.computeIfAbsent(r.variant(), v -> new TreeMap<>())
          .put(r.block().index(), seconds == null ? Double.NaN : seconds);
    }
    Map<Integer, Double> base = byVariant.getOrDefault(reference, Map.of());
    SequentialGate gate = gate();
    List<Result> results = new ArrayList<>();
    for (var e : byVariant.entrySet()) {
      if (e.getKey().equals(reference)) {
        continue;
      }
      LogRatios ratios = logRatios(base, e.getValue(), design.maxBlocks());
      results.add(new Result(e.getKey(), gate.decide(ratios.values()), ratios.values().length, ratios.oneFailed()));
    }
    return results;
  }

  /** The pilot's paired log ratios of {@code candidate} over {@code reference}, as the gate would see them. */
  public static double[] logRatios(SampleSet pilot, String reference, String candidate) {
    return logRatios(seconds(pilot.variant(reference).orElseThrow()), seconds(pilot.variant(candidate).orElseThrow()),
        Integer.MAX_VALUE).values();
  }

  private static Map<Integer, Double> seconds(VariantSample v) {
    Map<Integer, Double> m = new TreeMap<>();
    v.runs().stream().filter(r -> r.block() != null)
        .forEach(r -> m.put(r.block(), r.seconds() == null ? Double.NaN : r.seconds()));
    return m;
  }

  private record LogRatios(double[] values, int oneFailed) {}

  /** Paired by block in block order, at most {@code max}; NaN is a failed job. */
  private static LogRatios logRatios(Map<Integer, Double> base, Map<Integer, Double> cand, int max) {
    List<Double> ratios = new ArrayList<>();
    List<Integer> failedSide = new ArrayList<>(); // per ratio: 0 finished, +1 candidate failed, -1 reference failed
    for (var e : new TreeMap<>(cand).entrySet()) {
      Double b = base.get(e.getKey());
      Double c = e.getValue();
      if (b == null || (b.isNaN() && c.isNaN())) {
        continue;
      }
      if (ratios.size() == max) {
        break;
      }
      ratios.add(b.isNaN() || c.isNaN() ? 0 : Math.log(c / b));
      failedSide.add(c.isNaN() ? 1 : b.isNaN() ? -1 : 0);
    }
    double largest = 0;
    for (int i = 0; i < ratios.size(); i++) {
      if (failedSide.get(i) == 0) {
        largest = Math.max(largest, Math.abs(ratios.get(i)));
      }
    }
    double[] out = new double[ratios.size()];
    int failed = 0;
    for (int i = 0; i < out.length; i++) {
      int side = failedSide.get(i);
      // beyond every finished block, each failed one a little further so the ranks stay untied
      out[i] = side == 0 ? ratios.get(i) : side * (2 * largest + Math.log(2) + 1e-6 * ++failed);
    }
    return new LogRatios(out, failed);
  }

  /** Whether every candidate's gate has ended: the suite stops. */
  public static boolean ended(List<Result> results) {
    return !results.isEmpty() && results.stream().allMatch(r -> r.outcome().decision().ends());
  }

  /** Whether some candidate's gate stopped WORSE. */
  public static boolean regression(List<Result> results) {
    return results.stream().anyMatch(r -> r.outcome().decision() == SequentialGate.Decision.STOP_WORSE);
  }

  /** "sequential: O'Brien-Fleming, looks at [16, 32, ...] of at most 80 blocks, each of 1 candidate(s) at alpha 0.05". */
  public String describe() {
    return String.format(Locale.ROOT, "sequential: %s spending, looks at %s of at most %d blocks; each of %d"
        + " candidate(s) against %s at alpha %s%s; WORSE when significant and the median block ratio is above %s",
        design.spending().label(), design.looks(), design.maxBlocks(), candidates, reference,
        Format.plain(design.alpha() / candidates), candidates == 1 ? "" : " (Bonferroni: " + Format.plain(design.alpha())
            + " over the suite)", Format.ratio(1 + maxRegressionPercent / 100));
  }

  private static int count(JsonNode n, String field) {
    if (n == null || !n.canConvertToInt() || !n.isIntegralNumber() || n.asInt() < 1) {
      throw new Invalid(field, "expected a whole number of blocks, 1 or more, got " + (n == null ? "none" : n));
    }
    return n.asInt();
  }

  private static double number(JsonNode n, String field, double otherwise) {
    if (n == null) {
      return otherwise;
    }
    if (!n.isNumber()) {
      throw new Invalid(field, "expected a number, got " + n);
    }
    return n.asDouble();
  }

  private static SequentialDesign.Spending spending(JsonNode n) {
    if (n == null) {
      return SequentialDesign.Spending.OBRIEN_FLEMING;
    }
    return switch (n.isTextual() ? n.asText() : "") {
      case "obrien-fleming" -> SequentialDesign.Spending.OBRIEN_FLEMING;
      case "pocock" -> SequentialDesign.Spending.POCOCK;
      default -> throw new Invalid("sequential.spending", "expected \"obrien-fleming\" or \"pocock\", got " + n);
    };
  }
}
