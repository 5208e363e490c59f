package faultbed.schedulers;

/** Whether a backup may run on the node YARN placed it on, and why. */
public record NodeVerdict(boolean accepted, String reason) {
  public static NodeVerdict accept(String reason) {
    return new NodeVerdict(true, reason);
  }

  public static NodeVerdict refuse(String reason) {
    return new NodeVerdict(false, reason);
  }
}
