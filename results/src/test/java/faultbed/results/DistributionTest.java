package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.stats.Ecdf;
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
  void quantilesOfAnUnevenSampleMatchNumPy() {
    double[] v = {12.1, 3.4, 7.7, 25.0, 9.9, 14.2, 5.5, 18.8, 11.0, 30.3, 2.2};
    // numpy.percentile(v, [10, 25, 50, 90, 99]) == [3.4, 6.6, 11.0, 25.0, 29.77]
    assertEquals(3.4, Distribution.quantile(v, 10), 1e-9);
    assertEquals(6.6, Distribution.quantile(v, 25), 1e-9);
    assertEquals(11.0, Distribution.quantile(v, 50), 1e-9);
    assertEquals(25.0, Distribution.quantile(v, 90), 1e-9);
    assertEquals(29.77, Distribution.quantile(v, 99), 1e-9);
    assertEquals(29.77, Distribution.of(v).p99(), 1e-9);
  }

  @Test
  void ecdfStepsAtEachDistinctValue() {
    Ecdf e = Ecdf.of(3, 1, 2, 2);
    assertEquals(List.of(new Ecdf.Point(1, 0.25), new Ecdf.Point(2, 0.75), new Ecdf.Point(3, 1)), e.points());
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
            finishedMs, 8, 2, null), Map.of(), List.of(), null, null, List.of(), null, null, List.of(), null, null, null, null, null, null, null, null);
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
    assertEquals("a-0.json", store.list().get(0).file().getFileName().toString());
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
    assertTrue(a.completionIntervals().median().low() >= 10 && a.completionIntervals().median().high() <= 20,
        "the median's interval lies within the sample {10, 20}: " + a.completionIntervals());
    assertEquals(2000, a.completionIntervals().bootstrap().resamples());
  }
}
