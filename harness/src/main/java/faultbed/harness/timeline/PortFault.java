package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.harness.Node;
import java.util.List;
import java.util.Map;

/**
 * A network fault on a node's TCP ports. It applies to a crashed node too (its ports stay its
 * own), and the record names the ports it hit: all of them on the kernel backend, the proxied
 * shuffle port on Toxiproxy.
 */
public interface PortFault extends Fault {
  /** Installs the fault on these ports. */
  Installed apply(Node node, List<Integer> ports, FaultContext context);

  /** What the record should show besides the ports (a rate, a delay). */
  default Map<String, String> parameters() {
    return Map.of();
  }

  /** How the kernel makes it on a node: what the node backend maps to what it needs of the host. */
  faultbed.harness.Backend.Mechanism mechanism();

  /** Why a Toxiproxy proxy cannot make it, where it cannot; empty where a toxic does. */
  default java.util.Optional<String> notByProxy() {
    return java.util.Optional.empty();
  }

  /** Toxiproxy needs nothing of the kernel; otherwise the node backend says what the mechanism needs. */
  @Override
  default java.util.Set<faultbed.faults.Capability> needs(faultbed.harness.ClusterSpec cluster) {
    return cluster.network().isToxiproxy() ? java.util.Set.of() : cluster.backend().needs(mechanism());
  }

  /** Its kind refused on the backend, by a proxy, or its mechanism refused by the node backend. */
  @Override
  default java.util.Optional<Unsupported> unsupported(faultbed.harness.ClusterSpec cluster) {
    var kind = Fault.super.unsupported(cluster);
    if (kind.isPresent()) {
      return kind;
    }
    if (cluster.network().isToxiproxy()) {
      return notByProxy().map(why -> new Unsupported("kind", why + "; use cluster.network \"kernel\" for this fault"));
    }
    return cluster.backend().refuses(mechanism()).map(why -> new Unsupported("kind", why));
  }

  @Override
  default boolean needsLiveNode() {
    return false;
  }

  @Override
  default Injection inject(Node node, FaultContext context) {
    List<Integer> ports = context.network(node).reach(node.ports());
    Map<String, String> detail = new java.util.LinkedHashMap<>(parameters());
    detail.put("ports", ports.toString());
    detail.put("network", context.network(node).name());
    return new Injection(detail, apply(node, ports, context));
  }
}
