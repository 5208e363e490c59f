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
 * The scenario format's shapes as the published schema ({@code schema/scenario.schema.json}, shipped
 * in this jar) describes them: which fields an object takes, an integer's bounds, a field's allowed
 * names. The readers of scenario files (the scenario parser, {@code expect}, {@code sequential}) take
 * these from here rather than writing them again, so the schema, the readers and the docs' field
 * reference (made from the schema) say one thing. What a schema cannot say (a bound from this
 * machine, one field against another) the readers add in code, once.
 */
public final class ScenarioFormat {
  /** Where the schema is on the classpath. */
  public static final String RESOURCE = "/faultbed/schema/scenario.schema.json";
  private static final JsonNode SCHEMA = load();

  /** The scenario object itself. */
  public static final Shape TOP = at("");
  public static final Shape CLUSTER = at("/$defs/cluster");
  public static final Shape VARIANT = at("/$defs/variant");
  /** A sort or wordcount workload. */
  public static final Shape FILE_WORKLOAD = at("/$defs/workload/oneOf/0");
  public static final Shape SYNTHETIC_WORKLOAD = at("/$defs/workload/oneOf/1");
  public static final Shape SLOWDOWN = at("/$defs/slowdowns/items");
  public static final Shape SLOWDOWN_STEP = at("/$defs/slowdowns/items/properties/profile/items");
  /** The object forms of {@code speculation}: a policy with params, or a speculator class. */
  public static final Shape SPECULATION = at("/$defs/speculation");
  /** The object forms of {@code at}: a uniform draw or a job event. */
  public static final Shape TRIGGER = at("/$defs/trigger");
  public static final Shape TARGET = at("/$defs/target");
  public static final Shape EXPECT = at("/$defs/expect");
  public static final Shape SEQUENTIAL = at("/properties/sequential");

  private ScenarioFormat() {}

  /** The whole schema, as published. */
  public static JsonNode schema() {
    return SCHEMA.deepCopy();
  }

  /** A number the schema states at a JSON pointer (a bound, say). */
  public static long number(String pointer) {
    JsonNode n = SCHEMA.at(pointer);
    if (!n.isNumber()) {
      throw new IllegalStateException("the scenario schema has no number at " + pointer);
    }
    return n.asLong();
  }

  /** The shape at a JSON pointer into the schema; an error of faultbed's if there is none. */
  public static Shape at(String pointer) {
    JsonNode n = SCHEMA.at(pointer);
    if (n.isMissingNode()) {
      throw new IllegalStateException("the scenario schema has nothing at " + pointer);
    }
    return new Shape(pointer, n);
  }

  private static JsonNode load() {
    try (InputStream in = ScenarioFormat.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the scenario schema is not on the classpath at " + RESOURCE);
      }
      return new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
        throw new IllegalStateException("the scenario schema names no values at " + pointer + (field == null ? "" : " " + field));
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
      throw new IllegalStateException("the scenario schema has no branch at " + pointer + " with " + field);
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
      throw new IllegalStateException("the scenario schema has no branch at " + pointer + " with " + field + " " + value);
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
      throw new IllegalStateException("the scenario schema has no field " + name + " at " + pointer);
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
