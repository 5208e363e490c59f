package faultbed.harness.timeline;

import faultbed.harness.Node;
import java.time.Duration;

/**
 * Something done to a node. A value: where it strikes is its target, when is the timeline's
 * business, and how long it lasts is its duration (none: until the run ends).
 */
public interface Fault {
  /** The name scenario files use, e.g. "crash". */
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

  /** Does it; returns what it observed and how to heal it. */
  Injection inject(Node node, FaultContext context);
}
