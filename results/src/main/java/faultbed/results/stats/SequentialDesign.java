package faultbed.results.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * A group-sequential plan for the paired gate: at most {@code maxBlocks} blocks, a look after each
 * block count in {@code looks}, and a family-wise error rate of at most {@code alpha} shared out
 * over the looks by an alpha-spending function (K. K. G. Lan and D. L. DeMets, "Discrete sequential
 * boundaries for clinical trials", Biometrika 70(3), 1983).
 *
 * <p>Look j at n_j blocks has information fraction t_j = n_j / maxBlocks and tests at the nominal
 * two-sided level alpha(t_j) - alpha(t_(j-1)), alpha(t_0) = 0. The levels add up to alpha, so by
 * the union bound the chance that any look rejects a true null is at most alpha, whatever the
 * correlation between the looks (they share blocks, so they are strongly correlated). That is
 * conservative: the classical boundaries, which use the correlation, allow larger levels at the
 * later looks; but they assume a normal statistic, and the exact signed-rank test is discrete, so
 * the union bound is the allocation that is valid as it stands.
 *
 * <p>The exact two-sided signed-rank p-value of n blocks cannot go below 2 / 2^n (every block on
 * one side). A look whose level is not above that can never reject: the alpha allotted to it is
 * spent on nothing, and {@link #unreachableAlpha()} says how much that is. The first look must be
 * at 6 blocks or more; with 5, the smallest p is 0.0625.
 *
 * @param maxBlocks N, the blocks run when no look stops the suite early; also the last look
 * @param looks block counts at which the gate looks, strictly increasing, the last one N
 * @param alpha the family-wise two-sided error rate, in (0, 1)
 */
public record SequentialDesign(int maxBlocks, List<Integer> looks, double alpha, Spending spending) {

  /** Below this many blocks the exact two-sided signed-rank p cannot reach 0.05 (2 / 2^5 = 0.0625). */
  public static final int FEWEST_BLOCKS_AT_A_LOOK = 6;

  private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0, 1);

  /** How the family-wise alpha is spent as the information fraction t = blocks / N goes from 0 to 1. */
  public enum Spending {
    /**
     * Lan-DeMets O'Brien-Fleming type, alpha(t) = 2 - 2 Phi(z_(1-alpha/2) / sqrt(t)): almost nothing
     * early, nearly all of alpha at the end (P. C. O'Brien and T. R. Fleming, "A multiple testing
     * procedure for clinical trials", Biometrics 35(3), 1979). Stops early only on large effects,
     * and loses little power at N.
     */
    OBRIEN_FLEMING("O'Brien-Fleming") {
      @Override
      public double cumulativeAlpha(double alpha, double t) {
        checkFraction(t);
        double z = STANDARD_NORMAL.inverseCumulativeProbability(1 - alpha / 2);
        // 2 - 2 Phi(x) written as 2 (1 - Phi(x)) from the upper tail, which keeps its digits when tiny
        return 2 * STANDARD_NORMAL.survivalProbability(z / Math.sqrt(t));
      }
    },
    /**
     * Lan-DeMets Pocock type, alpha(t) = alpha ln(1 + (e - 1) t): about even levels at every look
     * (S. J. Pocock, "Group sequential methods in the design and analysis of clinical trials",
     * Biometrika 64(2), 1977). Stops earlier, but the last look keeps a smaller share of alpha.
     */
    POCOCK("Pocock") {
      @Override
      public double cumulativeAlpha(double alpha, double t) {
        checkFraction(t);
        return alpha * Math.log1p((Math.E - 1) * t);
      }
    };

    private final String label;

    Spending(String label) {
      this.label = label;
    }

    /** The alpha spent by information fraction t, in (0, 1]; alpha itself at t = 1. */
    public abstract double cumulativeAlpha(double alpha, double t);

    /** "O'Brien-Fleming" or "Pocock". */
    public String label() {
      return label;
    }

    private static void checkFraction(double t) {
      if (!(t > 0 && t <= 1)) {
        throw new IllegalArgumentException("information fraction: expected in (0, 1], got " + t);
      }
    }
  }

  /**
   * What one look may do.
   *
   * @param look 1 for the first look
   * @param blocks n, the blocks the look tests
   * @param informationFraction n / N
   * @param cumulativeAlpha the alpha spent up to and including this look
   * @param nominalLevel this look's two-sided level: it rejects when the exact p is below it
   * @param smallestPossibleP 2 / 2^n, the smallest exact two-sided p-value of n blocks
   */
  public record Boundary(int look, int blocks, double informationFraction, double cumulativeAlpha,
      double nominalLevel, double smallestPossibleP) {
    /** Whether the exact test of n blocks can reject at this level at all (ties aside). */
    public boolean reachable() {
      return smallestPossibleP < nominalLevel;
    }
  }

  public SequentialDesign {
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("alpha: expected between 0 and 1, got " + alpha);
    }
    if (spending == null) {
      throw new IllegalArgumentException("spending: expected O'Brien-Fleming or Pocock, got none");
    }
    if (looks == null || looks.isEmpty()) {
      throw new IllegalArgumentException("looks: expected at least one block count, got none");
    }
    if (looks.stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException("looks: expected block counts, got " + looks);
    }
    looks = List.copyOf(looks);
    if (looks.get(0) < FEWEST_BLOCKS_AT_A_LOOK) {
      throw new IllegalArgumentException("looks: expected the first at " + FEWEST_BLOCKS_AT_A_LOOK
          + " blocks or more (with n blocks the exact two-sided signed-rank p is at least 2/2^n), got "
          + looks.get(0));
    }
    for (int j = 1; j < looks.size(); j++) {
      if (looks.get(j) <= looks.get(j - 1)) {
        throw new IllegalArgumentException("looks: expected strictly increasing block counts, got " + looks);
      }
    }
    if (looks.get(looks.size() - 1) != maxBlocks) {
      throw new IllegalArgumentException("looks: expected the last at the maximum of " + maxBlocks
          + " blocks, got " + looks);
    }
  }

  /**
   * A look every {@code interval} blocks and one at {@code maxBlocks} (when it is not a multiple).
   */
  public static SequentialDesign lookingEvery(int interval, int maxBlocks, double alpha, Spending spending) {
    if (interval < 1) {
      throw new IllegalArgumentException("look interval: expected at least 1 block, got " + interval);
    }
    List<Integer> looks = new ArrayList<>();
    for (int n = interval; n < maxBlocks; n += interval) {
      looks.add(n);
    }
    looks.add(maxBlocks);
    return new SequentialDesign(maxBlocks, looks, alpha, spending);
  }

  /** Every look's boundary, in order. */
  public List<Boundary> boundaries() {
    List<Boundary> boundaries = new ArrayList<>(looks.size());
    double spent = 0;
    for (int j = 0; j < looks.size(); j++) {
      int n = looks.get(j);
      // the last look spends exactly alpha, whatever rounding the spending function does
      double t = j == looks.size() - 1 ? 1 : n / (double) maxBlocks;
      double cumulative = t == 1 ? alpha : spending.cumulativeAlpha(alpha, t);
      boundaries.add(new Boundary(j + 1, n, t, cumulative, Math.max(0, cumulative - spent),
          RankDistribution.smallestSignedRankP(n)));
      spent = cumulative;
    }
    return List.copyOf(boundaries);
  }

  /** The boundary of the look at {@code blocks} blocks. */
  public Boundary boundaryAt(int blocks) {
    return boundaries().stream().filter(b -> b.blocks() == blocks).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("blocks: expected one of the looks " + looks + ", got "
            + blocks));
  }

  /** The alpha allotted to looks that cannot reject (their level is not above 2 / 2^n): wasted, not held back. */
  public double unreachableAlpha() {
    return boundaries().stream().filter(b -> !b.reachable()).mapToDouble(Boundary::nominalLevel).sum();
  }

  /** The plan and each look's level, one line each; unreachable looks say so. */
  public String describe() {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "%s spending of alpha %s over looks at %s of at most %d blocks; each look at level alpha(t_j) - alpha(t_j-1)"
            + " (union bound, conservative)%n", spending.label(), Format.plain(alpha), looks, maxBlocks));
    for (Boundary b : boundaries()) {
      sb.append(String.format(Locale.ROOT, "  look %d at %d blocks: level %s%s%n", b.look(), b.blocks(),
          Format.p(b.nominalLevel()), b.reachable() ? "" : ", unreachable: the exact p of " + b.blocks()
              + " blocks is at least " + Format.p(b.smallestPossibleP())));
    }
    double wasted = unreachableAlpha();
    if (wasted > 0) {
      sb.append(String.format(Locale.ROOT, "  alpha spent on unreachable looks: %s%n", Format.p(wasted)));
    }
    return sb.toString();
  }
}
