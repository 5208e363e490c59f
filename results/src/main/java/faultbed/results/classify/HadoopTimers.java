package faultbed.results.classify;

import java.util.Map;

/**
 * The failure-handling settings a run's record states, with Hadoop 3's defaults for any it does
 * not: what the classifier needs to tell one mechanism from another.
 */
record HadoopTimers(long expiryMs, long heartbeatMs, long nmConnectMaxWaitMs, int maxFetchFailures,
    long retryDelayMaxMs, int fetchFailureNotifications, double fetchFailureFraction,
    boolean mapSpeculative, long initialPenaltyMs) {

  /**
   * Hard-coded in the reducer's shuffle scheduler: first penalty 10 s (times the run's time scale,
   * which faultbed's agent applies), growing 1.3 times per failure.
   */
  static final long INITIAL_PENALTY_MS = 10_000;
  static final double PENALTY_GROWTH = 1.3;

  static HadoopTimers of(Map<String, String> hadoop, double timeScale) {
    return new HadoopTimers(
        number(hadoop, "yarn.nm.liveness-monitor.expiry-interval-ms", 600_000),
        number(hadoop, "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 1_000),
        number(hadoop, "yarn.client.nodemanager-connect.max-wait-ms", 180_000),
        (int) number(hadoop, "mapreduce.reduce.shuffle.maxfetchfailures", 10),
        number(hadoop, "mapreduce.reduce.shuffle.retry-delay.max.ms", 60_000),
        (int) number(hadoop, "mapreduce.reduce.shuffle.max-fetch-failures-notifications", 3),
        fraction(hadoop, "mapreduce.reduce.shuffle.max-fetch-failures-fraction", 0.5),
        !"false".equalsIgnoreCase(hadoop.getOrDefault("mapreduce.map.speculative", "true")),
        Math.round(INITIAL_PENALTY_MS * timeScale));
  }

  /** The RM's liveness monitor runs every expiry/3 (hard-wired). */
  long livenessCheckMs() {
    return expiryMs / 3;
  }

  /**
   * The earliest a reducer that only counts failed copies reports a map: after
   * {@code maxfetchfailures - 1} penalties. The paper's 416 s is this sum for 0.21 (no cap).
   */
  long countingPathMs() {
    double sum = 0;
    for (int f = 1; f < maxFetchFailures; f++) {
      sum += Math.min(initialPenaltyMs * Math.pow(PENALTY_GROWTH, f), retryDelayMaxMs);
    }
    return Math.round(sum);
  }

  private static long number(Map<String, String> hadoop, String key, long fallback) {
    try {
      return Long.parseLong(hadoop.getOrDefault(key, Long.toString(fallback)).trim());
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  private static double fraction(Map<String, String> hadoop, String key, double fallback) {
    try {
      return Double.parseDouble(hadoop.getOrDefault(key, Double.toString(fallback)).trim());
    } catch (NumberFormatException e) {
      return fallback;
    }
  }
}
