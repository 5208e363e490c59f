package faultbed.experiments.cli;

import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.harness.NodeBackend;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** What 'run' and 'cluster up' change of the scenario's cluster: its backend and Hadoop settings. */
final class ClusterOptions {
  @Option(names = "--backend", paramLabel = "B", description = "where the nodes run, instead of the scenario's:"
      + " mini (in-process), namespace (a process tree, address and cgroup per node; root) or containers (a"
      + " container per node, on a Docker engine)")
  String backend;

  @Option(names = "-D", paramLabel = "KEY=VALUE", mapFallbackValue = "", description = "a Hadoop setting over the"
      + " scenario's, for every variant (as Hadoop's own -D); repeatable. Given as is: timeScale does not compress it")
  Map<String, String> hadoop = new LinkedHashMap<>();

  /** The backend asked for, or null for the scenario's. */
  NodeBackend backend() {
    return backend == null ? null : ScenarioParser.backend(backend, "--backend");
  }

  /** {@code -D} settings as Hadoop's GenericOptionsParser takes them: KEY=VALUE, neither empty. */
  Map<String, String> settings() {
    for (var e : hadoop.entrySet()) {
      if (e.getKey().isBlank() || e.getValue().isEmpty()) {
        throw new ScenarioException("-D", "expected KEY=VALUE, such as -D mapreduce.map.speculative=true, got \""
            + e.getKey() + (e.getValue().isEmpty() ? "" : "=" + e.getValue()) + "\"");
      }
    }
    return hadoop;
  }
}
