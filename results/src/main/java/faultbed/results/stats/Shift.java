package faultbed.results.stats;

import java.util.Arrays;

/**
 * The Hodges-Lehmann estimate of how much slower the candidate is, as a ratio of times, with its
 * exact confidence interval (Bauer 1972, as R's {@code wilcox.test(conf.int = TRUE)} computes it).
 * Paired: the median of the Walsh averages of the per-block log ratios, the interval from order
 * statistics of those averages at the signed-rank distribution's quantiles. Unpaired: the median of
 * all candidate-minus-baseline differences of log times, the interval at the Mann-Whitney
 * distribution's quantiles. Few runs cannot reach the requested level: {@code confidence} is the
 * level the interval has (with 5 pairs, at most 93.75%).
 */
public record Shift(double ratio, Interval interval, double confidence) {

  public static Shift paired(double[] logRatios, double level) {
    int n = logRatios.length;
    double[] walsh = new double[n * (n + 1) / 2];
    int w = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i; j < n; j++) {
        walsh[w++] = (logRatios[i] + logRatios[j]) / 2;
      }
    }
    return of(walsh, RankDistribution.signedRank(n), level);
  }

  public static Shift unpaired(double[] logBaseline, double[] logCandidate, double level) {
    double[] differences = new double[logBaseline.length * logCandidate.length];
    int d = 0;
    for (double c : logCandidate) {
      for (double b : logBaseline) {
        differences[d++] = c - b;
      }
    }
    return of(differences, RankDistribution.mannWhitney(logBaseline.length, logCandidate.length), level);
  }

  private static Shift of(double[] values, RankDistribution nullDistribution, double level) {
    Arrays.sort(values);
    int size = values.length;
    double median = size % 2 == 1 ? values[size / 2] : (values[size / 2 - 1] + values[size / 2]) / 2;
    // the statistic counts values below the shift: its alpha/2 quantile q marks the q-th value
    // from either end (R: qu <- q(alpha/2); if (qu == 0) qu <- 1)
    int q = Math.max(1, nullDistribution.quantile((1 - level) / 2));
    double confidence = 1 - 2 * nullDistribution.cdf(q - 1);
    return new Shift(Math.exp(median), new Interval(Math.exp(values[q - 1]), Math.exp(values[size - q])),
        confidence);
  }
}
