package faultbed.experiments.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import faultbed.harness.timeline.FaultKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.StreamSupport;

/**
 * The docs' field reference ({@code docs/scenarios.md}), made from the published schema: a table for
 * each object of the format, a list for each field that takes one of several forms. What a field
 * allows is said from the schema's own keywords (type, bounds, names) and its {@code description};
 * a {@code $defs} entry with a {@code title} (a duration, a size) is named by it and explained once
 * under units. Each fault kind's own fields are the fault table's ({@link ScenarioText}), not
 * repeated here.
 */
public final class FieldReference {
  static final String BEGIN = "<!-- field reference: made from schema/scenario.schema.json; edit the schema, not this -->\n";
  static final String END = "<!-- end of field reference -->\n";

  private final JsonNode schema;
  private final StringBuilder out = new StringBuilder();
  private final Deque<String[]> pending = new ArrayDeque<>();
  /** Each section's title by the schema pointer it describes. */
  private final java.util.Map<String, String> sections = new java.util.HashMap<>();
  private final Set<String> kindFields = new HashSet<>();
  private final Set<String> titles = new HashSet<>();
  /** The title of the section being written: what a second section of the same name is told apart by. */
  private String current = "";

  private FieldReference(JsonNode schema) {
    this.schema = schema;
    FaultKind.all().forEach(k -> kindFields.addAll(k.fields()));
  }

  /** The reference, markers included. */
  public static String markdown(JsonNode schema) {
    FieldReference r = new FieldReference(schema);
    r.pending.add(new String[] {"A scenario", ""});
    r.sections.put("", "A scenario");
    r.titles.add("A scenario");
    while (!r.pending.isEmpty()) {
      String[] next = r.pending.removeFirst();
      r.section(next[0], next[1]);
    }
    r.units();
    return BEGIN + r.out + END;
  }

  /** The reference as {@code docs} holds it now, markers included. */
  public static String in(String docs) {
    int from = docs.indexOf(BEGIN);
    int to = docs.indexOf(END);
    if (from < 0 || to < from) {
      throw new IllegalStateException("the docs have no field reference between the markers " + BEGIN.strip()
          + " and " + END.strip());
    }
    return docs.substring(from, to + END.length());
  }

  private void section(String title, String pointer) {
    JsonNode n = schema.at(pointer);
    current = title;
    out.append('\n').append(title).append(':').append("\n\n");
    if (n.has("properties") && !n.has("oneOf")) {
      table(n, pointer, List.of(n));
    } else if (pointer.equals("/$defs/fault")) {
      faultTable(n);
    } else {
      for (int i = 0; i < n.path("oneOf").size(); i++) {
        JsonNode b = n.path("oneOf").get(i);
        String at = pointer + "/oneOf/" + i;
        out.append("- ").append(b.has("properties") ? "an object of " + inline(b, at) : value(b, at, null)).append('\n');
      }
    }
  }

  /** A row per field of the branches (the first one's phrase where they share a field). */
  private void table(JsonNode n, String pointer, List<JsonNode> branches) {
    out.append("| field | value |\n|---|---|\n");
    Set<String> required = required(n);
    for (JsonNode b : branches) {
      b.path("properties").fields().forEachRemaining(e -> {
        String mark = required.contains(e.getKey()) ? " (required)" : "";
        out.append("| `").append(e.getKey()).append("`").append(mark).append(" | ")
            .append(cell(value(e.getValue(), pointer + "/properties/" + escape(e.getKey()), "`" + e.getKey() + "`")))
            .append(" |\n");
      });
    }
    if (n.has("not") && n.path("not").has("required")) {
      out.append("\nNot both of ").append(String.join(" and ", names(n.path("not").path("required"), "`")))
          .append(".\n");
    }
  }

