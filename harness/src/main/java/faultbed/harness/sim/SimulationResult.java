package faultbed.harness.sim;

import java.util.List;

/**
 * What a simulated run produced.
 *
 * @param jobState       the job's final state as JobImpl reports it
 * @param completionTime virtual milliseconds from job start to the job finishing
 * @param attempts       every attempt of every task, by task then attempt
 */
public record SimulationResult(String jobState, long completionTime, List<SimulatedAttempt> attempts) {
  public SimulationResult {
    attempts = List.copyOf(attempts);
  }
}
