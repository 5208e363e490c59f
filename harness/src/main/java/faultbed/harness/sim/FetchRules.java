package faultbed.harness.sim;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * The thresholds and back-offs by which a reducer's shuffle (Hadoop 3.4's {@code Fetcher} and
 * {@code ShuffleSchedulerImpl}, which run in the task JVM on the wall clock) retries a host, reports
 * a map output it cannot fetch to the AM, and gives up on itself, read from the job's configuration
 * as those classes read it. The two constants Hadoop hard-codes (the 10 s initial back-off and the
 * 60 s connect retry unit) are scaled as faultbed's time-scale agent scales them in a real task JVM.
 *
 * @param connectTimeoutMs  a fetch's connect gives up after this long, refused or unanswered alike:
 *                          {@code Fetcher.connect} retries a refused connect every unit until then
 * @param readTimeoutMs     a connected fetch whose server does not answer gives up after this long
 * @param initialPenaltyMs  a host that failed is tried again after this times 1.3 to the map's failures
 * @param maxPenaltyMs      and never later than this
 * @param reportEvery       a failure is reported to the AM every this many failures of a map, at
 *                          once for a refused connect or a read error, and after the host failed
 *                          more than {@code maxHostFailures} times
 */
record FetchRules(long connectTimeoutMs, long readTimeoutMs, double initialPenaltyMs, long maxPenaltyMs,
    int reportEvery, boolean reportReadErrorAtOnce, int maxHostFailures) {
  /** ShuffleSchedulerImpl's INITIAL_PENALTY and PENALTY_GROWTH_RATE. */
  private static final double INITIAL_PENALTY_MS = 10_000;
  static final double PENALTY_GROWTH = 1.3;

  static FetchRules of(Configuration job, double timeScale) {
    return new FetchRules(
        job.getInt(MRJobConfig.SHUFFLE_CONNECT_TIMEOUT, 180_000),
        job.getInt(MRJobConfig.SHUFFLE_READ_TIMEOUT, 180_000),
        INITIAL_PENALTY_MS * timeScale,
        job.getLong(MRJobConfig.MAX_SHUFFLE_FETCH_RETRY_DELAY, MRJobConfig.DEFAULT_MAX_SHUFFLE_FETCH_RETRY_DELAY),
        job.getInt(MRJobConfig.SHUFFLE_FETCH_FAILURES, 10),
        job.getBoolean(MRJobConfig.SHUFFLE_NOTIFY_READERROR, true),
        job.getInt(MRJobConfig.MAX_SHUFFLE_FETCH_HOST_FAILURES, MRJobConfig.DEFAULT_MAX_SHUFFLE_FETCH_HOST_FAILURES));
  }

  static FetchRules hadoopDefaults() {
    return of(new Configuration(false), 1);
  }

  /** ShuffleSchedulerImpl.copyFailed's back-off for a map that has failed {@code failures} times. */
  long penaltyMs(int failures) {
    return Math.min((long) (initialPenaltyMs * Math.pow(PENALTY_GROWTH, failures)), maxPenaltyMs);
  }

  /** ShuffleSchedulerImpl.checkAndInformMRAppMaster. */
  boolean reports(int failures, boolean readError, boolean connectRefused, int hostFailures) {
    return connectRefused || (reportReadErrorAtOnce && readError) || failures % reportEvery == 0
        || hostFailures > maxHostFailures;
  }
}
