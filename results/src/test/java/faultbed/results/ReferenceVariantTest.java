package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.compare.BlockedSuite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One rule picks the variant a suite is compared with: the scenario's choice, else the only fault-free one, else the first. */
class ReferenceVariantTest {
  private static RunRecord run(String variant, boolean faulty) {
    RunRecord r = BlockedSuite.record(variant, 0, 1, 30);
    if (!faulty) {
      return r;
    }
    return new RunRecord(r.schemaVersion(), r.runId(), r.scenario(), r.variant(), r.runIndex(), r.seed(), r.startedAt(),
        r.cluster(), r.hadoop(), r.workload(), r.nodes(), List.of(new RunRecord.FaultEvent("crash", 1, "random", "at 5000 ms",
            5000L, 5010L, null, Map.of())), r.nodeTransitions(), r.attempts(), r.fetchFailures(), r.job(), r.harnessMs(),
        r.notes(), r.speculation(), r.timeScale(), r.companionJobs(), r.block(), r.provenance(), r.amAttempts(), null, null, null, null, null, null, null, null);
  }

  @Test
  void theScenariosChoiceComesFirst(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve(RecordStore.SCENARIO_COPY), "{ \"reference\": \"hadoop3\", \"workload\": {} }");
    var ref = ReferenceVariant.of(dir, List.of(run("base", true), run("hadoop3", true), run("off", false)));
    assertEquals(new ReferenceVariant("hadoop3", "named by the scenario"), ref.orElseThrow());
  }

  @Test
  void elseTheOnlyFaultFreeVariant(@TempDir Path dir) {
    var ref = ReferenceVariant.of(dir, List.of(run("a-crash", true), run("baseline", false), run("z", true)));
    assertEquals("baseline", ref.orElseThrow().name());
  }

  @Test
  void elseTheFirstAndSaysWhy(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve(RecordStore.SCENARIO_COPY), "{ \"reference\": \"gone\" }");
    var ref = ReferenceVariant.of(dir, List.of(run("connect-3s", true), run("defaults", true))).orElseThrow();
    assertEquals("connect-3s", ref.name());
    assertTrue(ref.why().startsWith("the scenario names gone, which has no runs here; the first variant"), ref.why());
  }
}
