package faultbed.results.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The paired gate run as a group-sequential test: at each look of the {@link SequentialDesign}, the
 * exact two-sided Wilcoxon signed-rank test ({@link RankTest#signedRank}) of the per-block log
 * ratios so far (candidate time over reference time), at the look's nominal level, decides whether
 * the suite stops.
 *
 * <ul>
 *   <li>STOP_WORSE at the last look: significant and the median block ratio above 1 +
 *       maxRegressionPercent / 100, the rule of the fixed gate ({@link GateThresholds#slowerThanAllowed})
 *       at the look's level. At an earlier look the blocks must show more than that: the ratios over
 *       the tolerance, ln(ratio) - ln(1 + tolerance), significant at the look's level. Testing against
 *       no difference at every look would let a slowdown just under the tolerance cross it by chance
 *       at one look or another (a 7 % slowdown under a 10 % tolerance ended WORSE in 26 % of simulated
 *       suites, twice the fixed gate's 13 %); tested against the tolerance, an interim stop is itself
 *       a test that the slowdown exceeds it. With no tolerance the two rules are the same;
 *   <li>STOP_BETTER: significant and the median block ratio below 1;
 *   <li>CONTINUE: anything else before the last look, including significantly slower but within
 *       the tolerance: the median of more blocks may still cross it, so the verdict that matters
 *       (WORSE or not) is not decided yet;
 *   <li>at the last look: SLOWER_WITHIN_TOLERANCE when significant, otherwise NO_DIFFERENCE.
 * </ul>
 *
 * The median is that of the blocks' ratios (as {@link Comparison.Design.Paired#medianBlockRatio}),
 * not the ratio of the two variants' median times that {@link Comparison} judges by: the gate sees
 * only the ratios. Stopping for anything but WORSE never adds a false WORSE, so the family-wise
 * false-alarm rate of WORSE stays at most alpha / 2 under a null symmetric about 0 (each look
 * rejects on the slower side with at most half its two-sided level; the levels add up to alpha).
 *
 * @param maxRegressionPercent the tolerance, as {@code --max-regression}: at least 0
 */
public record SequentialGate(SequentialDesign design, double maxRegressionPercent) {

  /** What a look decides. */
  public enum Decision {
    STOP_WORSE(Verdict.WORSE),
    STOP_BETTER(Verdict.BETTER),
    /** Run the blocks up to the next look. */
    CONTINUE(null),
    /** Last look only: significantly slower, not by more than the tolerance. */
    SLOWER_WITHIN_TOLERANCE(Verdict.SLOWER_WITHIN_TOLERANCE),
    /** Last look only: not significant. */
    NO_DIFFERENCE(Verdict.NO_SIGNIFICANT_DIFFERENCE);

    private final Verdict verdict;

    Decision(Verdict verdict) {
      this.verdict = verdict;
    }

    /** The verdict of a fixed-size comparison that says the same; empty for CONTINUE. */
    public Optional<Verdict> verdict() {
      return Optional.ofNullable(verdict);
    }

    /** Whether the suite ends here. */
    public boolean ends() {
      return this != CONTINUE;
    }
  }

  /**
   * One look: its boundary, the signed-rank test of its blocks, their median ratio, and the decision.
   *
   * @param medianRatio median of the blocks' ratios (candidate over reference)
   */
  public record Look(SequentialDesign.Boundary boundary, RankTest test, double medianRatio, Decision decision) {
    /** n, the blocks tested. */
    public int blocks() {
      return boundary.blocks();
    }

    public double pValue() {
      return test.pValue();
    }

    public double nominalLevel() {
      return boundary.nominalLevel();
    }

    /** "look 2 at 16 blocks: median x1.124, exact p 3.05e-05 against level 0.00193: STOP_WORSE". */
    public String describe() {
      return String.format(Locale.ROOT, "look %d at %d blocks: median %s, %s against level %s%s: %s",
          boundary.look(), blocks(), Format.ratio(medianRatio), test.describeP(), Format.p(nominalLevel()),
          boundary.reachable() ? "" : " (unreachable)", decision);
    }
  }

  /**
   * Where the suite stands.
   *
   * @param decision of the last look made; CONTINUE when the blocks given end before the design does
   * @param blocks the blocks the decision rests on: those of the last look made (0 before the first)
   * @param maxBlocks N, the design's most
   * @param looks the looks made, in order
   */
  public record Outcome(Decision decision, int blocks, int maxBlocks, List<Look> looks) {
    public Outcome {
      looks = List.copyOf(looks);
    }

    /** Ended before N blocks. */
    public boolean stoppedEarly() {
      return decision.ends() && blocks < maxBlocks;
    }

    /** The decision and the look it rests on, in a line. */
    public String describe() {
      String head = decision + " after " + blocks + " of at most " + maxBlocks + " blocks";
      return looks.isEmpty() ? head + ": no look yet" : head + "; " + looks.get(looks.size() - 1).describe();
    }
  }

  public SequentialGate {
    if (design == null) {
      throw new IllegalArgumentException("design: expected a sequential design, got none");
    }
    // the fixed gate's own check and message for the tolerance
    new GateThresholds(design.alpha(), maxRegressionPercent);
  }

  /**
   * The looks the blocks so far allow, up to the first that ends the suite.
   *
   * @param logRatios ln(candidate time / reference time) per block, in the order the blocks ran; at
   *     most N. Fewer is a suite still running: the outcome is CONTINUE unless a look made stops it.
   */
  public Outcome decide(double[] logRatios) {
    if (logRatios.length > design.maxBlocks()) {
      throw new IllegalArgumentException("log ratios: expected at most " + design.maxBlocks() + " blocks, got "
          + logRatios.length);
    }
    for (int i = 0; i < logRatios.length; i++) {
      if (!Double.isFinite(logRatios[i])) {
        throw new IllegalArgumentException("log ratios: expected finite numbers, got " + logRatios[i] + " in block "
            + (i + 1));
      }
    }
    List<Look> looks = new ArrayList<>();
    for (SequentialDesign.Boundary boundary : design.boundaries()) {
      if (boundary.blocks() > logRatios.length) {
        break;
      }
      double[] blocks = Arrays.copyOf(logRatios, boundary.blocks());
      RankTest test = RankTest.signedRank(blocks);
      double medianRatio = Bootstrap.median(Arrays.stream(blocks).map(Math::exp).toArray());
      boolean last = boundary.blocks() == design.maxBlocks();
      double overTolerance = last || maxRegressionPercent == 0 ? test.pValue()
          : RankTest.signedRank(Arrays.stream(blocks).map(d -> d - Math.log1p(maxRegressionPercent / 100)).toArray())
              .pValue();
      Decision decision = decision(test.pValue(), overTolerance, boundary.nominalLevel(), medianRatio, last);
      looks.add(new Look(boundary, test, medianRatio, decision));
      if (decision.ends()) {
        return new Outcome(decision, boundary.blocks(), design.maxBlocks(), looks);
      }
    }
    return new Outcome(Decision.CONTINUE, looks.isEmpty() ? 0 : looks.get(looks.size() - 1).blocks(),
        design.maxBlocks(), looks);
  }

  /** @param overTolerancePValue the test of the ratios over the tolerance (before the last look), else pValue */
  private Decision decision(double pValue, double overTolerancePValue, double level, double medianRatio,
      boolean last) {
    boolean significant = pValue < level;
    // a level of 0 (spending underflowed) rejects nothing; GateThresholds would refuse it
    if (level > 0 && new GateThresholds(level, maxRegressionPercent).slowerThanAllowed(overTolerancePValue,
        medianRatio)) {
      return Decision.STOP_WORSE;
    }
    if (significant && medianRatio < 1) {
      return Decision.STOP_BETTER;
    }
    if (!last) {
      return Decision.CONTINUE;
    }
    return significant ? Decision.SLOWER_WITHIN_TOLERANCE : Decision.NO_DIFFERENCE;
  }

  /** The fixed-size gate this one replaces: one look at N, at alpha. */
  public SequentialGate fixed() {
    return new SequentialGate(new SequentialDesign(design.maxBlocks(), List.of(design.maxBlocks()), design.alpha(),
        design.spending()), maxRegressionPercent);
  }

  /** "O'Brien-Fleming ... ; WORSE when ... more than 10% slower". */
  public String describe() {
    return design.describe() + "WORSE: significant at the look's level and the median block ratio above "
        + Format.ratio(1 + maxRegressionPercent / 100) + "\n";
  }
}
