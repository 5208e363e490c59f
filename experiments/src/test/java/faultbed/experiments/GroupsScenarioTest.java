package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.faults.Capability;
import faultbed.results.RecordStore;
import faultbed.results.classify.Classification;
import faultbed.results.classify.DinuNgClassifier;
import faultbed.results.classify.DinuNgGroup;
import faultbed.results.classify.Mechanism;
import faultbed.results.classify.Recovery;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FileUtil;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * groups.json produces each failure group on purpose, the AM's loss and an induced reducer death
 * among them; each run must be classified into the group its fault was aimed at, by the mechanism
 * that group names. Nine Sort runs, so it runs with the
 * reproduction gate ({@code ci/reproduction}), not in the test command.
 */
@Tag("reproduction")
class GroupsScenarioTest {
  @Test
  void eachTargetedFailureLandsInItsGroup() {
    assumeTrue(Capability.IPTABLES.problems().isEmpty(), () -> "RST suppression needs iptables: " + Capability.IPTABLES.problems());
    Path out = Path.of("target", "groups"); // kept for a look when it fails
    FileUtil.fullyDelete(out.toFile()); // a fresh folder: only this run's records
    StringWriter err = new StringWriter();
    assertEquals(0, FaultbedCli.execute(new PrintWriter(System.out, true), new PrintWriter(err, true),
        "run", "scenarios/groups.json", "--out", out.toString()), err.toString());
    // as classify does: each run beside the suite's fault-free one, which places it among the
    // liveness checks (G1 or G2) and is what its delay is accounted against
    List<Classification> all = DinuNgClassifier.classifyAll(new RecordStore(out).readAll());
    Map<String, Classification> byVariant = all.stream()
        .collect(Collectors.toMap(Classification::variant, c -> c));

    List<String> wrong = new ArrayList<>();
    expect(wrong, byVariant.get("baseline"), Set.of(DinuNgGroup.NO_FAULT), Set.of(Recovery.NONE_NEEDED));
    expect(wrong, byVariant.get("first-wave"), Set.of(DinuNgGroup.G6), Set.of(Recovery.NODE_EXPIRY, Recovery.SPECULATION));
    expect(wrong, byVariant.get("idle"), Set.of(DinuNgGroup.G7), Set.of(Recovery.NONE_NEEDED));
    expect(wrong, byVariant.get("expiry"), Set.of(DinuNgGroup.G1, DinuNgGroup.G2), Set.of(Recovery.NODE_EXPIRY));
    expect(wrong, byVariant.get("reports"), Set.of(DinuNgGroup.G3, DinuNgGroup.G4, DinuNgGroup.G5),
        Set.of(Recovery.FETCH_FAILURE_REPORTS));
    expect(wrong, byVariant.get("am"), Set.of(DinuNgGroup.AM_LOST), Set.of(Recovery.NODE_EXPIRY, Recovery.NODE_REPORTED));
    Classification induced = byVariant.get("induced-death");
    expect(wrong, induced, Set.of(DinuNgGroup.G1, DinuNgGroup.G2), Set.of(Recovery.NODE_EXPIRY));
    inducedDeath(wrong, induced);
    Classification failed = byVariant.get("failed-job");
    if (failed.jobSucceeded() || failed.group() != DinuNgGroup.G8) {
      wrong.add("expected the job to fail (G8), got " + failed.group() + ": " + failed.runId() + "\n"
          + String.join("\n", failed.evidence()));
    }
    inducedDeath(wrong, failed);
    for (Classification c : all) {
      if (c.delay() != null && c.delay().unexplained()) {
        wrong.add(c.runId() + ": its delay is unexplained: " + c.delay().describe());
      }
    }
    assertTrue(wrong.isEmpty(), String.join("\n\n", wrong));
  }

  /** A reducer on a live node bailed out of its shuffle, and classify says so. */
  private static void inducedDeath(List<String> wrong, Classification c) {
    if (!c.mechanisms().contains(Mechanism.INDUCED_REDUCER_DEATH)) {
      wrong.add("expected an induced reducer death, saw " + c.mechanisms() + ": " + c.runId() + "\n"
          + String.join("\n", c.evidence()));
    }
  }

  private static void expect(List<String> wrong, Classification c, Set<DinuNgGroup> groups, Set<Recovery> recoveries) {
    if (!c.jobSucceeded() || !groups.contains(c.group()) || !recoveries.contains(c.recovery())) {
      wrong.add("expected " + groups + " by " + recoveries + ", got " + c.group() + " by " + c.recovery() + ": "
          + c.runId() + "\n" + String.join("\n", c.evidence()));
    }
  }
}
