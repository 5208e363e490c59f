package faultbed.schedulers;

import java.util.Map;

/**
 * One attempt of a task as the AM last heard of it. Times are AM clock milliseconds; {@code -1}
 * means "not yet". {@code progress} is Hadoop's own score: a map's is map 2/3 + sort 1/3, a reduce's
 * copy, sort and reduce thirds (copy = maps fetched / maps).
 *
 * @param node         the NodeManager's id ("host:port"), or null while the attempt has no container
 * @param phaseStartMs the first moment each phase was seen (from status updates and the attempt's
 *                     own shuffle/sort finish times); phases the attempt never reached are absent
 * @param backup       true when this attempt was started as a speculative backup
 */
public record AttemptSnapshot(String id, String node, AttemptState state, double progress, Phase phase,
    long startMs, long finishMs, Map<Phase, Long> phaseStartMs, boolean backup) {

  public AttemptSnapshot {
    phaseStartMs = Map.copyOf(phaseStartMs == null ? Map.of() : phaseStartMs);
  }

  public boolean started() {
    return startMs >= 0;
  }

  /** Running time so far (or in all, once finished). */
  public long elapsedMs(long nowMs) {
    if (startMs < 0) {
      return 0;
    }
    return (finishMs >= 0 ? finishMs : nowMs) - startMs;
  }

  /** Progress per second since launch: LATE's ProgressScore / T. Zero before the attempt starts. */
  public double progressRate(long nowMs) {
    long t = elapsedMs(nowMs);
    return t <= 0 ? 0.0 : progress / (t / 1000.0);
  }
}