  /** The fields every fault takes; a kind's own are in the fault table. */
  private void faultTable(JsonNode fault) {
    Set<String> fields = new LinkedHashSet<>();
    List<String> lastsToEnd = new ArrayList<>();
    JsonNode first = fault.path("oneOf").get(0);
    for (JsonNode b : fault.path("oneOf")) {
      b.path("properties").fieldNames().forEachRemaining(f -> {
        if (!kindFields.contains(f)) {
          fields.add(f);
        }
      });
      if (!b.path("properties").has("for")) {
        lastsToEnd.add("`" + b.path("properties").path("kind").path("const").asText() + "`");
      }
    }
    out.append("| field | value |\n|---|---|\n");
    Set<String> required = required(first);
    for (String f : fields) {
      String at = "/$defs/fault/oneOf/0/properties/" + f;
      JsonNode spec = f.equals("kind") ? fault.path("properties").path("kind") : first.path("properties").path(f);
      String phrase = f.equals("for") ? value(schema.at("/$defs/positiveDuration"), "/$defs/positiveDuration", null)
          + ": how long it lasts; not on " + String.join(", ", lastsToEnd) + ", which last until the run ends"
          : value(spec, at, "`" + f + "`");
      out.append("| `").append(f).append('`').append(required.contains(f) ? " (required)" : "").append(" | ")
          .append(cell(phrase)).append(" |\n");
    }
    out.append("\nA kind's own fields: the table of fault kinds above.\n");
  }

  /** A branch's fields on one line: {@code `field` (required): value; ...}. */
  private String inline(JsonNode b, String pointer) {
    Set<String> required = required(b);
    List<String> parts = new ArrayList<>();
    b.path("properties").fields().forEachRemaining(e -> parts.add("`" + e.getKey() + "`"
        + (required.contains(e.getKey()) ? " (required)" : "") + " "
        + value(e.getValue(), pointer + "/properties/" + escape(e.getKey()), "`" + e.getKey() + "`")));
    return String.join("; ", parts);
  }

  /**
   * What a field allows, then what it is for; {@code title}, when not null, heads a section of its own
   * if the field is an object or a choice of objects.
   */
  private String value(JsonNode f, String pointer, String title) {
    String description = f.path("description").asText(null);
    JsonNode n = f;
    String at = pointer;
    if (f.has("$ref")) {
      at = f.get("$ref").asText().substring(1);
      n = schema.at(at);
      if (description == null && !n.has("title")) {
        description = n.path("description").asText(null);
      }
    } else if (f.has("title")) {
      description = null;
    }
    String phrase;
    if (sectionOf(n) && title != null) {
      if (!sections.containsKey(at)) {
        String unique = titles.add(title) ? title : title + " of " + current;
        titles.add(unique);
        sections.put(at, unique);
        pending.add(new String[] {unique, at});
      }
      title = sections.get(at);
      phrase = (n.has("oneOf") ? "one of the forms under " : "an object: see ") + title + " below";
    } else {
      phrase = shape(n, at, title);
    }
    return description == null ? phrase : phrase + ": " + description;
  }

  private static String each(String title) {
    return title == null ? null : "each of " + title;
  }

  private static boolean sectionOf(JsonNode n) {
    if (n.has("properties")) {
      return true;
    }
    for (JsonNode b : n.path("oneOf")) {
      if (b.has("properties")) {
        return true;
      }
    }
    return false;
  }

  private String shape(JsonNode n, String at, String title) {
    if (n.has("title")) {
      return n.get("title").asText();
    }
    if (n.has("oneOf")) {
      List<String> forms = new ArrayList<>();
      for (int i = 0; i < n.get("oneOf").size(); i++) {
        forms.add(value(n.get("oneOf").get(i), at + "/oneOf/" + i, null));
      }
      return String.join("; or ", forms);
    }
    if (n.has("enum")) {
      return choice(names(n.get("enum"), "`\""));
    }
    if (n.has("const")) {
      return "`\"" + n.get("const").asText() + "\"`";
    }
    JsonNode type = n.path("type");
    if (type.isArray()) {
      return "a " + choice(names(type, ""));
    }
    return switch (type.asText()) {
      case "integer" -> "an integer" + bounds(n);
      case "number" -> "a number" + bounds(n);
      case "boolean" -> "true or false";
      case "string" -> n.path("pattern").asText().equals("\\S") ? "a non-blank string"
          : n.path("minLength").asInt() > 0 ? "a non-empty string" : "a string";
      case "array" -> list(n, at, title);
      case "object" -> map(n, at, title);
      default -> throw new IllegalStateException("the scenario schema has a form the reference cannot say at " + at);
    };
  }

