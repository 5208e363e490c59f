package faultbed.harness.timeline;

import java.time.Duration;
import java.util.Optional;

/**
 * A fault's own fields as a scenario gives them, read by the scenario's reader: each getter is
 * empty where the field is absent, and a value of the wrong form ends in one line naming the
 * field, the value and what was expected.
 */
public interface FaultParams {
  Optional<Boolean> flag(String field);

  /** A whole number, at least {@code least}. */
  Optional<Integer> count(String field, int least);

  /** A size such as "1MB", in bytes. */
  Optional<Long> bytes(String field);

  /** A rate such as "1MB/s", in bytes per second. */
  Optional<Long> rate(String field);

  /** Cores of CPU, such as 0.25. */
  Optional<Double> cores(String field);

  /** A probability above 0 and below 1, such as 0.05 or "5%". */
  Optional<Double> probability(String field);

  /** One of {@code values}, as written. */
  Optional<String> choice(String field, java.util.List<String> values);

  /** Indices (of nodes, of a node's disks), at least one, none twice. */
  Optional<java.util.List<Integer>> indices(String field);

  /** A duration such as "50ms". */
  Optional<Duration> duration(String field);

  /** A signed duration other than zero, such as "+15m" or "-90s". */
  Optional<Duration> offset(String field);

  /** A number above 0 other than 1, such as 2 or 0.5. */
  Optional<Double> factor(String field);

  /**
   * The bad-input error for {@code field} (absent or unfit; null: the fault as a whole): "expected "
   * and {@code expected}.
   */
  RuntimeException invalid(String field, String expected);
}
