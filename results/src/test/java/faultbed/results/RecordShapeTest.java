package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The run record's schemaVersion is held to its shape: every component of RunRecord and of the
 * records it holds, by name and type, is written in record-shape.txt under the version it belongs
 * to. A changed record fails here until SCHEMA_VERSION is raised and the file rewritten (the
 * message gives the new shape), so records of different shapes never carry the same version.
 */
class RecordShapeTest {
  private static final Path SHAPE = Path.of("src/test/resources/record-shape.txt");

  @Test
  void theSchemaVersionNamesTheRecordsShape() throws Exception {
    String now = "schemaVersion " + RunRecord.SCHEMA_VERSION + "\n" + shape();
    String committed = Files.readString(SHAPE);
    assertEquals(committed, now, "the run record's shape or version changed: raise RunRecord.SCHEMA_VERSION when"
        + " the shape changes, say in docs/records.md what changed and which versions still read, and write the"
        + " shape above to " + SHAPE);
  }

  @Test
  void aRecordOfANewerVersionIsRefusedWithOneLine() {
    String json = "{\"schemaVersion\": " + (RunRecord.SCHEMA_VERSION + 1) + ", \"runId\": \"x-000\"}";
    Exception e = assertThrows(Exception.class, () -> RecordStore.json().readValue(json, RunRecord.class));
    assertTrue(String.valueOf(e.getMessage()).contains("newer than this faultbed reads"), e.getMessage());
  }

  /** One line per component, records depth first, each record once. */
  static String shape() {
    StringBuilder out = new StringBuilder();
    walk(RunRecord.class, out, new LinkedHashSet<>());
    return out.toString();
  }

  private static void walk(Class<?> type, StringBuilder out, Set<Class<?>> seen) {
    if (!seen.add(type)) {
      return;
    }
    for (RecordComponent c : type.getRecordComponents()) {
      out.append(type.getName().replace("faultbed.results.", "")).append('.').append(c.getName()).append(": ")
          .append(c.getGenericType().getTypeName().replace("faultbed.results.", "")).append('\n');
    }
    for (RecordComponent c : type.getRecordComponents()) {
      for (Class<?> inner : records(c.getGenericType())) {
        walk(inner, out, seen);
      }
    }
  }

  private static Set<Class<?>> records(Type t) {
    Set<Class<?>> out = new LinkedHashSet<>();
    if (t instanceof Class<?> c && c.isRecord()) {
      out.add(c);
    } else if (t instanceof Class<?> c && c.isEnum()) {
      return out;
    } else if (t instanceof ParameterizedType p) {
      for (Type a : p.getActualTypeArguments()) {
        out.addAll(records(a));
      }
    }
    return out;
  }
}
