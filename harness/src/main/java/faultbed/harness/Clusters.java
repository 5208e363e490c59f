package faultbed.harness;

import faultbed.faults.PreconditionFailed;
import java.util.List;
import java.util.function.Consumer;

/** Starts the cluster a spec asks for, on the backend it names. */
public final class Clusters {
  private Clusters() {}

  /**
   * Checks what the backend needs of this host (one line why not, as {@link PreconditionFailed}),
   * heals what dead harnesses left, then starts; each healed item and step goes to {@code log}.
   */
  public static Cluster start(ClusterSpec spec, Consumer<String> log) {
    List<String> problems = spec.backend().problems(spec);
    if (!problems.isEmpty()) {
      throw new PreconditionFailed(problems.get(0));
    }
    return spec.backend().start(spec, log);
  }

  public static Cluster start(ClusterSpec spec) {
    return start(spec, line -> System.err.println("faultbed: " + line));
  }
}
