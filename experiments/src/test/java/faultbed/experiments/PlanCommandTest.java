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
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.commons.statistics.distribution.LogNormalDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** 'faultbed plan': runs needed from a pilot's spread, and what a few sizes would see. */
class PlanCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int faultbed(String... args) {
    return FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  /** 20 runs of "crash", log-normal around 45 s with a 6% spread, not in blocks. */
  private static Path pilot(Path dir) {
    double[] times = LogNormalDistribution.of(Math.log(45), 0.06).createSampler(new SplittableRandom(1)::nextLong)
        .samples(20).toArray();
    RecordStore store = new RecordStore(dir);
    for (int i = 0; i < times.length; i++) {
      store.write(new RunRecord(RunRecord.SCHEMA_VERSION, String.format("crash-%03d", i), "ci", "crash", i, 1L, "t",
          new RunRecord.ClusterInfo("mini", 4, 1024, 2), Map.of(), null, List.of(), List.of(), List.of(), List.of(),
          List.of(), new RunRecord.JobOutcome("job_" + i, "SUCCEEDED", true, 0L, Math.round(times[i] * 1000), 8, 2,
          null), Map.of(), List.of(), null, null, List.of(), null, null, List.of(), null, null, null, null, null, null, null, null));
    }
    return dir;
  }

  /** The section of {@code label}: its heading line, then one line per size. */
  private List<String> section(String label) {
    List<String> lines = out.toString().lines().toList();
    int start = lines.indexOf(lines.stream().filter(l -> l.startsWith(label + ": pilot of ")).findFirst()
        .orElseThrow(() -> new AssertionError("no section " + label + " in\n" + out)));
    int end = start + 1;
    while (end < lines.size() && !lines.get(end).isBlank()) {
      end++;
    }
    return lines.subList(start, end);
  }

  private static int needed(List<String> section) {
    String n = section.get(0).replaceFirst(".*needed: ", "").split(" ")[0];
    return n.equals("more") ? Integer.MAX_VALUE : Integer.parseInt(n);
  }

  /** Size (with * when an extrapolation), point, low, high of each size's line. */
  private static List<String[]> power(List<String> section) {
    return section.subList(2, section.size()).stream()
        .map(l -> l.trim().replaceAll("[\\[\\],]", " ").trim().split("\\s+")).toList();
  }

  @Test
  void independentRunsNeedAboutWhatTheTextbookSays(@TempDir Path tmp) {
    assertEquals(0, faultbed("plan", pilot(tmp).toString()), err.toString());
    String o = out.toString();
    assertTrue(o.contains("unpaired: each variant's runs (Mann-Whitney)"), o);
    assertTrue(o.contains("to see a slowdown of x1.050 80% of the time at alpha 0.05"), o);
    assertTrue(o.contains("unpaired power: share of 2000 suites of n runs drawn with replacement"), o);
    List<String> crash = section("crash");
    assertTrue(crash.get(0).startsWith("crash: pilot of 20 runs, time log sd 0.0"), o);
    // normal theory: 2 (1.96 + 0.84)^2 (0.06 / ln 1.05)^2 = 24 per variant, a rank test a little more
    int needed = needed(crash);
    assertTrue(needed >= 18 && needed <= 40, "needed " + needed + "\n" + o);
    double previous = -1;
    for (String[] cells : power(crash)) {
      int n = Integer.parseInt(cells[0].replace("*", ""));
      double point = Double.parseDouble(cells[1]);
      assertTrue(point >= previous, "power grows with n:\n" + o);
      assertTrue(Double.parseDouble(cells[2]) <= point && point <= Double.parseDouble(cells[3]),
          "the interval holds the point estimate:\n" + o);
      assertEquals(n > 20, cells[0].endsWith("*"), "sizes beyond the pilot's 20 runs are extrapolations:\n" + o);
      assertEquals(n >= needed, point >= 0.8, o);
      previous = point;
    }
    assertTrue(o.contains("*: more runs than the pilot has, an extrapolation"), o);
  }

  @Test
  void aPilotRunInBlocksIsPlannedPairByPair(@TempDir Path tmp) {
    Path dir = BlockedRecords.hadoop3AndMine(tmp.resolve("blocks"));
    assertEquals(0, faultbed("plan", dir.toString(), "--effect", "3%"), err.toString());
    String o = out.toString();
    assertTrue(o.contains("paired: each variant's per-block log ratios against hadoop3 (Wilcoxon signed-rank)"), o);
    List<String> pair = section("hadoop3 -> mine");
    assertTrue(pair.get(0).startsWith("hadoop3 -> mine: pilot of 9 blocks"), "blocks in which both jobs succeeded");
    int pairedBlocks = needed(pair);
    assertTrue(pairedBlocks <= 10, o);

    out.getBuffer().setLength(0);
    assertEquals(0, faultbed("plan", dir.toString(), "--effect", "3%", "--unpaired", "--variant", "hadoop3"), err.toString());
    int alone = needed(section("hadoop3"));
    assertTrue(alone > 10 * pairedBlocks, "independent runs of a 30% block spread need far more: " + out);
  }

  @Test
  void badArgumentsAreOneLineNamingTheArgument(@TempDir Path tmp) {
    Path runs = pilot(tmp.resolve("runs"));
    Path blocks = BlockedRecords.hadoop3AndMine(tmp.resolve("blocks"));
    assertBad("--effect: expected a percentage above 0 such as 5%, got x", "plan", runs.toString(), "--effect", "x");
    assertBad("--effect: expected a percentage above 0 such as 5%, got -5%", "plan", runs.toString(), "--effect", "-5%");
    assertBad("--power: expected a number between 0 and 1, got 1.5", "plan", runs.toString(), "--power", "1.5");
    assertBad("--alpha: expected a number between 0 and 1, got 0.0", "plan", runs.toString(), "--alpha", "0");
    assertBad("--paired: expected either --paired or --unpaired, not both", "plan", blocks.toString(), "--paired",
        "--unpaired");
    assertBad("--paired: expected a pilot with two variants run in blocks, got " + runs, "plan", runs.toString(),
        "--paired");
    assertBad("--variant: expected one of [crash] in PILOT, got other", "plan", runs.toString(), "--variant", "other");
    assertBad("PILOT: expected a folder of run records or a baseline file, got " + tmp.resolve("nope"), "plan",
        tmp.resolve("nope").toString());
    assertBad("Invalid value for option '--power'", "plan", runs.toString(), "--power", "high");
  }

  private void assertBad(String expectedStart, String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    assertEquals(2, faultbed(args), out.toString());
    String e = err.toString();
    assertEquals(1, e.lines().count(), e);
    assertTrue(e.startsWith("faultbed: " + expectedStart), e);
  }
}