  private String list(JsonNode n, String at, String title) {
    StringBuilder s = new StringBuilder("a list");
    if (n.path("uniqueItems").asBoolean()) {
      s.append(" of distinct values");
    }
    if (n.has("prefixItems")) {
      s.append(" of ").append(n.path("minItems").asInt()).append(": ");
      List<String> items = new ArrayList<>();
      for (int i = 0; i < n.get("prefixItems").size(); i++) {
        items.add(value(n.get("prefixItems").get(i), at + "/prefixItems/" + i, null));
      }
      return s.append(String.join(", ", items)).toString();
    }
    if (n.path("minItems").asInt() > 0) {
      s.append(", at least ").append(n.get("minItems").asInt());
    }
    return s.append(", each ").append(value(n.path("items"), at + "/items", each(title))).toString();
  }

  private String map(JsonNode n, String at, String title) {
    StringBuilder s = new StringBuilder("an object");
    if (n.path("minProperties").asInt() > 0) {
      int least = n.get("minProperties").asInt();
      s.append(" of at least ").append(least == 1 ? "one entry" : least + " entries");
    }
    if (n.has("propertyNames")) {
      s.append(", names matching `").append(n.path("propertyNames").path("pattern").asText()).append('`');
    } else {
      s.append(", any names");
    }
    return s.append(", each ").append(value(n.path("additionalProperties"), at + "/additionalProperties", each(title)))
        .toString();
  }

  private static String bounds(JsonNode n) {
    List<String> b = new ArrayList<>();
    if (n.has("minimum") && n.has("maximum")) {
      return " from " + n.get("minimum").asText() + " to " + n.get("maximum").asText();
    }
    if (n.has("minimum")) {
      b.add(n.get("minimum").asText() + " or more");
    }
    if (n.has("exclusiveMinimum")) {
      b.add("above " + n.get("exclusiveMinimum").asText());
    }
    if (n.has("maximum")) {
      b.add("at most " + n.get("maximum").asText());
    }
    if (n.has("exclusiveMaximum")) {
      b.add("below " + n.get("exclusiveMaximum").asText());
    }
    return b.isEmpty() ? "" : ", " + String.join(" and ", b);
  }

  /** The units, once: each titled {@code $defs} entry with its description. */
  private void units() {
    out.append("\nUnits:\n\n");
    schema.path("$defs").fields().forEachRemaining(e -> {
      if (e.getValue().has("title")) {
        String title = e.getValue().get("title").asText();
        String description = e.getValue().path("description").asText();
        out.append("- ").append(description.startsWith(title) ? description : title + ": " + description).append('\n');
      }
    });
  }

  private static Set<String> required(JsonNode n) {
    Set<String> r = new HashSet<>();
    n.path("required").forEach(x -> r.add(x.asText()));
    return r;
  }

  private static List<String> names(JsonNode array, String quote) {
    String close = new StringBuilder(quote).reverse().toString();
    return StreamSupport.stream(array.spliterator(), false).map(x -> quote + x.asText() + close).toList();
  }

  private static String choice(List<String> names) {
    return names.size() == 1 ? names.get(0)
        : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
  }

  /** A table cell: a pipe in it (a pattern's) would end the cell. */
  private static String cell(String text) {
    return text.replace("|", "\\|");
  }

  private static String escape(String field) {
    return field.replace("~", "~0").replace("/", "~1");
  }
}
