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

  /** What it does to a node, as the analysis reads it: its kind's, unless a fault of a user's says otherwise. */
  default faultbed.results.FaultEffect effect() {
    return FaultKind.named(kind()).map(FaultKind::effect).orElse(faultbed.results.FaultEffect.NONE);
  }

  /** How long the fault lasts before it is healed; null lasts until the job ends. */
  default Duration duration() {
    return null;
  }

  /** Whether the node must still be up; network faults also apply to a crashed node's ports. */
  default boolean needsLiveNode() {
    return true;
  }

  /**
   * What of the host it needs on {@code cluster}'s node and network backends: Toxiproxy needs
   * nothing of the kernel; otherwise the node backend says what the fault's
   * {@link faultbed.harness.Backend.Mechanism} needs there. Killing, freezing and loading a node
   * need nothing: see {@link faultbed.faults.Capability}.
   */
  default java.util.Set<faultbed.faults.Capability> needs(faultbed.harness.ClusterSpec cluster) {
    return java.util.Set.of();
  }

  /**
   * Why {@code cluster}'s backends cannot make this fault at all, whatever the host has, and the
   * field to blame: here, a node backend that makes no fault of this kind; a fault whose fields
   * need more asks its backends in terms of {@link faultbed.harness.Backend.Mechanism}.
   */
  default java.util.Optional<Unsupported> unsupported(faultbed.harness.ClusterSpec cluster) {
    return cluster.backend().refusesKind(kind()).map(why -> new Unsupported("kind", why));
  }

  /** A fault's field ("kind" for the fault itself) that a cluster's backends cannot honour, and why. */
  record Unsupported(String field, String why) {}

  /** Does it; returns what it observed and how to heal it. */
  Injection inject(Node node, FaultContext context);
}
