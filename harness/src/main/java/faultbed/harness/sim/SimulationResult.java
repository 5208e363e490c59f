package faultbed.harness.sim;

import faultbed.results.RunRecord.FaultEvent;
import faultbed.results.RunRecord.FetchFailureReport;
import faultbed.results.RunRecord.NodeTransition;
import faultbed.results.RunRecord.SpeculationEvent;
import java.util.List;

/**
 * What a simulated run produced, times in virtual milliseconds since the job started.
 *
 * @param jobId          the job's id, as Hadoop names it
 * @param jobState       the job's final state as JobImpl reports it
 * @param completionTime from job start to the job finishing
 * @param attempts       every attempt of every task, by task then attempt
 * @param faults         what became of each step of the fault timeline; node is an index into the cluster
 * @param speculation    the speculator's decisions, "backup" (and a policy's "placed"); nodes by index
 * @param nodeTransitions what the ResourceManager said of nodes that died (LOST, SHUTDOWN)
 * @param fetchFailures  each map output a reducer decided to report as not fetched; nodes by index
 * @param diagnostics    the job's diagnostics, as JobImpl has them
 * @param notes          what did not happen as the spec asked (a fault not injected)
 */
public record SimulationResult(String jobId, String jobState, long completionTime, List<SimulatedAttempt> attempts,
    List<FaultEvent> faults, List<SpeculationEvent> speculation, List<NodeTransition> nodeTransitions,
    List<FetchFailureReport> fetchFailures, List<String> diagnostics, List<String> notes) {
  public SimulationResult {
    attempts = List.copyOf(attempts);
    faults = List.copyOf(faults);
    speculation = List.copyOf(speculation);
    nodeTransitions = List.copyOf(nodeTransitions);
    fetchFailures = List.copyOf(fetchFailures);
    diagnostics = List.copyOf(diagnostics);
    notes = List.copyOf(notes);
  }
}
