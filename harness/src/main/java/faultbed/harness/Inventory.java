package faultbed.harness;

import faultbed.faults.remote.SshTarget;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A YARN cluster faultbed did not start, as its inventory file describes it: the Hadoop client
 * configuration folder jobs are submitted with, the ResourceManager and JobHistory server where
 * the configuration does not say (or says otherwise), and each worker host with how to reach it
 * over SSH and become root there. Faults go only to the workers listed here.
 *
 * @param resourceManager host:port of the RM's client service, or null for the configuration's
 * @param jobHistory host:port of the JobHistory server's web service, or null for the configuration's
 * @param nodeManagerStart by worker name, the command (run as root) that starts its NodeManager
 *     again after a crash; a worker without one cannot be brought back between runs
 */
public record Inventory(String name, Path clientConfig, String resourceManager, String jobHistory,
    List<SshTarget> workers, Map<String, List<String>> nodeManagerStart) {
  public Inventory {
    workers = List.copyOf(workers);
    nodeManagerStart = Map.copyOf(nodeManagerStart == null ? Map.of() : nodeManagerStart);
  }

  /** The worker called {@code name}, if the inventory lists one. */
  public Optional<SshTarget> worker(String name) {
    return workers.stream().filter(w -> w.name().equals(name)).findFirst();
  }
}
