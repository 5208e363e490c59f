package faultbed.results.compare;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A suite folder of variants run in randomized complete blocks; NaN stands for a failed job. */
public final class BlockedSuite {
  private BlockedSuite() {}

  /** Writes {@code seconds.get(v)[b]} as variant v's run in block b, positions rotating per block. */
  public static Path write(Path dir, Map<String, double[]> seconds) {
    RecordStore store = new RecordStore(dir);
    List<String> variants = List.copyOf(seconds.keySet());
    seconds.forEach((variant, times) -> {
      for (int b = 0; b < times.length; b++) {
        RunRecord.Block block = new RunRecord.Block(b, (variants.indexOf(variant) + b) % variants.size(),
            variants.size());
        store.write(record(variant, b, 1000L + b, times[b]).inBlock(block));
      }
    });
    return dir;
  }

  static Map<String, double[]> of(String a, double[] at, String b, double[] bt) {
    Map<String, double[]> m = new LinkedHashMap<>();
    m.put(a, at);
    m.put(b, bt);
    return m;
  }

  /** A run of {@code variant} whose job took {@code seconds} (failed when NaN). */
  public static RunRecord record(String variant, int index, long seed, double seconds) {
    boolean ok = !Double.isNaN(seconds);
    return new RunRecord(RunRecord.SCHEMA_VERSION, String.format("%s-%03d", variant, index), "blocks", variant,
        index, seed, "t", new RunRecord.ClusterInfo("mini", 4, 1024, 2), Map.of(), null, List.of(), List.of(),
        List.of(), List.of(), List.of(), new RunRecord.JobOutcome("job_" + index, ok ? "SUCCEEDED" : "FAILED", ok,
        0L, ok ? Math.round(seconds * 1000) : null, 8, 2, null), Map.of(), List.of(), null, null, List.of(), null, null, List.of(), null, null, null, null, null, null, null, null);
  }
}
