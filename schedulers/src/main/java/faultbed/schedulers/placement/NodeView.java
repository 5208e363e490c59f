package faultbed.schedulers.placement;

/**
 * A node a map could run on, as placement sees it.
 *
 * @param host             the node's host name, as containers and splits name it
 * @param availableInMs    how long until it can take a task (the seed's AT, from now): 0 when it has
 *                         a free slot, infinite when it is not taking work
 * @param computeMsPerByte how long its maps have computed per input byte, transfer excluded; NaN
 *                         when it has finished none
 */
public record NodeView(String host, double availableInMs, double computeMsPerByte) {
  public NodeView {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("host: expected a host name, got " + host);
    }
    if (!(availableInMs >= 0)) {
      throw new IllegalArgumentException("availableInMs: expected 0 or more, got " + availableInMs);
    }
    if (computeMsPerByte < 0) {
      throw new IllegalArgumentException("computeMsPerByte: expected 0 or more, or NaN, got " + computeMsPerByte);
    }
  }

  /** A node free now whose compute rate is not known yet. */
  public static NodeView freeNow(String host) {
    return new NodeView(host, 0, Double.NaN);
  }
}
