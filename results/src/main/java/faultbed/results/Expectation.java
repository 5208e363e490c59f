package faultbed.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What every run of a variant must show, as a scenario states it under {@code "expect"}: a regression
 * case rather than a measurement. The facts are the ones Hadoop's own speculation tests assert: the
 * job's final state, whether the speculator launched a backup, how many map attempts failed. Each is
 * optional; a null one is not checked. Checked from records, so a suite can be verified again later.
 *
 * @param state      the job's final state, such as "SUCCEEDED"
 * @param speculated whether some task ran a speculative attempt (one started while an earlier attempt
 *                   of its task still ran)
 * @param failedMaps how many map attempts ended FAILED
 * @param backedUp   by task ("map 0", "reduce 3"): whether that task ran a speculative attempt
 */
public record Expectation(String state, Boolean speculated, Integer failedMaps, Map<String, Boolean> backedUp) {
  private static final Set<String> FIELDS = ScenarioFormat.EXPECT.fields();
  private static final java.util.regex.Pattern TASK = java.util.regex.Pattern.compile("(map|reduce) (\\d{1,6})");

  public Expectation {
    backedUp = backedUp == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(backedUp));
  }

  public Expectation(String state, Boolean speculated, Integer failedMaps) {
    this(state, speculated, failedMaps, null);
  }
  private static final Set<String> STATES = new TreeSet<>(ScenarioFormat.EXPECT.names("state"));

  /** A field of an {@code "expect"} object that cannot be checked, and what was expected there. */
  public static final class Invalid extends InvalidField {
    Invalid(String field, String expected) {
      super(field, expected);
    }
  }

  /** One run checked: its id, variant, and each expectation it did not meet (empty: it met them all). */
  public record Verdict(String runId, String variant, Expectation expected, List<String> unmet, String observed) {
    public boolean met() {
      return unmet.isEmpty();
    }
  }

  /**
   * The expectation {@code n} states, fields of {@code base} where it says nothing (a variant's
   * {@code "expect"} over the scenario's); {@code at} names the object in errors.
   */
  public static Expectation parse(JsonNode n, String at, Expectation base) {
    if (n == null) {
      return base;
    }
    if (!n.isObject()) {
      throw new Invalid(at, "expected an object such as {\"state\": \"SUCCEEDED\", \"speculated\": true, \"failedMaps\": 0}");
    }
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!FIELDS.contains(f)) {
        throw new Invalid(at + "." + f, "unknown field; expected one of " + FIELDS);
      }
    }
    Expectation b = base == null ? new Expectation(null, null, null, null) : base;
    String state = b.state;
    if (n.has("state")) {
      JsonNode s = n.get("state");
      if (!s.isTextual() || !STATES.contains(s.asText())) {
        throw new Invalid(at + ".state", "expected one of " + STATES + ", got " + s);
      }
      state = s.asText();
    }
    Boolean speculated = b.speculated;
    if (n.has("speculated")) {
      if (!n.get("speculated").isBoolean()) {
        throw new Invalid(at + ".speculated", "expected true or false, got " + n.get("speculated"));
      }
      speculated = n.get("speculated").asBoolean();
    }
    Integer failedMaps = b.failedMaps;
    if (n.has("failedMaps")) {
      JsonNode f = n.get("failedMaps");
      if (!f.isIntegralNumber() || f.asLong() < 0 || !f.canConvertToInt()) {
        throw new Invalid(at + ".failedMaps", "expected a count of 0 or more, got " + f);
      }
      failedMaps = f.asInt();
    }
    Map<String, Boolean> backedUp = new LinkedHashMap<>(b.backedUp);
    if (n.has("backedUp")) {
      JsonNode t = n.get("backedUp");
      if (!t.isObject() || t.isEmpty()) {
        throw new Invalid(at + ".backedUp", "expected an object such as {\"map 0\": true}, got " + t);
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = t.fields(); it.hasNext(); ) {
        var e = it.next();
        if (!TASK.matcher(e.getKey()).matches()) {
          throw new Invalid(at + ".backedUp", "expected tasks named \"map N\" or \"reduce N\", got \"" + e.getKey() + "\"");
        }
        if (!e.getValue().isBoolean()) {
          throw new Invalid(at + ".backedUp." + e.getKey(), "expected true or false, got " + e.getValue());
        }
        backedUp.put(e.getKey(), e.getValue().asBoolean());
      }
    }
    return new Expectation(state, speculated, failedMaps, backedUp);
  }

  /**
   * Every variant's expectation in a scenario's JSON: the top-level {@code "expect"}, with each
   * variant's own fields over it. Variants with neither are absent.
   */
  public static Map<String, Expectation> ofScenario(JsonNode scenario) {
    Map<String, Expectation> out = new LinkedHashMap<>();
    Expectation top = parse(scenario.get("expect"), "expect", null);
    JsonNode variants = scenario.get("variants");
    if (variants == null || !variants.isObject()) {
      if (top != null) {
        out.put("default", top);
      }
      return out;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = variants.fields(); it.hasNext(); ) {
      var e = it.next();
      JsonNode v = e.getValue();
      Expectation own = parse(v instanceof ObjectNode o ? o.get("expect") : null, "variants." + e.getKey() + ".expect", top);
      if (own != null) {
        out.put(e.getKey(), own);
      }
    }
    return out;
  }

  /** The expectations in a suite folder's copy of its scenario; empty when it has no copy. */
  public static Optional<Map<String, Expectation>> ofSuite(Path dir) throws IOException {
    Path copy = dir.resolve(RecordStore.SCENARIO_COPY);
    if (!Files.isRegularFile(copy)) {
      return Optional.empty();
    }
    return Optional.of(ofScenario(RecordStore.json().readTree(copy.toFile())));
  }

  /** The task's number in its job: the last field of {@code task_..._m_000003}. */
  private static int taskIndex(String taskId) {
    return Integer.parseInt(taskId.substring(taskId.lastIndexOf('_') + 1));
  }

  /** {@code record} against this expectation: what it did not meet, and what it showed. */
  public Verdict check(RunRecord record) {
    List<String> unmet = new ArrayList<>();
    String jobState = record.job() == null ? "none" : record.job().state();
    List<RunRecord.AttemptRecord> attempts = record.attempts() == null ? List.of() : record.attempts();
    List<String> backups = attempts.stream().filter(RunRecord.AttemptRecord::speculative)
        .map(a -> a.attemptId() + (a.node() == null ? "" : " on node " + a.node()) + " (" + a.state() + ")").toList();
    long failed = attempts.stream().filter(a -> "MAP".equals(a.type()) && "FAILED".equals(a.state())).count();
    long mapAttempts = attempts.stream().filter(a -> "MAP".equals(a.type())).count();
    long reduceAttempts = attempts.stream().filter(a -> "REDUCE".equals(a.type())).count();
    String launched = record.job() == null ? "" : String.format(java.util.Locale.ROOT, "%d map attempts for %d maps, %d reduce attempts for %d reduces",
        mapAttempts, record.job().maps(), reduceAttempts, record.job().reduces());
    if (state != null && !state.equals(jobState)) {
      unmet.add("state: expected " + state + ", was " + jobState);
    }
    if (speculated != null) {
      if (attempts.isEmpty()) {
        unmet.add("speculated: expected " + speculated + ", but the record has no task attempts");
      } else if (speculated != !backups.isEmpty()) {
        unmet.add("speculated: expected " + speculated + ", was " + !backups.isEmpty());
      }
    }
    if (failedMaps != null && failed != failedMaps) {
      unmet.add("failedMaps: expected " + failedMaps + ", was " + failed);
    }
    backedUp.forEach((task, expected) -> {
      var m = TASK.matcher(task);
      m.matches();
      String type = m.group(1).equals("map") ? "MAP" : "REDUCE";
      int index = Integer.parseInt(m.group(2));
      boolean was = attempts.stream().anyMatch(a -> a.speculative() && type.equals(a.type()) && taskIndex(a.taskId()) == index);
      if (attempts.isEmpty()) {
        unmet.add("backedUp." + task + ": expected " + expected + ", but the record has no task attempts");
      } else if (was != expected) {
        unmet.add("backedUp." + task + ": expected " + expected + ", was " + was);
      }
    });
    String observed = "job " + jobState + "; " + launched + "; "
        + (backups.isEmpty() ? "no backup" : "backups: " + String.join(", ", backups)) + "; " + failed + " failed map attempt(s)";
    return new Verdict(record.runId(), record.variant(), this, List.copyOf(unmet), observed);
  }
}
