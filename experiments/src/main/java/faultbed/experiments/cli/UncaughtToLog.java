package faultbed.experiments.cli;

import org.slf4j.LoggerFactory;

/**
 * Sends what a thread dies of to the log file, not the terminal. Hadoop's daemons run in the CLI's
 * JVM on the mini backend, and a crashed NodeManager's threads (its localizers, for one) die of
 * interrupts; without a handler the JVM prints each stack trace to standard error, into the
 * summary a user reads, whatever the logging settings say.
 */
final class UncaughtToLog {
  private UncaughtToLog() {}

  /** Installs the handler unless one is already set (a test runner's, say). */
  static synchronized void install() {
    if (Thread.getDefaultUncaughtExceptionHandler() == null) {
      Thread.setDefaultUncaughtExceptionHandler((thread, error) -> LoggerFactory.getLogger("faultbed.uncaught")
          .warn("thread \"" + thread.getName() + "\" ended with an uncaught exception", error));
    }
  }

  /** The log file the launcher named, or null when run otherwise (from a test, say). */
  static String logFile() {
    return System.getProperty("faultbed.log.file");
  }
}
