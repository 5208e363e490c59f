package faultbed.experiments;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A suite folder whose variants ran in randomized complete blocks; NaN stands for a failed job. */
final class BlockedRecords {
  /**
   * Ten blocks whose fault draw moves both variants together (30 to 66 s); "mine" takes 4-6%
   * longer in every block but the 7th, and its job in block 3 failed.
   */
  static final double[] HADOOP3 = {30.2, 45.1, 38.0, 52.3, 61.0, 33.3, 47.7, 40.4, 58.8, 66.1};
  static final double[] MINE = {31.7, 47.0, 40.1, Double.NaN, 64.2, 35.1, 47.1, 42.5, 61.3, 69.0};

  private BlockedRecords() {}

  static Path hadoop3AndMine(Path dir) {
    var times = new java.util.LinkedHashMap<String, double[]>();
    times.put("hadoop3", HADOOP3);
    times.put("mine", MINE);
    return write(dir, times);
  }

  /** {@code seconds.get(v)[b]} becomes variant v's run in block b. */
  static Path write(Path dir, Map<String, double[]> seconds) {
    RecordStore store = new RecordStore(dir);
    List<String> variants = List.copyOf(seconds.keySet());
    seconds.forEach((variant, times) -> {
      for (int b = 0; b < times.length; b++) {
        boolean ok = !Double.isNaN(times[b]);
        RunRecord r = new RunRecord(RunRecord.SCHEMA_VERSION, String.format("%s-%03d", variant, b), "blocks",
            variant, b, 1000L + b, "t", new RunRecord.ClusterInfo("mini", 4, 1024, 2), Map.of(), null, List.of(),
            List.of(), List.of(), List.of(), List.of(), new RunRecord.JobOutcome("job_" + b,
            ok ? "SUCCEEDED" : "FAILED", ok, 0L, ok ? Math.round(times[b] * 1000) : null, 8, 2, null), Map.of(),
            List.of(), null, null, List.of(), null, null, List.of(), null, null, null, null, null, null, null, null);
        store.write(r.inBlock(new RunRecord.Block(b, (variants.indexOf(variant) + b) % variants.size(),
            variants.size())));
      }
    });
    return dir;
  }
}
