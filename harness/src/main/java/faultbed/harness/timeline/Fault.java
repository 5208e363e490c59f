package faultbed.harness.timeline;

import faultbed.harness.Node;
import java.util.Map;

/** Something done to a node. A value: where it strikes is its target, when is the timeline's business. */
public interface Fault {
  /** The name scenario files use, e.g. "crash". */
  String kind();

  Target target();

  /** Does it; returns what it observed for the record. */
  Map<String, String> inject(Node node);
}
