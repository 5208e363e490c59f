package faultbed.results;

import com.fasterxml.jackson.databind.JsonNode;
import faultbed.results.Schema.Shape;

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
  private static final Schema SCHEMA = Schema.load(RESOURCE);

  /** The scenario object itself. */
  public static final Shape TOP = at("");
  public static final Shape CLUSTER = at("/$defs/cluster");
  public static final Shape VARIANT = at("/$defs/variant");
  /** A sort or wordcount workload. */
  public static final Shape FILE_WORKLOAD = at("/$defs/workload/oneOf/0");
  public static final Shape SYNTHETIC_WORKLOAD = at("/$defs/workload/oneOf/1");
  public static final Shape ELASTIC_WORKLOAD = at("/$defs/workload/oneOf/2");
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
    return SCHEMA.json();
  }

  /** The shape at a JSON pointer into the schema; an error of faultbed's if there is none. */
  public static Shape at(String pointer) {
    return SCHEMA.at(pointer);
  }

  /** The pattern the schema states at a JSON pointer to a {@code pattern}. */
  public static java.util.regex.Pattern pattern(String pointer) {
    return SCHEMA.pattern(pointer);
  }

  /** A number the schema states at a JSON pointer (a bound, say). */
  public static long number(String pointer) {
    return SCHEMA.number(pointer);
  }
}
