package faultbed.experiments.scenario;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import faultbed.harness.Backends;
import faultbed.harness.Pin;
import faultbed.harness.timeline.FaultKind;
import faultbed.schedulers.policies.Policies;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The scenario format's published text, each fact made from the one place that describes it. What
 * code registers (fault kinds with their fields, backends, pinnable parts, speculation policies) is
 * written into the schema from the registries: the schema's {@code $defs/fault} (one branch per kind)
 * and the names it lists for {@code backend}, {@code pin} and {@code speculation}. Everything else the
 * schema itself describes, and the readers take it from there ({@link faultbed.results.ScenarioFormat}).
 * The docs' fault table is made from the kinds, their field reference from the schema
 * ({@link FieldReference}). A test holds the published files to what is made here, and {@link #write}
 * puts it in them.
 */
public final class ScenarioText {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String TABLE_HEAD = "| kind | what happens to the node | parameters |\n|---|---|---|\n";

  private ScenarioText() {}

  /** {@code published} with what the registries say written in: what the published schema must be. */
  public static ObjectNode schema(JsonNode published) {
    ObjectNode root = published.deepCopy();
    ObjectNode defs = (ObjectNode) root.path("$defs");
    defs.set("fault", faultSchema());
    ArrayNode backends = ((ObjectNode) defs.path("cluster").path("properties").path("backend")).putArray("enum");
    Backends.names().forEach(backends::add);
    ArrayNode pins = ((ObjectNode) defs.path("pin").path("items")).putArray("enum");
    Arrays.stream(Pin.values()).forEach(p -> pins.add(p.scenarioName()));
    List<String> policies = List.copyOf(Policies.names());
    ObjectNode named = (ObjectNode) defs.path("speculation").path("oneOf").path(0);
    named.put("pattern", "^\\s*(off|hadoop3|hadoop3/\\S+|" + String.join("|",
        policies.stream().map(p -> p.replace(".", "\\.")).toList()) + ")\\s*$");
    named.put("description", "off, hadoop3 (its legacy estimator), hadoop3/<estimator or class>, or a policy: "
        + String.join(", ", policies));
    return root;
  }

  /** The schema's {@code $defs/fault}. */
  public static ObjectNode faultSchema() {
    ObjectNode fault = JSON.createObjectNode();
    fault.put("type", "object");
    fault.putArray("required").add("kind");
    ArrayNode names = fault.putObject("properties").putObject("kind").putArray("enum");
    FaultKind.names().forEach(names::add);
    ArrayNode branches = fault.putArray("oneOf");
    for (FaultKind k : FaultKind.all()) {
      branches.add(branch(k));
    }
    return fault;
  }

  private static ObjectNode branch(FaultKind k) {
    ObjectNode b = JSON.createObjectNode();
    b.put("description", k.name() + ": " + k.summary());
    ObjectNode p = b.putObject("properties");
    p.putObject("kind").put("const", k.name());
    p.putObject("node").put("$ref", "#/$defs/target");
    p.putObject("at").put("$ref", "#/$defs/trigger");
    if (k.lasts() != FaultKind.Lasts.UNTIL_RUN_ENDS) {
      p.putObject("for").put("$ref", "#/$defs/positiveDuration");
    }
    p.putObject("spareAm").put("type", "boolean").put("description",
        "never the ApplicationMaster's node (roles random, most-maps, running-reducer, holding-map-outputs only)");
    p.putObject("spareReducers").put("type", "boolean").put("description",
        "never a node running one of the job's reducers (roles random, most-maps, holding-map-outputs only)");
    for (FaultKind.Param param : k.params()) {
      ObjectNode form = form(param.form());
      if (!param.choices().isEmpty()) {
        ArrayNode values = form.putArray("enum");
        param.choices().forEach(values::add);
      }
      if (param.note() != null) {
        form.put("description", param.note());
      }
      p.set(param.name(), form);
    }
    ArrayNode required = b.putArray("required").add("kind").add("node").add("at");
    k.params().stream().filter(FaultKind.Param::required).forEach(param -> required.add(param.name()));
    if (k.lasts() == FaultKind.Lasts.FOR_ONLY) {
      required.add("for");
    }
    b.put("additionalProperties", false);
    if (!k.anyOf().isEmpty()) {
      ArrayNode any = b.putArray("anyOf");
      k.anyOf().forEach(field -> any.addObject().putArray("required").add(field));
    }
    return b;
  }

  private static ObjectNode form(FaultKind.Form form) {
    ObjectNode n = JSON.createObjectNode();
    return switch (form) {
      case FLAG -> n.put("type", "boolean");
      case COUNT -> n.put("type", "integer").put("minimum", 1);
      case CORES -> n.put("type", "number").put("exclusiveMinimum", 0);
      case SIZE -> n.put("$ref", "#/$defs/size");
      case RATE -> n.put("$ref", "#/$defs/rate");
      case DURATION -> n.put("$ref", "#/$defs/duration");
      case OFFSET -> n.put("$ref", "#/$defs/offset");
      case FACTOR -> {
        n.put("type", "number").put("exclusiveMinimum", 0);
        yield n.set("not", JSON.createObjectNode().put("const", 1));
      }
      case PROBABILITY -> n.put("$ref", "#/$defs/probability");
      case CHOICE -> n.put("type", "string");
      case INDICES -> {
        n.put("type", "array").put("minItems", 1).put("uniqueItems", true);
        yield n.set("items", JSON.createObjectNode().put("type", "integer").put("minimum", 0));
      }
    };
  }

  /** The docs' fault table, its head and one row per kind. */
  public static String docsTable() {
    StringBuilder t = new StringBuilder(TABLE_HEAD);
    for (FaultKind k : FaultKind.all()) {
      List<String> cell = new ArrayList<>(k.params().stream().map(FaultKind.Param::docs).toList());
      if (k.lasts() == FaultKind.Lasts.FOR_ONLY) {
        cell.add("`for` (required)");
      }
      String params = String.join(", ", cell);
      t.append("| `").append(k.name()).append("` | ").append(k.docs()).append(" |")
          .append(params.isEmpty() ? "" : " " + params).append(params.isEmpty() ? " |" : " |").append('\n');
    }
    return t.toString();
  }

  /** The table as {@code docs} holds it now: from its head to the first line after it that is not a row. */
  public static String tableIn(String docs) {
    int from = docs.indexOf(TABLE_HEAD);
    if (from < 0) {
      throw new IllegalStateException("the docs have no fault table starting " + TABLE_HEAD.lines().findFirst().orElse(""));
    }
    int to = from + TABLE_HEAD.length();
    while (to < docs.length() && docs.startsWith("|", to)) {
      to = docs.indexOf('\n', to) + 1;
    }
    return docs.substring(from, to);
  }

  /** Puts what is made here into the published schema and the docs. */
  public static void write(Path schemaFile, Path docsFile) {
    try {
      ObjectNode root = schema(JSON.readTree(schemaFile.toFile()));
      DefaultPrettyPrinter printer = new DefaultPrettyPrinter(Separators.createDefaultInstance()
          .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
          .withArrayIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE);
      Files.writeString(schemaFile, JSON.writer(printer).writeValueAsString(root) + "\n");
      String docs = Files.readString(docsFile);
      docs = docs.replace(tableIn(docs), docsTable());
      Files.writeString(docsFile, docs.replace(FieldReference.in(docs), FieldReference.markdown(root)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
