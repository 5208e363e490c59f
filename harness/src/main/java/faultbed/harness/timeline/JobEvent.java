package faultbed.harness.timeline;

/** Job progress a fault can wait for. */
public sealed interface JobEvent {
  String describe();

  static JobEvent mapsCompleted(int n) {
    return new MapsCompleted(n);
  }

  /** Once {@code n} maps run at once: the job's first maps launched, none need have finished. */
  static JobEvent mapsRunning(int n) {
    return new MapsRunning(n);
  }

  static JobEvent reducerInShuffle() {
    return new ReducerInShuffle();
  }

  record MapsCompleted(int count) implements JobEvent {
    public MapsCompleted {
      if (count < 1) {
        throw new IllegalArgumentException("mapsCompleted: expected at least 1, got " + count);
      }
    }

    @Override
    public String describe() {
      return count + " maps completed";
    }
  }

  record MapsRunning(int count) implements JobEvent {
    public MapsRunning {
      if (count < 1) {
        throw new IllegalArgumentException("mapsRunning: expected at least 1, got " + count);
      }
    }

    @Override
    public String describe() {
      return count + " maps running";
    }
  }

  record ReducerInShuffle() implements JobEvent {
    @Override
    public String describe() {
      return "first reducer in shuffle";
    }
  }
}
