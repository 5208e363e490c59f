package faultbed.experiments.cli;

import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.harness.Backend;
import faultbed.harness.Backends;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** What 'run' and 'cluster up' change of the scenario's cluster: its backend and Hadoop settings. */
final class ClusterOptions {
  @Option(names = "--backend", paramLabel = "B", description = "where the nodes run, instead of the scenario's:"
      + " mini (in-process), namespace (a process tree, address and cgroup per node; root) or containers (a"
      + " container per node, on a Docker engine) or remote (a YARN cluster faultbed did not start; with --inventory)")
  String backend;

  @Option(names = "--inventory", paramLabel = "FILE", description = "the hosts of a YARN cluster faultbed did not"
      + " start (schema/inventory.schema.json); its workers are the nodes. Implies --backend remote")
  java.nio.file.Path inventory;

  @Option(names = "-D", paramLabel = "KEY=VALUE", mapFallbackValue = "", description = "a Hadoop setting over the"
      + " scenario's, for every variant (as Hadoop's own -D); repeatable. Given as is: timeScale does not compress it")
  Map<String, String> hadoop = new LinkedHashMap<>();

  /** The backend asked for, or null for the scenario's. */
  Backend backend() {
    return backend == null ? null : ScenarioParser.backend(backend, "--backend");
  }

  /** The scenario on the backend and cluster asked for; one line naming the option when they do not fit. */
  faultbed.experiments.scenario.Scenario apply(faultbed.experiments.scenario.Scenario scenario) {
    Backend b = backend();
    if (inventory != null && b != null && !b.usesExistingCluster()) {
      throw new ScenarioException("--inventory", "names a cluster faultbed did not start; expected --backend "
          + Backends.forInventory().name() + " or none, got --backend " + backend);
    }
    String option = "--backend";
    if (b != null) {
      scenario = scenario.withBackend(b);
    }
    if (inventory != null) {
      option = "--inventory";
      try {
        scenario = scenario.withInventory(faultbed.experiments.scenario.InventoryParser.parse(inventory));
      } catch (ScenarioException e) {
        throw new ScenarioException("--inventory", inventory + ": " + e.getMessage());
      }
    }
    if (b != null || inventory != null) {
      for (var v : scenario.variants()) {
        ScenarioParser.checkNetwork(v, option + ": variants." + v.name() + ".");
      }
    }
    return scenario;
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
