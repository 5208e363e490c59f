package faultbed.schedulers.yarn;

import java.util.Collection;
import java.util.Map;

/**
 * The few lines of JSON the decision log needs. The AM's classpath is Hadoop's, so the speculator
 * carries no JSON library of its own; the harness reads these lines back with Jackson.
 */
final class Json {
  private Json() {}

  static String write(Object v) {
    StringBuilder b = new StringBuilder();
    append(b, v);
    return b.toString();
  }

  private static void append(StringBuilder b, Object v) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof Number n) {
      double d = n.doubleValue();
      b.append(Double.isFinite(d) ? n.toString() : "null");
    } else if (v instanceof Boolean) {
      b.append(v);
    } else if (v instanceof Map<?, ?> m) {
      b.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) {
          b.append(',');
        }
        first = false;
        string(b, String.valueOf(e.getKey()));
        b.append(':');
        append(b, e.getValue());
      }
      b.append('}');
    } else if (v instanceof Collection<?> c) {
      b.append('[');
      boolean first = true;
      for (Object o : c) {
        if (!first) {
          b.append(',');
        }
        first = false;
        append(b, o);
      }
      b.append(']');
    } else {
      string(b, v.toString());
    }
  }

  private static void string(StringBuilder b, String s) {
    b.append('"');
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }
}
