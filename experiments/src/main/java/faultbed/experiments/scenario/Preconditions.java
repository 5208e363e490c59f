package faultbed.experiments.scenario;

import faultbed.faults.Iptables;
import faultbed.faults.KernelBackend;
import faultbed.faults.ToxiproxyServer;
import faultbed.faults.TrafficControl;
import faultbed.harness.timeline.BandwidthCap;
import faultbed.harness.timeline.Blackhole;
import faultbed.harness.timeline.Latency;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.RstSuppression;
import faultbed.harness.timeline.Timeline;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/** What this machine lacks for a scenario's faults, one line each with how to get it; checked before anything starts. */
public final class Preconditions {
  private Preconditions() {}

  public static List<String> problems(Scenario scenario) {
    LinkedHashSet<String> problems = new LinkedHashSet<>(KernelBackend.problems());
    for (Variant v : scenario.variants()) {
      if (v.cluster().backend() == faultbed.harness.NodeBackend.NAMESPACE) {
        problems.addAll(faultbed.faults.NodeNetwork.problems());
        problems.addAll(Iptables.problems()); // heartbeat pauses and RST rules live in the node's namespace
      }
      var network = v.cluster().network();
      if (network.isToxiproxy()) {
        // the server fronts every node's shuffle, faults or not
        ToxiproxyServer.unavailable(network.toxiproxyUrl()).ifPresent(problems::add);
        continue; // its network faults need neither iptables nor tc
      }
      for (Timeline.Step s : v.timeline().steps()) {
        if (s.fault() instanceof RstSuppression || s.fault() instanceof Blackhole
            || s.fault() instanceof NodeCrash c && c.suppressRst()) {
          problems.addAll(Iptables.problems());
        }
        if (s.fault() instanceof BandwidthCap) {
          problems.addAll(TrafficControl.problems());
        }
        if (s.fault() instanceof Latency) {
          problems.addAll(TrafficControl.latencyProblems());
        }
      }
    }
    return new ArrayList<>(problems);
  }
}
