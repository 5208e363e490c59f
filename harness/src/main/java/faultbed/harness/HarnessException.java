package faultbed.harness;

/** Something in the cluster or a run went wrong in a way the harness cannot recover from. */
public class HarnessException extends RuntimeException {
  public HarnessException(String message) {
    super(message);
  }

  public HarnessException(String message, Throwable cause) {
    super(message, cause);
  }
}
