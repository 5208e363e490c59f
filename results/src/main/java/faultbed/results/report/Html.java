package faultbed.results.report;

/** Just enough HTML writing for the report: escaping, and a builder that appends. */
final class Html {
  private final StringBuilder sb = new StringBuilder();

  static String escape(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** Appends markup as is. */
  Html raw(String markup) {
    sb.append(markup);
    return this;
  }

  /** Appends text, escaped. */
  Html text(String text) {
    sb.append(escape(text));
    return this;
  }

  /** {@code <tag>escaped text</tag>}. */
  Html element(String tag, String text) {
    sb.append('<').append(tag).append('>').append(escape(text)).append("</").append(tag).append('>');
    return this;
  }

  @Override
  public String toString() {
    return sb.toString();
  }
}
