package faultbed.experiments.scenario;

/** A scenario that cannot run, with the field at fault and what was expected there. */
public final class ScenarioException extends RuntimeException {
  private final String field;

  public ScenarioException(String field, String expected) {
    super(field + ": " + expected);
    this.field = field;
  }

  public String field() {
    return field;
  }
}
