package faultbed.results.compare;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/** One variant's runs, each with what pairing and the tests need. */
public record VariantSample(String variant, List<Run> runs) {

  /**
   * One run: its index in the suite, its block (null when the suite did not run in blocks) and its
   * completion time in seconds (null when its job failed).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Run(int index, Integer block, Double seconds) {
    public boolean failed() {
      return seconds == null;
    }
  }

  public VariantSample {
    runs = List.copyOf(runs);
  }

  /** A sample known only by its times and failures (a baseline file of the first format): no blocks. */
  public static VariantSample unblocked(String variant, List<Double> completionSeconds, int failed) {
    List<Run> runs = new ArrayList<>();
    for (Double s : completionSeconds) {
      runs.add(new Run(runs.size(), null, s));
    }
    for (int i = 0; i < failed; i++) {
      runs.add(new Run(runs.size(), null, null));
    }
    return new VariantSample(variant, runs);
  }

  public int failed() {
    return (int) runs.stream().filter(Run::failed).count();
  }

  /** Completion times of the runs whose job succeeded, in run order. */
  public List<Double> completionSeconds() {
    return runs.stream().filter(r -> !r.failed()).map(Run::seconds).toList();
  }

  public double[] times() {
    return runs.stream().filter(r -> !r.failed()).mapToDouble(Run::seconds).toArray();
  }

  /** Every run has a block and no block holds two of them: the runs can be paired with another variant's. */
  public boolean blocked() {
    var blocks = new HashSet<Integer>();
    return !runs.isEmpty() && runs.stream().allMatch(r -> r.block() != null && blocks.add(r.block()));
  }
}
