package faultbed.harness;

import java.util.Arrays;
import java.util.Locale;

/**
 * Where a cluster's worker nodes run. {@code mini}: NodeManagers inside the harness JVM (fast to
 * start and reset, nodes share the host's address). {@code namespace}: each node a process tree of
 * its own (DataNode, NodeManager and containers) in its own network namespace, address and cgroup,
 * so it dies, stalls and drops off the network the way a machine does; needs root.
 * {@code containers}: each node the same process tree in a Docker container of its own, with its
 * own address; needs a Docker engine, not root. {@code remote}: a YARN cluster faultbed did not
 * start, its workers reached over SSH as an inventory file lists them.
 */
public enum NodeBackend {
  MINI, NAMESPACE, CONTAINERS, REMOTE;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The backend called {@code name}; one line naming the choices otherwise. */
  public static NodeBackend of(String name, String field) {
    for (NodeBackend b : values()) {
      if (b.label().equals(name)) {
        return b;
      }
    }
    throw new IllegalArgumentException(field + ": expected one of "
        + Arrays.stream(values()).map(b -> "\"" + b.label() + "\"").toList() + ", got \"" + name + "\"");
  }
}
