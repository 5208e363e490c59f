package faultbed.harness;

import faultbed.harness.containers.ContainerCluster;
import faultbed.harness.mini.MiniCluster;
import faultbed.harness.ns.NamespaceCluster;
import faultbed.harness.remote.RemoteCluster;
import java.util.function.Consumer;

/** Starts the cluster a spec asks for, on the backend it names. */
public final class Clusters {
  private Clusters() {}

  /** Heals what dead harnesses left, then starts; each healed item and step goes to {@code log}. */
  public static Cluster start(ClusterSpec spec, Consumer<String> log) {
    return switch (spec.backend()) {
      case MINI -> MiniCluster.start(spec, log);
      case NAMESPACE -> NamespaceCluster.start(spec, log);
      case CONTAINERS -> ContainerCluster.start(spec, log);
      case REMOTE -> RemoteCluster.start(spec, log);
    };
  }

  public static Cluster start(ClusterSpec spec) {
    return start(spec, line -> System.err.println("faultbed: " + line));
  }
}
