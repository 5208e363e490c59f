package faultbed.harness.workload;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Factory for the workloads, with the defaults used when a scenario does not say otherwise. */
public final class Workloads {
  public static final int DEFAULT_MAPS = 8;
  public static final int DEFAULT_REDUCES = 2;
  public static final long DEFAULT_MAP_MILLIS = 10_000;
  public static final long DEFAULT_REDUCE_MILLIS = 5_000;
  public static final int DEFAULT_RECORDS_PER_MAP = 1000;

  private static final Pattern SIZE =
      Pattern.compile("\\s*(\\d+)\\s*(B|K|KB|KIB|M|MB|MIB|G|GB|GIB|T|TB|TIB)?\\s*");

  private Workloads() {}

  /** Sort of {@code bytes} of random 100-byte records, 8 maps and 2 reduces. */
  public static SortWorkload sort(long bytes) {
    return new SortWorkload(bytes, DEFAULT_MAPS, DEFAULT_REDUCES);
  }

  /** Word count over {@code bytes} of Zipf-distributed text, 8 maps and 2 reduces. */
  public static WordCountWorkload wordcount(long bytes) {
    return new WordCountWorkload(bytes, DEFAULT_MAPS, DEFAULT_REDUCES);
  }

  /** Synthetic job with 10 s maps, 5 s reduces and 1000 shuffled records per map. */
  /** A CPU-bound job whose maps follow their CPU share with more or fewer threads (see {@link ElasticWorkload}). */
  public static ElasticWorkload elastic(int maps) {
    return new ElasticWorkload(maps, 1, 40, 400_000);
  }

  public static SyntheticWorkload synthetic(int maps, int reduces) {
    return new SyntheticWorkload(maps, reduces, DEFAULT_MAP_MILLIS, DEFAULT_REDUCE_MILLIS,
        List.of(), DEFAULT_RECORDS_PER_MAP, List.of());
  }

  /**
   * Parses a size such as {@code "256MB"}, {@code "64KB"}, {@code "1GB"} or {@code "1048576"}.
   * Units are binary (KB = 1024) and case-insensitive.
   */
  public static long parseBytes(String text) {
    if (text == null) {
      throw new IllegalArgumentException("byte size: expected e.g. 256MB, got null");
    }
    Matcher m = SIZE.matcher(text.toUpperCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("byte size: expected a whole number with an optional unit"
          + " B, KB, MB, GB or TB (binary, KB = 1024), e.g. 256MB, got '" + text + "'");
    }
    String unit = m.group(2) == null ? "B" : m.group(2);
    int shift = switch (unit.charAt(0)) {
      case 'K' -> 10;
      case 'M' -> 20;
      case 'G' -> 30;
      case 'T' -> 40;
      default -> 0;
    };
    try {
      long number = Long.parseLong(m.group(1));
      if (number > (Long.MAX_VALUE >> shift)) {
        throw new NumberFormatException();
      }
      return number << shift;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("byte size: '" + text + "' is too large", e);
    }
  }

  static long requireAtLeast(String name, long min, long value) {
    if (value < min) {
      throw new IllegalArgumentException(
          "workload." + name + ": expected at least " + min + ", got " + value);
    }
    return value;
  }
}
