package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record whose parts the record's own checks refuse (a null where a value is needed, found by the
 * command-line fuzzing at its 95,343rd input) is refused naming where, never with a Java exception's
 * name, which the CLI would print as its one line.
 */
class UnreadableRecordTest {
  @Test
  void aNullWhereAValueIsNeededIsNamedByWhereItIsNotByJava(@TempDir Path dir) throws Exception {
    ObjectNode record = (ObjectNode) RecordStore.json().readTree(
        Path.of("src/test/resources/records/quickstart/crash-000.json").toFile());
    List<ObjectNode> changed = new ArrayList<>();
    record.fieldNames().forEachRemaining(name -> {
      ObjectNode c = record.deepCopy();
      c.putNull(name);
      changed.add(c);
    });
    ObjectNode nullAttempt = record.deepCopy();
    ((ArrayNode) nullAttempt.get("attempts")).set(0, (JsonNode) null);
    changed.add(nullAttempt);
    ObjectNode attemptWithNulls = record.deepCopy();
    ObjectNode first = (ObjectNode) attemptWithNulls.get("attempts").get(0);
    List<String> names = new ArrayList<>();
    first.fieldNames().forEachRemaining(names::add);
    names.forEach(first::putNull);
    changed.add(attemptWithNulls);

    int refused = 0;
    for (ObjectNode c : changed) {
      Path file = Files.writeString(dir.resolve("r.json"), RecordStore.json().writeValueAsString(c));
      try {
        RecordStore.read(file);
      } catch (UncheckedIOException e) {
        refused++;
        String said = e.getMessage() + ": " + e.getCause().getMessage();
        assertFalse(said.matches("(?s).*\\b[A-Z]\\w*(Exception|Error)\\b.*") || said.contains("java."), said);
      }
    }
    assertTrue(refused > 0, "some nulls are refused");
  }
}
