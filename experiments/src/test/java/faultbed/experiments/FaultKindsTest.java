package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import faultbed.experiments.scenario.FaultKindText;
import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.harness.timeline.FaultKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each fault kind is described once, by its {@link FaultKind}: the published scenario schema's
 * fault branches and the docs' fault table are made from those descriptions and must be what is
 * published. After changing a kind, {@code -Dfaultbed.describe.write=true} on this test writes them.
 */
class FaultKindsTest {
  private static final Path SCHEMA = Path.of("..", "schema", "scenario.schema.json");
  private static final Path DOCS = Path.of("..", "docs", "scenarios.md");

  @BeforeAll
  static void writeWhenAsked() {
    if (Boolean.getBoolean("faultbed.describe.write")) {
      FaultKindText.write(SCHEMA, DOCS);
    }
  }

  @Test
  void theSchemaSaysWhatTheKindsDescribe() throws IOException {
    assertEquals(FaultKindText.schema(), new ObjectMapper().readTree(SCHEMA.toFile()).path("$defs").path("fault"),
        "the schema's $defs/fault is made from the kinds: run this test with -Dfaultbed.describe.write=true");
  }

  @Test
  void theDocsTableSaysWhatTheKindsDescribe() throws IOException {
    assertEquals(FaultKindText.docsTable(), FaultKindText.tableIn(Files.readString(DOCS)),
        "the docs' fault table is made from the kinds: run this test with -Dfaultbed.describe.write=true");
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
