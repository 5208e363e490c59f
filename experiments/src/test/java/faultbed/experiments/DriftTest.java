package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The published drift experiment ({@link DriftExperiment}): an A/A suite under a load that grows
 * run by run. Run in interleaved blocks, the gate finds no difference between the identical
 * variants; run variant by variant, the drift poses as a regression of the variant that ran later.
 */
class DriftTest {
  private static final Path PUBLISHED = Path.of("published/drift");

  private static String compare(Path suite, int expectedExit) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), "compare",
        suite.toString(), suite.toString(), "--baseline-variant", "a", "--candidate-variant", "b");
    assertEquals(expectedExit, code, suite + ":\n" + out + err);
    return out.toString();
  }

  @Test
  void theRecordsAreTheDesignTheyClaim() {
    List<RunRecord> blocked = new RecordStore(PUBLISHED.resolve("blocked")).readAll();
    List<RunRecord> sequential = new RecordStore(PUBLISHED.resolve("variant-by-variant")).readAll();
    assertEquals(12, blocked.size());
    assertEquals(12, sequential.size());
    assertTrue(blocked.stream().allMatch(r -> r.block() != null && r.block().index() == r.runIndex()));
    assertTrue(sequential.stream().allMatch(r -> r.block() == null));
    // variant by variant: every run of b started after every run of a
    String lastA = sequential.stream().filter(r -> r.variant().equals("a")).map(RunRecord::startedAt).max(String::compareTo).orElseThrow();
    assertTrue(sequential.stream().filter(r -> r.variant().equals("b")).allMatch(r -> r.startedAt().compareTo(lastA) > 0));
  }

  @Test
  void blockedTheDriftIsNoVerdict() {
    String out = compare(PUBLISHED.resolve("blocked"), 0);
    assertTrue(out.contains("no regression"), out);
  }

  @Test
  void variantByVariantTheDriftPosesAsARegression() {
    String out = compare(PUBLISHED.resolve("variant-by-variant"), 1);
    assertTrue(out.contains("WORSE"), out);
  }
}
