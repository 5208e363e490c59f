package faultbed.results.stats;

/**
 * How comparisons are made: the gate's thresholds, the bootstrap for intervals, the power
 * simulation, and how many comparisons are checked together (their p-values are Holm-adjusted, and
 * a lone change must reach alpha / tests, the first of Holm's steps, so that is the level the
 * detectable change is stated at); and how many such families one document holds (more than one:
 * adjusted across families too, by {@link Families}).
 */
public record Analysis(GateThresholds thresholds, Bootstrap bootstrap, PowerSimulation simulation, int tests,
    int families) {
  public static final Analysis DEFAULT = new Analysis(GateThresholds.DEFAULT, Bootstrap.DEFAULT,
      PowerSimulation.DEFAULT, 1, 1);

  public Analysis {
    if (tests < 1 || families < 1) {
      throw new IllegalArgumentException("tests and families: expected at least 1, got " + tests + " and " + families);
    }
  }

  public Analysis withThresholds(GateThresholds t) {
    return new Analysis(t, bootstrap, simulation, tests, families);
  }

  public Analysis forTests(int count) {
    return new Analysis(thresholds, bootstrap, simulation, count, families);
  }

  public Analysis forFamilies(int count) {
    return new Analysis(thresholds, bootstrap, simulation, tests, count);
  }

  /** ", Holm 0.834" in a family, ", adjusted 0.834" across families, nothing alone: how a p-value was adjusted. */
  public String adjustment(double adjusted) {
    return families > 1 ? ", adjusted " + Format.p(adjusted) : tests > 1 ? ", Holm " + Format.p(adjusted) : "";
  }

  /** The level one test of the family must reach when it alone differs. */
  public double level() {
    return thresholds.alpha() / tests;
  }

  Comparison.DetectableChange detectable(Spread spread, int n, int m) {
    return new Comparison.DetectableChange(
        simulation.minimumDetectableRatio(spread, n, m, level(), Comparison.POWER), Comparison.POWER, level());
  }
}
