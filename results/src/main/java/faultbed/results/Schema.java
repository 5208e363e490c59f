package faultbed.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A published JSON Schema of one of faultbed's file formats, read from the classpath, as the format's
 * readers use it: the fields an object takes, an integer's bounds, a field's names. A reader takes
 * these from here rather than writing them again; what a schema cannot say it adds in code.
 */
public final class Schema {
  private final String resource;
  private final JsonNode json;

  private Schema(String resource, JsonNode json) {
    this.resource = resource;
    this.json = json;
  }

  /** The schema at {@code resource} on the classpath; an error of faultbed's if it is not there. */
  public static Schema load(String resource) {
    try (InputStream in = Schema.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no schema on the classpath at " + resource);
      }
      return new Schema(resource, new ObjectMapper().readTree(in));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The whole schema, as published. */
  public JsonNode json() {
    return json.deepCopy();
  }

  /** The shape at a JSON pointer into the schema; an error of faultbed's if there is none. */
  public Shape at(String pointer) {
    JsonNode n = json.at(pointer);
    if (n.isMissingNode()) {
      throw new IllegalStateException(resource + " has nothing at " + pointer);
    }
    return new Shape(pointer, n);
  }

  /** The pattern the schema states at a JSON pointer to a {@code pattern} (one of a list's items, say). */
  public java.util.regex.Pattern pattern(String pointer) {
    JsonNode n = json.at(pointer);
    if (!n.isTextual()) {
      throw new IllegalStateException(resource + " has no pattern at " + pointer);
    }
    return java.util.regex.Pattern.compile(n.asText());
  }

  /** A number the schema states at a JSON pointer (a bound, say). */
  public long number(String pointer) {
    JsonNode n = json.at(pointer);
    if (!n.isNumber()) {
      throw new IllegalStateException(resource + " has no number at " + pointer);
    }
    return n.asLong();
  }

  /**
   * An object of the format, or a choice of objects ({@code oneOf}): its fields are those of every
   * branch, as a reader that tells the branches apart by their fields sees them.
   */
  public record Shape(String pointer, JsonNode schema) {
    /** The fields this object takes, sorted (as messages list them). */
    public Set<String> fields() {
      Set<String> out = new TreeSet<>();
      branches().forEach(b -> b.path("properties").fieldNames().forEachRemaining(out::add));
      return Collections.unmodifiableSet(out);
    }

    /** The least value the integer field takes; {@link Long#MIN_VALUE} if the schema gives none. */
    public long minimum(String field) {
      JsonNode m = field(field).path("minimum");
      return m.isNumber() ? m.asLong() : Long.MIN_VALUE;
    }

    /**
     * The pattern a string field must match, whole (the schema's patterns are anchored, and a
     * reader uses {@code matches}, so a line break at the end does not pass).
     */
    public java.util.regex.Pattern pattern(String field) {
      JsonNode p = field(field).path("pattern");
      if (!p.isTextual()) {
        throw new IllegalStateException("the schema gives no pattern for " + field + " at " + pointer);
      }
      return java.util.regex.Pattern.compile(p.asText());
    }

    /** The greatest value the integer field takes; {@link Long#MAX_VALUE} if the schema gives none. */
    public long maximum(String field) {
      JsonNode m = field(field).path("maximum");
      return m.isNumber() ? m.asLong() : Long.MAX_VALUE;
    }

    /**
     * The names a field allows (its {@code enum} or {@code const}, in every branch, in the schema's
     * order), or with null the names this shape itself allows.
     */
    public List<String> names(String field) {
      java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
      List<JsonNode> places = new ArrayList<>();
      if (field == null) {
        places.add(schema);
        places.addAll(list(schema.path("oneOf")));
      } else {
        branches().forEach(b -> places.add(b.path("properties").path(field)));
      }
      for (JsonNode p : places) {
        p.path("enum").forEach(v -> out.add(v.asText()));
        if (p.has("const")) {
          out.add(p.get("const").asText());
        }
      }
      if (out.isEmpty()) {
        throw new IllegalStateException("the schema names no values at " + pointer + (field == null ? "" : " " + field));
      }
      return List.copyOf(out);
    }

    /** The fields of the branch that has {@code field} (a uniform trigger's, say), sorted. */
    public Set<String> fieldsWith(String field) {
      for (JsonNode b : branches()) {
        if (b.path("properties").has(field)) {
          return sorted(b);
        }
      }
      throw new IllegalStateException("the schema has no branch at " + pointer + " with " + field);
    }

    /** The fields of the branch whose {@code field} is {@code value} (a trigger's event, say), sorted. */
    public Set<String> fieldsWhere(String field, String value) {
      for (JsonNode b : branches()) {
        JsonNode p = b.path("properties").path(field);
        boolean named = value.equals(p.path("const").asText(null));
        for (JsonNode v : p.path("enum")) {
          named |= value.equals(v.asText());
        }
        if (named) {
          return sorted(b);
        }
      }
      throw new IllegalStateException("the schema has no branch at " + pointer + " with " + field + " " + value);
    }

    private static Set<String> sorted(JsonNode branch) {
      Set<String> out = new TreeSet<>();
      branch.path("properties").fieldNames().forEachRemaining(out::add);
      return Collections.unmodifiableSet(out);
    }

    private JsonNode field(String name) {
      for (JsonNode b : branches()) {
        JsonNode f = b.path("properties").path(name);
        if (!f.isMissingNode()) {
          return f;
        }
      }
      throw new IllegalStateException("the schema has no field " + name + " at " + pointer);
    }

    private List<JsonNode> branches() {
      return schema.has("oneOf") ? list(schema.path("oneOf")) : List.of(schema);
    }

    private static List<JsonNode> list(JsonNode array) {
      List<JsonNode> out = new ArrayList<>();
      array.forEach(out::add);
      return out;
    }
  }
}
