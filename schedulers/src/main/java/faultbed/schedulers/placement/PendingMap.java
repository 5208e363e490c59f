package faultbed.schedulers.placement;

import java.util.List;

/**
 * A map waiting for a container, as placement sees it.
 *
 * @param id           the attempt's name
 * @param inputBytes   its split's length (the seed's DS)
 * @param replicaHosts the hosts holding a replica of its split; a read goes to the nearest of them
 */
public record PendingMap(String id, long inputBytes, List<String> replicaHosts) {
  public PendingMap {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("id: expected an attempt's name, got " + id);
    }
    if (inputBytes < 0) {
      throw new IllegalArgumentException("inputBytes: expected 0 or more, got " + inputBytes);
    }
    replicaHosts = List.copyOf(replicaHosts);
  }
}
