package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import faultbed.harness.timeline.FaultKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Each fault kind is described once, by its {@link FaultKind}; the published scenario schema and
 * the fault table of the docs, written for people, must say the same kinds with the same fields.
 */
class FaultKindsTest {
  private static final Set<String> COMMON = Set.of("kind", "node", "at", "for", "spareAm", "spareReducers");

  @Test
  void theSchemaNamesEveryKindWithItsFields() throws IOException {
    JsonNode fault = new ObjectMapper().readTree(Path.of("..", "schema", "scenario.schema.json").toFile())
        .path("$defs").path("fault");
    List<String> enumerated = new ArrayList<>();
    fault.path("properties").path("kind").path("enum").forEach(k -> enumerated.add(k.asText()));
    assertEquals(FaultKind.names(), enumerated, "the schema's kinds");
    Map<String, Set<String>> branches = new LinkedHashMap<>();
    for (JsonNode branch : fault.path("oneOf")) {
      Set<String> fields = new TreeSet<>();
      branch.path("properties").fieldNames().forEachRemaining(fields::add);
      fields.removeAll(COMMON);
      branches.put(branch.path("properties").path("kind").path("const").asText(), fields);
    }
    for (FaultKind k : FaultKind.all()) {
      assertEquals(new TreeSet<>(k.fields()), branches.get(k.name()), "the schema's fields of " + k.name());
    }
    assertEquals(Set.copyOf(FaultKind.names()), branches.keySet(), "one schema branch per kind");
  }

  @Test
  void theDocsTableListsEveryKindWithItsFields() throws IOException {
    String docs = Files.readString(Path.of("..", "docs", "scenarios.md"));
    String table = docs.substring(docs.indexOf("### Fault kinds"));
    Map<String, String> rows = new LinkedHashMap<>();
    Matcher row = Pattern.compile("(?m)^\\| `([a-z-]+)` \\|[^|]*\\|([^\\n]*)\\|$").matcher(table);
    while (row.find() && rows.size() < FaultKind.all().size()) {
      rows.put(row.group(1), row.group(2));
    }
    assertEquals(FaultKind.names(), new ArrayList<>(rows.keySet()), "the docs' kinds, in order");
    for (FaultKind k : FaultKind.all()) {
      for (String field : k.fields()) {
        assertTrue(rows.get(k.name()).contains("`" + field + "`"), "the docs give " + k.name() + "'s " + field);
      }
    }
  }
}
