package faultbed.experiments.scenario;

import faultbed.faults.Capability;
import faultbed.faults.ToxiproxyServer;
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
      if (v.cluster().backend() == faultbed.harness.NodeBackend.REMOTE) {
        continue; // faults act on the inventory's hosts, which the cluster's start checks over SSH
      }
      for (Timeline.Step s : v.timeline().steps()) {
        for (Capability c : s.fault().needs(v.cluster())) {
          c.problems().forEach(p -> problems.add("fault \"" + s.fault().kind() + "\" (variant " + v.name() + "): " + p));
        }
      }
    }
    return new ArrayList<>(problems);
  }

  /**
   * What the cluster itself needs, faults aside: the namespace backend's kernel parts, the
   * containers backend's Docker engine, a Toxiproxy server.
   */
  public static List<String> problems(faultbed.harness.ClusterSpec cluster) {
    LinkedHashSet<String> problems = new LinkedHashSet<>();
    if (cluster.backend() == faultbed.harness.NodeBackend.NAMESPACE) {
      for (Capability c : List.of(Capability.NETNS, Capability.IPTABLES)) {
        c.problems().forEach(p -> problems.add("cluster.backend \"namespace\": " + p));
      }
    }
    if (cluster.backend() == faultbed.harness.NodeBackend.CONTAINERS) {
      faultbed.faults.DockerEngine.unavailable().ifPresent(p -> problems.add("cluster.backend \"containers\": " + p));
    }
    if (cluster.backend() == faultbed.harness.NodeBackend.REMOTE && cluster.inventory() == null) {
      problems.add("cluster.backend \"remote\": expected an inventory of the cluster's hosts (cluster.inventory,"
          + " or --inventory FILE)");
    }
    if (cluster.network().isToxiproxy()) {
      // the server fronts every node's shuffle, faults or not
      (cluster.backend() == faultbed.harness.NodeBackend.MINI ? ToxiproxyServer.unavailable(cluster.network().toxiproxyUrl())
          : ToxiproxyServer.onNodes(cluster.network().toxiproxyUrl(), cluster.backend().label())).ifPresent(problems::add);
    }
    return new ArrayList<>(problems);
  }
}
