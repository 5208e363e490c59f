package faultbed.harness.timeline;

import faultbed.harness.Node;
import java.time.Duration;

/**
 * Something done to a node. A value: where it strikes is its target, when is the timeline's
 * business, and how long it lasts is its duration (none: until the run ends).
 */
public interface Fault {
  /** The name scenario files use, e.g. "crash": its {@link FaultKind}'s. */
  String kind();

  Target target();

  /** How long the fault lasts before it is healed; null lasts until the job ends. */
  default Duration duration() {
    return null;
  }

  /** Whether the node must still be up; network faults also apply to a crashed node's ports. */
  default boolean needsLiveNode() {
    return true;
  }

  /**
   * What of the host it needs on {@code cluster}'s node and network backends (Toxiproxy needs
   * nothing of the kernel; the namespace and containers backends pull a node's own link; the
   * containers backend limits a node through Docker). Killing, freezing and loading a node need
   * nothing: see {@link faultbed.faults.Capability}.
   */
  default java.util.Set<faultbed.faults.Capability> needs(faultbed.harness.ClusterSpec cluster) {
    return java.util.Set.of();
  }

  /** Why {@code cluster}'s backends cannot make this fault at all, whatever the host has, and the field to blame. */
  default java.util.Optional<Unsupported> unsupported(faultbed.harness.ClusterSpec cluster) {
    return java.util.Optional.empty();
  }

  /** A fault's field ("kind" for the fault itself) that a cluster's backends cannot honour, and why. */
  record Unsupported(String field, String why) {}

  /** Does it; returns what it observed and how to heal it. */
  Injection inject(Node node, FaultContext context);
}
