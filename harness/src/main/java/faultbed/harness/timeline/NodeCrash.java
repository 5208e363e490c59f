package faultbed.harness.timeline;

import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The seeds' "TaskTracker kill": the node's NodeManager and all its containers die at once,
 * unannounced. Its ports then refuse connections (TCP RST), as a killed process on a live host
 * does. With {@code suppressRst} the node is silenced first (its RSTs dropped in-process; its link
 * pulled where it has one of its own), so peers see a machine that stopped answering: seed 003's
 * whole-node failure, where every connect waits for its timeout.
 */
public record NodeCrash(Target target, boolean suppressRst) implements Fault {
  public static final FaultKind KIND = FaultKind.kind("crash", FaultEffect.KILLS)
      .does("the NodeManager and its containers killed (SIGKILL); lasts until the run ends",
          "NodeManager and all its containers die at once; the RM is not told (LOST only at expiry); its ports refuse"
              + " connections")
      .lasts(FaultKind.Lasts.UNTIL_RUN_ENDS)
      .param(FaultKind.Param.optional("suppressRst", FaultKind.Form.FLAG, "`suppressRst` (false): drop its RSTs first, so"
          + " its ports stop answering at all (a whole-machine failure)").noted("drop the node's RSTs too: a whole-machine failure"))
      .made((target, lasts, p) -> p.flag("suppressRst").orElse(false) ? NodeCrash.on(target).withoutRst() : NodeCrash.on(target),
          t -> List.of(new FaultKind.Example("crash", NodeCrash.on(t)),
              new FaultKind.Example("crash suppressRst", NodeCrash.on(t).withoutRst())));

  public static NodeCrash on(Target target) {
    return new NodeCrash(target, false);
  }

  /** A crash whose ports never answer, not even with a refusal. */
  public NodeCrash withoutRst() {
    return new NodeCrash(target, true);
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public java.util.Set<faultbed.faults.Capability> needs(faultbed.harness.ClusterSpec cluster) {
    return suppressRst && !cluster.network().isToxiproxy() ? cluster.backend().needs(faultbed.harness.Backend.Mechanism.SILENCE) : java.util.Set.of();
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    if (!suppressRst) {
      return Injection.permanent(node.crash());
    }
    // Silence first: not one refusal may escape between the crash and the rules (or the pulled link).
    List<Integer> ports = node.ports();
    var network = context.network(node);
    var rules = network.silence(context.runId(), ports);
    Map<String, String> detail = new LinkedHashMap<>();
    detail.put("rstSuppressed", "true");
    detail.put("network", network.name());
    detail.put("ports", ports.toString());
    detail.putAll(node.crash());
    return new Injection(detail, rules);
  }
}
