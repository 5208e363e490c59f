package faultbed.results;

/**
 * A field of a scenario file that the results side reads from the suite's copy of it ("expect",
 * "sequential") and cannot take: which field, and what was expected there, so the parser can say
 * it in its one line.
 */
public class InvalidField extends IllegalArgumentException {
  private final String field;
  private final String expected;

  public InvalidField(String field, String expected) {
    super(field + ": " + expected);
    this.field = field;
    this.expected = expected;
  }

  public String field() {
    return field;
  }

  public String expected() {
    return expected;
  }
}
