package faultbed.faults;

/** The machine lacks something a fault backend needs; the message says what and how to get it. */
public final class PreconditionFailed extends RuntimeException {
  public PreconditionFailed(String message) {
    super(message);
  }
}
