package faultbed.results.stats;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.commons.statistics.inference.GTest;

/**
 * Whether two samples of categories (two sets of runs sorted into failure groups, say) could come
 * from one distribution: the G statistic of their 2 x k table (Commons Statistics' {@link GTest}),
 * its p-value by permutation, and how far apart the two sets of shares are (total variation: half
 * the sum of the shares' absolute differences, 0 for the same shares, 1 for no group in common).
 *
 * <p>By permutation because the counts are small (five runs a variant, groups of one or two), where
 * the chi-square approximation to G does not hold and an exact enumeration of 2 x k tables is not
 * cheap: the runs' labels are pooled and dealt again to the two sets at their sizes, {@code draws}
 * times from a fixed seed (so the p-value is reproducible), and p is the share of deals whose G is at
 * least the observed one, counting the observed deal ((1 + hits) / (1 + draws)), as R's
 * {@code chisq.test(simulate.p.value = TRUE)} does.
 *
 * @param totalVariation NaN when a sample is empty
 * @param pValue NaN when a sample is empty; 1 when the two have one category between them
 * @param draws the deals the p-value was counted from; 0 when none were needed
 */
public record HomogeneityTest(double totalVariation, double statistic, double pValue, int draws) {
  public static final int DRAWS = 9_999;

  /** The two samples' counts, category by category (the same order in both). */
  public static HomogeneityTest of(long[] first, long[] second, long seed) {
    if (first.length != second.length) {
      throw new IllegalArgumentException("the samples count " + first.length + " and " + second.length + " categories");
    }
    long n1 = Arrays.stream(first).sum();
    long n2 = Arrays.stream(second).sum();
    double tv = 0;
    for (int i = 0; i < first.length; i++) {
      tv += Math.abs((n1 == 0 ? 0 : (double) first[i] / n1) - (n2 == 0 ? 0 : (double) second[i] / n2));
    }
    tv /= 2;
    // categories neither sample has say nothing, and the library refuses an empty column
    int[] kept = java.util.stream.IntStream.range(0, first.length).filter(i -> first[i] + second[i] > 0).toArray();
    if (n1 == 0 || n2 == 0 || kept.length < 2) {
      // one category between them (or an empty sample): nothing could tell them apart
      return new HomogeneityTest(n1 == 0 || n2 == 0 ? Double.NaN : tv, 0,
          n1 == 0 || n2 == 0 ? Double.NaN : 1, 0);
    }
    long[][] table = new long[2][kept.length];
    int[] labels = new int[Math.toIntExact(n1 + n2)];
    int next = 0;
    for (int c = 0; c < kept.length; c++) {
      table[0][c] = first[kept[c]];
      table[1][c] = second[kept[c]];
      for (long k = 0; k < first[kept[c]] + second[kept[c]]; k++) {
        labels[next++] = c;
      }
    }
    GTest g = GTest.withDefaults();
    double observed = g.statistic(table);
    SplittableRandom random = new SplittableRandom(seed);
    long[][] dealt = new long[2][kept.length];
    int hits = 0;
    for (int d = 0; d < DRAWS; d++) {
      shuffle(labels, random);
      Arrays.fill(dealt[0], 0);
      Arrays.fill(dealt[1], 0);
      for (int i = 0; i < labels.length; i++) {
        dealt[i < n1 ? 0 : 1][labels[i]]++;
      }
      // a relative tolerance so that a deal equal to the observed table counts despite rounding
      if (g.statistic(dealt) >= observed * (1 - 1e-9)) {
        hits++;
      }
    }
    return new HomogeneityTest(tv, observed, (1.0 + hits) / (1.0 + DRAWS), DRAWS);
  }

  private static void shuffle(int[] a, SplittableRandom random) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
}
