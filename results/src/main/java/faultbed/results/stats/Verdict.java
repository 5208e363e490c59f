package faultbed.results.stats;

/** What a comparison concludes about the candidate against the baseline. */
public enum Verdict {
  /** Significantly faster. */
  BETTER,
  /** Significantly slower, by more than the allowed regression; or significantly more failed jobs. */
  WORSE,
  /** Significantly slower, but within the allowed regression. */
  SLOWER_WITHIN_TOLERANCE,
  NO_SIGNIFICANT_DIFFERENCE
}
