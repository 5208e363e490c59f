package faultbed.schedulers.placement;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Measured bandwidth between pairs of hosts (the seed's BW), in bytes a second, in the direction
 * data flows. A read within a host costs no network. A pair nobody measured is taken at the
 * median of the pairs that were, so one missing measurement neither attracts nor repels a task.
 */
public final class Bandwidths {
  private final Map<String, Map<String, Double>> rates;
  private final double median;

  private Bandwidths(Map<String, Map<String, Double>> rates) {
    this.rates = rates;
    List<Double> all = rates.values().stream().flatMap(m -> m.values().stream()).sorted().toList();
    this.median = all.isEmpty() ? Double.NaN
        : all.size() % 2 == 1 ? all.get(all.size() / 2) : (all.get(all.size() / 2 - 1) + all.get(all.size() / 2)) / 2;
  }

  public static Bandwidths none() {
    return new Bandwidths(Map.of());
  }

  /** Builds a matrix one measurement at a time; a later measurement of a pair replaces the earlier. */
  public static Builder builder() {
    return new Builder();
  }

  /** Whether anything was measured; without it network-aware placement has nothing to go on. */
  public boolean isEmpty() {
    return rates.isEmpty();
  }

  /** The measured rate from one host to another, if measured. */
  public OptionalDouble measured(String from, String to) {
    Double r = rates.getOrDefault(from, Map.of()).get(to);
    return r == null ? OptionalDouble.empty() : OptionalDouble.of(r);
  }

  /** The rate from one host to another: infinite within a host, the median for a pair not measured. */
  public double bytesPerSecond(String from, String to) {
    if (from.equals(to)) {
      return Double.POSITIVE_INFINITY;
    }
    return measured(from, to).orElse(median);
  }

  public static final class Builder {
    private final Map<String, Map<String, Double>> rates = new LinkedHashMap<>();

    public Builder rate(String from, String to, double bytesPerSecond) {
      if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
        throw new IllegalArgumentException("bytesPerSecond: expected a positive rate, got " + bytesPerSecond
            + " (" + from + " -> " + to + ")");
      }
      rates.computeIfAbsent(from, k -> new LinkedHashMap<>()).put(to, bytesPerSecond);
      return this;
    }

    public Bandwidths build() {
      Map<String, Map<String, Double>> copy = new LinkedHashMap<>();
      rates.forEach((k, v) -> copy.put(k, Map.copyOf(v)));
      return new Bandwidths(copy);
    }
  }
}
