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

  /**
   * The measurements as lines of "from to bytesPerSecond", the form a node's bandwidth probe serves
   * them in.
   */
  public String toText() {
    StringBuilder out = new StringBuilder();
    rates.forEach((from, row) -> row.forEach((to, r) -> out.append(from).append(' ').append(to).append(' ')
        .append(Math.round(r)).append('\n')));
    return out.toString();
  }

  /** Adds the measurements of {@link #toText()}'s form to a builder; a line not of that form is an error. */
  public static Builder parse(String text, Builder into) {
    for (String line : text.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.trim().split("\\s+");
      if (f.length != 3) {
        throw new IllegalArgumentException("bandwidth line: expected \"from to bytesPerSecond\", got \"" + line + "\"");
      }
      into.rate(f[0], f[1], Double.parseDouble(f[2]));
    }
    return into;
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
