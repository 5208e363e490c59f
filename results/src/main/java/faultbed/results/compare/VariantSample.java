package faultbed.results.compare;

import java.util.List;

/** One variant's outcome: how many runs, how many failed, and the completion times (s) of the rest. */
public record VariantSample(String variant, int runs, int failed, List<Double> completionSeconds) {
  public VariantSample {
    completionSeconds = List.copyOf(completionSeconds);
    if (runs != failed + completionSeconds.size()) {
      throw new IllegalArgumentException(variant + ": runs " + runs + " != failed " + failed
          + " + completion times " + completionSeconds.size());
    }
  }

  public double[] times() {
    return completionSeconds.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
