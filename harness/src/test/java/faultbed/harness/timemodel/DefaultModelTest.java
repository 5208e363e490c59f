package faultbed.harness.timemodel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The time model faultbed ships is what 'faultbed sim-model' fits from the published suites it
 * names (docs/simulation.md gives the command), so it cannot drift from the records it claims.
 */
class DefaultModelTest {
  private static final Path PUBLISHED = Path.of("..", "experiments", "published");
  /**
   * Every published suite of this 2-core machine's own backends, but the cgroup-v2 quickstart (an
   * emulated guest, tens of times slower) and the synthetic suites (their tasks sleep, not compute).
   */
  static final List<String> SUITES = List.of("base-useless-backups", "blackhole", "dinu-ng-seed-ratio", "dinu-ng-thresholds",
      "dinu-ng", "heterogeneous", "network-heterogeneity-sort", "network-heterogeneity", "samr-calibrated",
      "samr-heterogeneous", "samr-long-maps", "samr-wordcount", "stragglers-sort", "stragglers-strong", "stragglers",
      "two-mechanisms-namespace", "two-mechanisms");

  @Test
  void theShippedModelIsTheFitOfThePublishedSuites() {
    List<RunRecord> records = new ArrayList<>();
    for (String suite : SUITES) {
      records.addAll(new RecordStore(PUBLISHED.resolve(suite)).readAll());
    }
    // the progress profile's runs, of another day, give the start-up's share of a map's work only; the
    // shuffle-bytes profile's, what a map's output weighs for the workloads whose suites do not say; the
    // heterogeneous disks', what a task moves through a disk held to a rate
    TimeModel refit = TimeModel.fit("default", records,
        new RecordStore(PUBLISHED.resolve("progress-profile")).readAll(),
        new RecordStore(PUBLISHED.resolve("shuffle-bytes")).readAll(),
        new RecordStore(PUBLISHED.resolve("heterogeneous-disks")).readAll(), Machines.shared(2));
    TimeModel shipped = TimeModel.standard();
    assertEquals(refit.fittedFrom(), shipped.fittedFrom());
    assertEquals(refit.workloads().keySet(), shipped.workloads().keySet());
    refit.workloads().forEach((type, w) -> {
      TimeModel.WorkloadTimes s = shipped.workloads().get(type);
      assertEquals(w.map().medianMs(), s.map().medianMs(), 1e-6, type + " map");
      assertEquals(w.map().logSd(), s.map().logSd(), 1e-9, type + " map spread");
      assertEquals(w.reduce().medianMs(), s.reduce().medianMs(), 1e-6, type + " reduce");
      assertEquals(w.shuffleLag().medianMs(), s.shuffleLag().medianMs(), 1e-6, type + " shuffle");
      assertEquals(w.bytesPerMap(), s.bytesPerMap(), type + " bytes a map");
      assertEquals(w.mapProgress().startupShare(), s.mapProgress().startupShare(), 1e-9, type + " start-up");
      assertEquals(w.mapProgress().sortShare(), s.mapProgress().sortShare(), 1e-9, type + " sort share");
      assertEquals(w.shuffleBytesPerInputByte(), s.shuffleBytesPerInputByte(), type + " shuffled bytes");
      assertEquals(w.disk(), s.disk(), type + " bytes through a disk");
    });
    assertEquals(refit.jobSetupMs(), shipped.jobSetupMs());
    assertEquals(refit.slowdowns(), shipped.slowdowns());
    assertEquals(refit.baseline(), shipped.baseline());
  }
}
