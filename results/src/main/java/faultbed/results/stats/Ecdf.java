package faultbed.results.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Empirical cumulative distribution: one point per distinct value, {@code fraction} being the share
 * of the sample at or below {@code value}. Drawn as a step function.
 */
public record Ecdf(List<Point> points) {
  public record Point(double value, double fraction) {}

  public Ecdf {
    points = List.copyOf(points);
  }

  public static Ecdf of(double... sample) {
    double[] v = sample.clone();
    Arrays.sort(v);
    List<Point> points = new ArrayList<>();
    for (int i = 0; i < v.length; i++) {
      if (i + 1 < v.length && v[i + 1] == v[i]) {
        continue;
      }
      points.add(new Point(v[i], (i + 1) / (double) v.length));
    }
    return new Ecdf(points);
  }
}
