package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** 'faultbed calibrate' on the published drift suite, whose variants a and b are identical. */
class CalibrateCommandTest {
  private static final Path BLOCKED = Path.of("published/drift/blocked");
  private static final Path UNBLOCKED = Path.of("published/drift/variant-by-variant");

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int faultbed(String... args) {
    return FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  @Test
  void measuresTheGateOnRealBlocks() {
    assertEquals(0, faultbed("calibrate", BLOCKED.toString(), "--reference", "a", "--same", "b", "--blocks", "6,12",
        "--draws", "400", "--max-regression", "0"), err.toString());
    String o = out.toString();
    assertTrue(o.contains("6 complete blocks of a, b"), o);
    assertTrue(o.contains("gate: compare at alpha 0.05, max regression 0%"), o);
    assertTrue(o.contains("paired power: share of 400 suites of n blocks"), o);
    String twelve = o.lines().filter(l -> l.startsWith("   12* ")).findFirst().orElseThrow(() -> new AssertionError(o));
    // blocks, minutes, then point [low, high] / unpaired for the A/A pair, x1.05 and x1.10
    String[] cells = twelve.replaceAll("[\\[\\],/*]", " ").trim().split("\\s+");
    double falseAlarm = Double.parseDouble(cells[2]);
    double tenPercent = Double.parseDouble(cells[10]);
    assertTrue(falseAlarm <= 0.05, o);
    assertTrue(tenPercent >= 0.8, o);
    assertTrue(Double.parseDouble(cells[11]) <= tenPercent && tenPercent <= Double.parseDouble(cells[12]), o);
    // 12 blocks of two variants at the drift suite's pace of about 20 s per run
    assertTrue(Double.parseDouble(cells[1]) > 6 && Double.parseDouble(cells[1]) < 10, o);
    // the pilot has 6 blocks: 12 is an extrapolation, and the output says so
    assertTrue(o.contains("*: more blocks than the pilot's 6, an extrapolation"), o);
    assertTrue(o.lines().anyMatch(l -> l.startsWith("     6 ")), o);
  }

  @Test
  void badInputIsOneLineAndExitTwo() {
    assertEquals(2, faultbed("calibrate", BLOCKED.toString(), "--reference", "a", "--same", "c"));
    assertEquals("faultbed: SUITE: expected a variant c, got [a, b]", err.toString().strip());
    assertBad("faultbed: SUITE: variant a: expected runs in blocks, got runs without",
        "calibrate", UNBLOCKED.toString(), "--reference", "a", "--same", "b");
    assertBad("faultbed: --blocks: expected sizes of 2 or more blocks, got 1",
        "calibrate", BLOCKED.toString(), "--reference", "a", "--same", "b", "--blocks", "1");
    assertBad("faultbed: --shift: expected percentages above 0, got -5.0",
        "calibrate", BLOCKED.toString(), "--reference", "a", "--same", "b", "--shift", "-5");
  }

  @Test
  void aPilotMustBeTheGateInAllButItsName() {
    // the straggler pilot's pinned pair ran the gate's reference, Hadoop's speculator, on the gate's cluster,
    // job and faults, with the AM and the reduce pinned as the gate pins them
    assertEquals(0, faultbed("calibrate", "published/gate-power/stragglers-pinned", "--reference", "pinned",
        "--same", "pinned-again", "--blocks", "8", "--draws", "50", "--gate", "../ci/scenarios/stragglers.json"),
        err.toString());
    // and the pilot of that pair alone, two variants next to each other as the gate runs them
    assertEquals(0, faultbed("calibrate", "published/gate-power/stragglers-pair", "--reference", "pinned",
        "--same", "pinned-again", "--blocks", "10", "--draws", "50", "--gate", "../ci/scenarios/stragglers.json"),
        err.toString());
    // its unpinned pair, and the pilot before pinning, place them as the RM does: not the gate
    assertBad("faultbed: SUITE: variant a is not the gate ../ci/scenarios/stragglers.json: pin: got [], expected"
        + " [am, reduces] (the gate's reference)", "calibrate", "published/gate-power/stragglers-pinned",
        "--reference", "a", "--same", "a-again", "--gate", "../ci/scenarios/stragglers.json");
    assertBad("faultbed: SUITE: variant a is not the gate ../ci/scenarios/stragglers.json: pin: got [], expected"
        + " [am, reduces] (the gate's reference)", "calibrate", "published/gate-power/stragglers",
        "--reference", "a", "--same", "a-again", "--gate", "../ci/scenarios/stragglers.json");
    // the crash pilot of the gate's reference is the gate; the first crash pilot ran no speculator, which neither
    // of the gate's variants does
    assertEquals(0, faultbed("calibrate", "published/gate-power/crash-hadoop3", "--reference", "a",
        "--same", "a-again", "--blocks", "10", "--draws", "50", "--gate", "../ci/scenarios/crash.json"), err.toString());
    err.getBuffer().setLength(0);
    assertEquals(2, faultbed("calibrate", "published/gate-power/crash", "--reference", "a", "--same", "a-again",
        "--gate", "../ci/scenarios/crash.json"));
    String line = err.toString().strip();
    assertEquals(1, line.lines().count(), line);
    assertTrue(line.startsWith("faultbed: SUITE: variant a is not the gate ../ci/scenarios/crash.json: speculation: got off,"
        + " expected one of the gate's [reference hadoop3"), line);
    // and against the other gate, the first field that differs
    assertBad("faultbed: SUITE: variant a is not the gate ../ci/scenarios/crash.json: cluster.timeScale: got 0.1,"
        + " expected 1.0 (the gate's reference)", "calibrate", "published/gate-power/stragglers", "--reference", "a",
        "--same", "a-again", "--gate", "../ci/scenarios/crash.json");
    assertBad("faultbed: --gate: expected a scenario file, got nope.json", "calibrate", BLOCKED.toString(),
        "--reference", "a", "--same", "b", "--gate", "nope.json");
  }

  private void assertBad(String line, String... args) {
    err.getBuffer().setLength(0);
    assertEquals(2, faultbed(args));
    assertEquals(line, err.toString().strip());
  }
}
