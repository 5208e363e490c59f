package faultbed.results.classify;

import java.util.Map;

/**
 * The failure-handling settings a run's record states, with Hadoop 3's defaults for any it does
 * not: what the classifier needs to tell one mechanism from another.
 */
record HadoopTimers(long expiryMs, long heartbeatMs, long nmConnectMaxWaitMs, int fetchFailureNotifications,
    double fetchFailureFraction, boolean mapSpeculative, long taskTimeoutMs, long amExpiryMs,
    int maxTaskFailuresPerNode, int blacklistIgnorePercent) {

  static HadoopTimers of(Map<String, String> hadoop) {
    return new HadoopTimers(
        number(hadoop, "yarn.nm.liveness-monitor.expiry-interval-ms", 600_000),
        number(hadoop, "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 1_000),
        number(hadoop, "yarn.client.nodemanager-connect.max-wait-ms", 180_000),
        (int) number(hadoop, "mapreduce.reduce.shuffle.max-fetch-failures-notifications", 3),
        fraction(hadoop, "mapreduce.reduce.shuffle.max-fetch-failures-fraction", 0.5),
        !"false".equalsIgnoreCase(hadoop.getOrDefault("mapreduce.map.speculative", "true")),
        number(hadoop, "mapreduce.task.timeout", 600_000),
        number(hadoop, "yarn.am.liveness-monitor.expiry-interval-ms", 600_000),
        (int) number(hadoop, "mapreduce.job.maxtaskfailures.per.tracker", 3),
        (int) number(hadoop, "yarn.app.mapreduce.am.job.node-blacklisting.ignore-threshold-node-percent", 33));
  }

  /** The RM's liveness monitor runs every expiry/3 (hard-wired). */
  long livenessCheckMs() {
    return expiryMs / 3;
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
