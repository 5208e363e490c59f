package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import faultbed.experiments.scenario.FieldReference;
import faultbed.experiments.scenario.ScenarioText;
import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.harness.timeline.FaultKind;
import faultbed.results.ScenarioFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The scenario format is described once: what code registers (each fault kind by its {@link FaultKind},
 * backends, pinnable parts, policies) is written into the published schema, the rest is the schema's
 * own, and the docs' fault table and field reference are made from them; the published files must be
 * what is made. After changing a kind or the schema, {@code -Dfaultbed.describe.write=true} on this
 * test writes them.
 */
class ScenarioTextTest {
  private static final Path SCHEMA = Path.of("..", "schema", "scenario.schema.json");
  private static final Path DOCS = Path.of("..", "docs", "scenarios.md");

  @BeforeAll
  static void writeWhenAsked() {
    if (Boolean.getBoolean("faultbed.describe.write")) {
      ScenarioText.write(SCHEMA, DOCS);
    }
  }

  @Test
  void theSchemaSaysWhatTheKindsDescribe() throws IOException {
    JsonNode published = new ObjectMapper().readTree(SCHEMA.toFile());
    assertEquals(ScenarioText.schema(published), published,
        "the schema's fault branches, backends, parts and policies are made from the registries: run this test with"
            + " -Dfaultbed.describe.write=true");
  }

  @Test
  void theDocsTableSaysWhatTheKindsDescribe() throws IOException {
    assertEquals(ScenarioText.docsTable(), ScenarioText.tableIn(Files.readString(DOCS)),
        "the docs' fault table is made from the kinds: run this test with -Dfaultbed.describe.write=true");
  }

  @Test
  void theDocsFieldReferenceSaysWhatTheSchemaDescribes() throws IOException {
    assertEquals(FieldReference.markdown(new ObjectMapper().readTree(SCHEMA.toFile())),
        FieldReference.in(Files.readString(DOCS)),
        "the docs' field reference is made from the schema: run this test with -Dfaultbed.describe.write=true");
  }

  /** The reader reads the schema it ships with, which is the published one. */
  @Test
  void theReaderReadsThePublishedSchema() throws IOException {
    assertEquals(new ObjectMapper().readTree(SCHEMA.toFile()), ScenarioFormat.schema(),
        "the schema in faultbed-results' jar is schema/scenario.schema.json as built");
  }

  /** The inventory's reader reads the schema it ships with, which is the published one. */
  @Test
  void theInventoryReaderReadsThePublishedSchema() throws IOException {
    assertEquals(new ObjectMapper().readTree(Path.of("..", "schema", "inventory.schema.json").toFile()),
        faultbed.results.Schema.load("/faultbed/schema/inventory.schema.json").json(),
        "the inventory schema in faultbed-results' jar is schema/inventory.schema.json as built");
  }

  /** The reader refuses what the description leaves out: a field of another kind, a {@code for} on a permanent one. */
  @Test
  void theReaderTakesEachKindsFieldsAndNoOthers() {
    for (FaultKind k : FaultKind.all()) {
      for (FaultKind other : FaultKind.all()) {
        for (FaultKind.Param p : other.params()) {
          if (!k.fields().contains(p.name())) {
            String json = "{\"name\": \"t\", \"workload\": {\"type\": \"sort\", \"size\": \"8MB\"}, \"faults\": [{\"kind\": \""
                + k.name() + "\", \"node\": 0, \"at\": \"5s\", \"" + p.name() + "\": 1}]}";
            ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse(json, "t"), json);
            assertEquals("faults[0]." + p.name(), e.field(), json);
          }
        }
      }
    }
  }
}
