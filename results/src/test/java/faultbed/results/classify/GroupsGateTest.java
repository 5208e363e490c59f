package faultbed.results.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupsGateTest {
  private static Classification run(String id, String variant, DinuNgGroup g, Recovery r) {
    return new Classification(id, variant, 1_000L, 50_000L, true, g, r, List.of(), List.of(), null);
  }

  private static Classification lostOutputs(String id, String variant, DinuNgGroup g, Recovery r) {
    return new Classification(id, variant, 1_000L, 50_000L, true, g, r, List.of(Mechanism.MAP_OUTPUTS_LOST), List.of(), null);
  }

  private static final List<Classification> BASELINE = List.of(
      run("baseline-000", "baseline", DinuNgGroup.NO_FAULT, Recovery.NONE_NEEDED),
      run("crash-000", "crash", DinuNgGroup.G6, Recovery.NODE_EXPIRY),
      run("crash-001", "crash", DinuNgGroup.G5, Recovery.FETCH_FAILURE_REPORTS),
      run("crash-002", "crash", DinuNgGroup.G7, Recovery.NONE_NEEDED),
      lostOutputs("crash-no-rst-000", "crash-no-rst", DinuNgGroup.G1, Recovery.NODE_EXPIRY),
      run("crash-no-rst-001", "crash-no-rst", DinuNgGroup.G7, Recovery.NONE_NEEDED));

  @Test
  void aSuiteLikeTheBaselinePassesAndTheFileRoundTrips(@TempDir Path dir) {
    GroupsGate gate = GroupsGate.of("quick", BASELINE, List.of("crash-no-rst"));
    assertEquals(List.of("G1", "G5", "G6", "G7"), List.copyOf(gate.groups().keySet()));
    assertEquals(2, gate.groups().get("G7"));
    gate.write(dir.resolve("groups.json"));
    GroupsGate back = GroupsGate.read(dir.resolve("groups.json"));
    assertEquals(gate, back);
    assertEquals(List.of(), back.violations(BASELINE));

    var missing = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> GroupsGate.read(dir.resolve("absent.json")));
    assertEquals("expected a faultbed-groups/1 file, got " + dir.resolve("absent.json") + " (no such file)",
        missing.getMessage());
  }

  @Test
  void fewerGroupsFail() {
    GroupsGate gate = GroupsGate.of("quick", BASELINE, List.of());
    List<Classification> fewer = List.of(BASELINE.get(1), BASELINE.get(3), BASELINE.get(4));
    List<String> v = gate.violations(fewer);
    assertEquals(1, v.size(), v.toString());
    assertTrue(v.get(0).contains("found 3 groups [G1, G6, G7], the baseline 4") && v.get(0).endsWith("missing [G5]"), v.get(0));
  }

  @Test
  void rstSuppressedCrashesThatStopWaitingForExpiryFail() {
    GroupsGate gate = GroupsGate.of("quick", BASELINE, List.of("crash-no-rst"));
    List<Classification> broken = new java.util.ArrayList<>(BASELINE);
    broken.set(4, lostOutputs("crash-no-rst-000", "crash-no-rst", DinuNgGroup.G5, Recovery.FETCH_FAILURE_REPORTS));
    broken.add(run("crash-003", "crash", DinuNgGroup.G1, Recovery.NODE_EXPIRY));
    List<String> v = gate.violations(broken);
    assertEquals(List.of("crash-no-rst: crash-no-rst-000 recovered by fetch-failure reports, not by node expiry,"
        + " though its crash sent no RST"), v);
  }

  @Test
  void anExpiryBoundVariantThatLostNothingProvesNothing() {
    GroupsGate gate = GroupsGate.of("quick", BASELINE, List.of("crash-no-rst"));
    List<Classification> nothingLost = List.of(BASELINE.get(1), BASELINE.get(2), BASELINE.get(3), BASELINE.get(5),
        run("crash-004", "crash", DinuNgGroup.G1, Recovery.NODE_EXPIRY));
    assertEquals(List.of("crash-no-rst: no run lost map outputs, so nothing shows whether recovery waited for node expiry"),
        gate.violations(nothingLost));
  }

  /** A silent node's running attempts stop reporting and get backed up: that needs no RST and no expiry. */
  @Test
  void rstSuppressedCrashesThatLostOnlyRunningAttemptsMayBeRecoveredBySpeculation() {
    GroupsGate gate = GroupsGate.of("quick", BASELINE, List.of("crash-no-rst"));
    List<Classification> runs = new java.util.ArrayList<>(BASELINE);
    runs.add(new Classification("crash-no-rst-002", "crash-no-rst", 1_000L, 50_000L, true, DinuNgGroup.G6,
        Recovery.SPECULATION, List.of(Mechanism.RUNNING_ATTEMPTS_LOST, Mechanism.SPECULATIVE_MAP), List.of(), null));
    assertEquals(List.of(), gate.violations(runs));
  }
}
