package faultbed.results.compare;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Two variants' runs of one suite matched by block: completion times of the blocks where both jobs
 * succeeded, in block order, and how many blocks were left out (a failed job, or only one of the
 * variants ran there).
 */
record BlockPairs(double[] baseline, double[] candidate, int unpairedBlocks) {

  static BlockPairs of(VariantSample baseline, VariantSample candidate) {
    Map<Integer, Double> b = byBlock(baseline);
    Map<Integer, Double> c = byBlock(candidate);
    TreeSet<Integer> blocks = new TreeSet<>(b.keySet());
    blocks.addAll(c.keySet());
    double[] bt = new double[blocks.size()];
    double[] ct = new double[blocks.size()];
    int pairs = 0;
    for (int block : blocks) {
      Double x = b.get(block);
      Double y = c.get(block);
      if (x != null && y != null) {
        bt[pairs] = x;
        ct[pairs] = y;
        pairs++;
      }
    }
    return new BlockPairs(Arrays.copyOf(bt, pairs), Arrays.copyOf(ct, pairs),
        blocks.size() - pairs);
  }

  int pairs() {
    return baseline.length;
  }

  private static Map<Integer, Double> byBlock(VariantSample v) {
    Map<Integer, Double> m = new TreeMap<>();
    v.runs().forEach(r -> m.put(r.block(), r.seconds()));
    return m;
  }
}
