package faultbed.results.stats;

/**
 * When a comparison counts as a regression: the difference must be significant at {@code alpha}
 * and the candidate's median more than {@code maxRegressionPercent} above the baseline's.
 */
public record GateThresholds(double alpha, double maxRegressionPercent) {
  public static final GateThresholds DEFAULT = new GateThresholds(0.05, 10);

  public GateThresholds {
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("alpha: expected between 0 and 1, got " + alpha);
    }
    if (!(maxRegressionPercent >= 0) || Double.isInfinite(maxRegressionPercent)) {
      throw new IllegalArgumentException("max regression: expected a percentage >= 0, got " + maxRegressionPercent);
    }
  }

  /**
   * The gate's rule for completion times: significant at alpha, and the candidate's median slower
   * than allowed. {@link Comparison} judges with it, and so does the power of a planned suite.
   */
  public boolean slowerThanAllowed(double pValue, double medianRatio) {
    return pValue < alpha && medianRatio > 1 + maxRegressionPercent / 100;
  }

  /** "alpha 0.05, max regression 10%": the thresholds as a user wrote them. */
  public String describe() {
    return "alpha " + Format.plain(alpha) + ", max regression " + Format.plain(maxRegressionPercent) + "%";
  }
}
