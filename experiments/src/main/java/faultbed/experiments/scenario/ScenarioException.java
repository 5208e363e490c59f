package faultbed.experiments.scenario;

/** A scenario that cannot run, with the field at fault and what was expected there. */
public final class ScenarioException extends RuntimeException {
  /** Beyond this a message is cut in the middle: a value of thousands of characters echoed back is no clear line. */
  static final int MOST_CHARACTERS = 900;

  private final String field;

  public ScenarioException(String field, String expected) {
    super(oneLine(field + ": " + expected));
    this.field = field;
  }

  public String field() {
    return field;
  }

  /**
   * The message as one line a person reads: a control character or line break in a value echoed
   * back written as JSON writes it ({@code \n}, {@code \u0000}), and a huge value cut in the middle,
   * keeping the field and what was expected.
   */
  public static String oneLine(String message) {
    StringBuilder s = new StringBuilder(message.length());
    for (char c : message.toCharArray()) {
      switch (c) {
        case '\n' -> s.append("\\n");
        case '\r' -> s.append("\\r");
        case '\t' -> s.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f || c == 0x85 || c == '\u2028' || c == '\u2029') {
            s.append(String.format("\\u%04x", (int) c));
          } else {
            s.append(c);
          }
        }
      }
    }
    if (s.length() <= MOST_CHARACTERS) {
      return s.toString();
    }
    int head = MOST_CHARACTERS / 2;
    int tail = s.length() - MOST_CHARACTERS / 4;
    // not between the two halves of a character outside the BMP
    head -= Character.isLowSurrogate(s.charAt(head)) ? 1 : 0;
    tail += Character.isLowSurrogate(s.charAt(tail)) ? 1 : 0;
    return s.substring(0, head) + " [... " + (tail - head) + " characters ...] " + s.substring(tail);
  }
}
