package faultbed.results;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The variant a suite's others are compared with, one rule for report, compare and summary: the
 * one the scenario names ({@code "reference"} in the suite's {@code scenario.json.txt}), else the
 * only variant whose runs injected no fault, else the first. {@code why} says which rule chose it.
 */
public record ReferenceVariant(String name, String why) {
  public static Optional<ReferenceVariant> of(Path dir, List<RunRecord> records) {
    Map<String, List<RunRecord>> byVariant = SuiteSummary.byVariant(records);
    if (byVariant.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> named = named(dir);
    if (named.isPresent() && byVariant.containsKey(named.get())) {
      return Optional.of(new ReferenceVariant(named.get(), "named by the scenario"));
    }
    List<String> faultFree = byVariant.entrySet().stream()
        .filter(e -> e.getValue().stream().allMatch(r -> r.faults().isEmpty())).map(Map.Entry::getKey).toList();
    String first = byVariant.keySet().iterator().next();
    String missing = named.map(n -> "the scenario names " + n + ", which has no runs here; ").orElse("");
    if (faultFree.size() == 1) {
      return Optional.of(new ReferenceVariant(faultFree.get(0), missing + "the only variant without faults"));
    }
    return Optional.of(new ReferenceVariant(first, missing + (faultFree.isEmpty()
        ? "the first variant: every variant has faults and the scenario names no reference"
        : "the first variant: " + faultFree.size() + " variants have no faults and the scenario names no reference")));
  }

  /** The scenario's "reference" field, when the folder has the scenario's copy and it names one. */
  static Optional<String> named(Path dir) {
    Path copy = dir.resolve(RecordStore.SCENARIO_COPY);
    if (!Files.isRegularFile(copy)) {
      return Optional.empty();
    }
    try {
      JsonNode n = RecordStore.json().readTree(copy.toFile()).get("reference");
      return n != null && n.isTextual() ? Optional.of(n.asText()) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty(); // an unreadable copy names nothing; the other rules decide
    }
  }
}
