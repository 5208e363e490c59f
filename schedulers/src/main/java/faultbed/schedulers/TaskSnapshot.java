package faultbed.schedulers;

import java.util.List;
import java.util.Optional;

/**
 * One task and all its attempts so far.
 *
 * @param backedUp true once the adapter has launched a backup for this task (seeds allow one)
 */
public record TaskSnapshot(String id, TaskType type, TaskState state, List<AttemptSnapshot> attempts,
    boolean backedUp) {

  public TaskSnapshot {
    attempts = List.copyOf(attempts);
  }

  public List<AttemptSnapshot> activeAttempts() {
    return attempts.stream().filter(a -> a.state().active()).toList();
  }

  /**
   * The attempt a backup would race: the earliest-started running attempt, when exactly one attempt
   * is active. Empty when the task is not running or already has two attempts in flight.
   */
  public Optional<AttemptSnapshot> soleRunningAttempt() {
    List<AttemptSnapshot> active = activeAttempts();
    if (active.size() != 1 || active.get(0).state() != AttemptState.RUNNING) {
      return Optional.empty();
    }
    return Optional.of(active.get(0));
  }

  public Optional<AttemptSnapshot> successfulAttempt() {
    return attempts.stream().filter(a -> a.state() == AttemptState.SUCCEEDED).findFirst();
  }
}
