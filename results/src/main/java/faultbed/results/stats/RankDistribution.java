package faultbed.results.stats;

/**
 * The exact null distribution of a rank statistic without ties: the Wilcoxon signed-rank W+ of n
 * pairs, or the Mann-Whitney U of samples of n and m. Commons Statistics runs the tests but keeps
 * these distributions private; the Hodges-Lehmann intervals need their quantiles.
 */
public final class RankDistribution {
  /** P(X = k) for k = 0 .. max. */
  private final double[] pmf;

  private RankDistribution(double[] pmf) {
    this.pmf = pmf;
  }

  /** W+ of n pairs: each rank 1..n counts or not with chance 1/2, so multiply (1 + q^i) / 2. */
  public static RankDistribution signedRank(int n) {
    double[] p = {1};
    for (int i = 1; i <= n; i++) {
      double[] next = new double[p.length + i];
      for (int k = 0; k < next.length; k++) {
        next[k] = ((k < p.length ? p[k] : 0) + (k >= i ? p[k - i] : 0)) / 2;
      }
      p = next;
    }
    return new RankDistribution(p);
  }

  /**
   * U of samples of n and m: the counts are the coefficients of the Gaussian binomial
   * [n+m choose n]_q = prod_{i=1..n} (1 - q^(m+i)) / (1 - q^i), built one factor at a time and kept
   * summing to 1, so large samples neither overflow nor need the O(n^2 m^2) recursion.
   */
  public static RankDistribution mannWhitney(int n, int m) {
    int small = Math.min(n, m);
    int large = Math.max(n, m);
    double[] p = {1};
    for (int i = 1; i <= small; i++) {
      int degree = large * i;
      double[] next = new double[degree + 1];
      for (int k = 0; k <= degree; k++) {
        // times (1 - q^(large+i)), then divided by (1 - q^i): next[k] = product[k] + next[k - i]
        double product = (k < p.length ? p[k] : 0) - (k >= large + i && k - large - i < p.length ? p[k - large - i] : 0);
        next[k] = product + (k >= i ? next[k - i] : 0);
      }
      double sum = 0;
      for (double v : next) {
        sum += v;
      }
      for (int k = 0; k <= degree; k++) {
        next[k] /= sum;
      }
      p = next;
    }
    return new RankDistribution(p);
  }

  /** The largest value the statistic takes. */
  public int max() {
    return pmf.length - 1;
  }

  /** P(X <= k). */
  public double cdf(int k) {
    double sum = 0;
    for (int i = 0; i <= Math.min(k, max()); i++) {
      sum += pmf[i];
    }
    return Math.min(1, sum);
  }

  /** The smallest k with P(X <= k) >= p, as R's qsignrank and qwilcox define it. */
  public int quantile(double p) {
    double sum = 0;
    for (int k = 0; k < max(); k++) {
      sum += pmf[k];
      // R's slack for rounding in the sum
      if (sum >= p - 10 * Math.ulp(1.0)) {
        return k;
      }
    }
    return max();
  }

  /** The smallest two-sided p-value of the exact signed-rank test on n pairs: all on one side, 2 / 2^n. */
  public static double smallestSignedRankP(int n) {
    return n == 0 ? 1 : Math.min(1, Math.scalb(2.0, -n));
  }

  /** The smallest two-sided p-value of the exact Mann-Whitney test: complete separation, 2 / (n+m choose n). */
  public static double smallestMannWhitneyP(int n, int m) {
    double binomial = 1;
    for (int i = 1; i <= Math.min(n, m); i++) {
      binomial = binomial * (Math.max(n, m) + i) / i;
    }
    return Math.min(1, 2 / binomial);
  }
}
