package faultbed.experiments.scenario;

import faultbed.faults.Capability;
import faultbed.harness.timeline.Timeline;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What this machine lacks for a scenario, one line each naming the fault kind and how to get what
 * it needs; checked before anything starts. The fault kinds say what they need, so this check,
 * {@code doctor} and the faults themselves agree.
 */
public final class Preconditions {
  private Preconditions() {}

  public static List<String> problems(Scenario scenario) {
    LinkedHashSet<String> problems = new LinkedHashSet<>();
    for (Variant v : scenario.variants()) {
      problems.addAll(problems(v.cluster()));
      for (Timeline.Step s : v.timeline().steps()) {
        for (Capability c : s.fault().needs(v.cluster())) {
          c.problems().forEach(p -> problems.add("fault \"" + s.fault().kind() + "\" (variant " + v.name() + "): " + p));
        }
      }
    }
    return new ArrayList<>(problems);
  }

  /** What the cluster itself needs of this host, faults aside: its backend says. */
  public static List<String> problems(faultbed.harness.ClusterSpec cluster) {
    return cluster.backend().problems(cluster);
  }
}
