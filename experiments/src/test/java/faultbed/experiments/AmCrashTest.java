package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.classify.Classification;
import faultbed.results.classify.DinuNgClassifier;
import faultbed.results.classify.DinuNgGroup;
import faultbed.results.classify.Mechanism;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The targeted scenario for the loss of the job's ApplicationMaster: its node crashes in the job's
 * first seconds, before any attempt has finished, when the first AM has written no history yet, and
 * the record must hold both AM attempts and the task attempts of each, and classify must say so.
 */
class AmCrashTest {
  // The test command crashes a pinned AM's node and checks the same record and group
  // (PinnedNodesClusterTest); this runs the published scenario end to end, with its delay account.
  @Test
  @Tag("extended")
  void crashOfTheAmsNodeIsRecordedWithBothAmAttemptsAndClassifiedAsAmLost(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("out");
    StringWriter err = new StringWriter();
    assertEquals(0, FaultbedCli.execute(new PrintWriter(System.out, true), new PrintWriter(err, true),
        // with its warm-up run: a cold first run's start-up, seconds slower, would be taken for the
        // failure's cost in the crash run's delay account (2.5 s "unexplained" once without it)
        "run", "scenarios/am-crash.json", "--out", out.toString()),
        err.toString());

    List<RunRecord> suite = new RecordStore(out).readAll();
    RunRecord r = suite.stream().filter(x -> x.variant().equals("am-crash")).findFirst().orElseThrow();
    RunRecord.FaultEvent crash = r.faults().get(0);
    assertNotNull(crash.injectedMs(), r.notes().toString());
    assertTrue(r.job().succeeded(), r.job().toString());
    assertEquals(2, r.amAttempts().size(), "AM attempts: " + r.amAttempts());
    assertEquals(crash.node(), r.amAttempts().get(0).node(), "the first AM ran on the crashed node");
    assertTrue(r.amAttempts().get(1).node() != crash.node());
    assertTrue(r.amAttempts().get(1).startMs() > crash.injectedMs());
    // The first AM died before any of its attempts ended, so its history is empty: its attempts come from
    // its log, each with its node, container and launch, none with an end state; launched before the
    // second AM started (one may follow the injection's start by the moments the kill takes).
    List<RunRecord.AttemptRecord> first = r.attempts().stream().filter(a -> a.amAttempt() == 1).toList();
    assertTrue(first.size() >= 2, "attempts running when the first AM died: " + r.attempts());
    for (RunRecord.AttemptRecord a : first) {
      assertTrue(a.state() == null && a.finishMs() == null && a.node() != null && a.container() != null
          && a.startMs() != null && a.startMs() > 0 && a.startMs() < r.amAttempts().get(1).startMs(), a.toString());
    }
    assertTrue(r.notes().stream().anyMatch(n -> n.contains("taken from their AM's log")), r.notes().toString());
    assertTrue(r.attempts().stream().anyMatch(a -> a.amAttempt() == 2 && a.startMs() > r.amAttempts().get(1).startMs()),
        "the second AM ran attempts of its own");
    assertTrue(r.attempts().stream().allMatch(a -> a.amAttempt() != null));
    assertNull(r.attempts().stream().filter(a -> a.state() == null && a.amAttempt() == 2).findFirst().orElse(null),
        "every attempt of the last AM ended");

    List<Classification> all = DinuNgClassifier.classifyAll(suite);
    Classification c = all.get(suite.indexOf(r));
    String evidence = String.join("\n", c.evidence());
    assertEquals(DinuNgGroup.AM_LOST, c.group(), evidence);
    assertTrue(c.mechanisms().contains(Mechanism.AM_RESTARTED), evidence);
    assertTrue(evidence.contains("the job's ApplicationMaster (attempt 1) ran on the failed node " + crash.node()), evidence);
    // the delay against the fault-free run lies on the new AM's path: its start, its re-runs
    assertNotNull(c.delay(), evidence);
    assertFalse(c.delay().unexplained(), c.delay().describe());
    assertTrue(c.delay().parts().stream().anyMatch(p -> p.name().equals("detection (AM restart)") && p.ms() > 0),
        c.delay().describe());
  }
}
