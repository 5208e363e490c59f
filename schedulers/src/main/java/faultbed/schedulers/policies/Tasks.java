package faultbed.schedulers.policies;

import faultbed.schedulers.AttemptSnapshot;
import faultbed.schedulers.AttemptState;
import faultbed.schedulers.TaskSnapshot;
import faultbed.schedulers.TaskState;
import java.util.Comparator;
import java.util.Optional;

/** Snapshot questions every policy asks the same way. */
final class Tasks {
  private Tasks() {}

  /**
   * The attempt a backup would race, if the task may get one at all: the task runs, has exactly one
   * attempt in flight, and was never backed up (every seed allows one backup per task).
   */
  static Optional<AttemptSnapshot> raceable(TaskSnapshot t) {
    if (t.state() != TaskState.RUNNING || t.backedUp()) {
      return Optional.empty();
    }
    return t.soleRunningAttempt();
  }

  /** Hadoop's task progress: 1 once it succeeded, else its best running attempt's score. */
  static double progress(TaskSnapshot t) {
    if (t.state() == TaskState.SUCCEEDED) {
      return 1.0;
    }
    return t.attempts().stream().filter(a -> a.state() == AttemptState.RUNNING)
        .mapToDouble(AttemptSnapshot::progress).max().orElse(0.0);
  }

  /**
   * The rate of the task's fastest running attempt (the one its statistics should count), by the
   * policy's own measure of rate; empty when no attempt has run yet.
   */
  static java.util.OptionalDouble fastestRate(TaskSnapshot t, long nowMs,
      java.util.function.ToDoubleFunction<AttemptSnapshot> rate) {
    return t.attempts().stream()
        .filter(a -> a.state() == AttemptState.RUNNING && a.elapsedMs(nowMs) > 0)
        .mapToDouble(rate).max();
  }

  /** The earliest-started running attempt that is not a backup: what a placed backup races. */
  static Optional<AttemptSnapshot> original(TaskSnapshot t) {
    return t.attempts().stream()
        .filter(a -> !a.backup() && a.state() == AttemptState.RUNNING)
        .min(Comparator.comparingLong(AttemptSnapshot::startMs));
  }
}
