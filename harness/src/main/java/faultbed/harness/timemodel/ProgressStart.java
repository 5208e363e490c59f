package faultbed.harness.timemodel;

import faultbed.results.RunRecord.AttemptRecord;
import java.util.List;
import java.util.OptionalLong;

/**
 * When a map began to report progress, read from its progress clock: until then its JVM started and
 * set up, and it reported nothing, which is what Hadoop's estimators see of it.
 *
 * <p>The clock is Hadoop's progress splits: the wall-clock time an attempt spent in each twelfth of
 * its progress, interpolated linearly between the status reports the AM received. So the twelfths
 * up to the first report that showed progress share its time evenly (the first of them also holds
 * the time up to a report that still showed none), and the map phase (progress to 2/3, then the sort)
 * runs from shortly before that report to the map's {@code mapFinishMs}. Its start is read as that
 * report's time less the time its progress took at the rate the phase kept after it. A map whose
 * first showing report came after its map phase ended says only that progress began between its
 * last report of none and that end: the middle is taken, when there was such a report.
 */
final class ProgressStart {
  private static final int TWELFTHS = 12;
  /** Where the map phase ends in a map's progress (its sort is the last third). */
  private static final int MAP_PHASE_TWELFTHS = 8;

  private ProgressStart() {}

  /** The time (as the record's, from the job's submission) the map's progress began, if its clock says. */
  static OptionalLong of(AttemptRecord a) {
    List<Integer> clock = a.progressClockMs();
    if (!"MAP".equals(a.type()) || clock == null || clock.size() < TWELFTHS || a.startMs() == null
        || a.mapFinishMs() == null) {
      return OptionalLong.empty();
    }
    long[] reached = new long[TWELFTHS]; // time from launch at which each twelfth was complete
    long sum = 0;
    for (int i = 0; i < TWELFTHS; i++) {
      sum += clock.get(i);
      reached[i] = sum;
    }
    int even = clock.get(1);
    long lastNone = reached[0] - even; // a report of no progress, or the launch (0)
    int first = 2; // the twelfths [1, first) share the first showing report's interval evenly
    while (first < TWELFTHS && Math.abs(clock.get(first) - even) <= Math.max(2, even / 50)) {
      first++;
    }
    long mapEnd = a.mapFinishMs() - a.startMs();
    long shown = reached[first - 1];
    long start;
    if (first < MAP_PHASE_TWELFTHS && mapEnd > shown) {
      double perTwelfth = (mapEnd - shown) / (double) (MAP_PHASE_TWELFTHS - first);
      start = Math.round(shown - first * perTwelfth);
    } else if (lastNone > 0) {
      start = (lastNone + Math.max(lastNone, mapEnd)) / 2; // somewhere between the report of none and the phase's end
    } else {
      return OptionalLong.empty();
    }
    start = Math.max(Math.max(0, lastNone), Math.min(start, mapEnd));
    return OptionalLong.of(a.startMs() + start);
  }
}
