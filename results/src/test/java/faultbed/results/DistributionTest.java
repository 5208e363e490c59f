package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DistributionTest {
  @Test
  void quantilesFollowR7AsNumPyComputesThem() {
    // numpy.percentile(range(1, 11), [50, 90, 99]) == [5.5, 9.1, 9.91]
    Distribution d = Distribution.of(10, 3, 1, 2, 4, 5, 6, 7, 8, 9);
    assertEquals(10, d.n());
    assertEquals(1, d.min());
    assertEquals(5.5, d.median(), 1e-12);
    assertEquals(5.5, d.mean(), 1e-12);
    assertEquals(9.1, d.p90(), 1e-12);
    assertEquals(9.91, d.p99(), 1e-12);
    assertEquals(10, d.max());
  }

  @Test
  void oneValueIsEveryStatistic() {
    Distribution d = Distribution.of(42);
    assertEquals(42, d.median());
    assertEquals(42, d.p99());
  }

  @Test
  void emptySampleIsNotANumber() {
    assertTrue(Double.isNaN(Distribution.of().median()));
  }

  private static RunRecord run(String variant, int i, Long finishedMs, boolean ok) {
    return new RunRecord(RunRecord.SCHEMA_VERSION, variant + "-" + i, "s", variant, i, i, "t",
        new RunRecord.ClusterInfo("mini", 4, 1024, 2), Map.of(), null, List.of(), List.of(), List.of(),
        List.of(), List.of(), new RunRecord.JobOutcome("job_" + i, ok ? "SUCCEEDED" : "FAILED", ok, 0L,
            finishedMs, 8, 2, null), Map.of(), List.of());
  }

  @Test
  void summaryGroupsByVariantAndKeepsFailedJobsOutOfTheTimes(@TempDir Path dir) {
    RecordStore store = new RecordStore(dir);
    store.write(run("a", 0, 10_000L, true));
    store.write(run("a", 1, 20_000L, true));
    store.write(run("a", 2, 999_000L, false));
    store.write(run("b", 0, 30_000L, true));
    List<RunRecord> back = store.readAll();
    assertEquals(4, back.size());
    SuiteSummary s = SuiteSummary.of(back);
    store.writeSummary(s);
    assertEquals(4, store.readAll().size(), "summary.json is not a run record");
    var a = s.variants().get(0);
    assertEquals("a", a.variant());
    assertEquals(3, a.runs());
    assertEquals(1, a.failed());
    assertEquals(15.0, a.completionSeconds().median(), 1e-9);
    assertEquals(30.0, s.variants().get(1).completionSeconds().max(), 1e-9);
    assertTrue(s.table().contains("median"));
  }
}
