package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.faults.Cgroup;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** {@code faultbed doctor} lists what a dead run left and {@code --fix} removes it, processes included. */
class DoctorTest {
  @Test
  void doctorListsThenFixesAnUnclaimedGroupWithAProcessInIt() throws Exception {
    Cgroup node = Cgroup.of("h999999999-doctor/node-0").create();
    Process sleeper = node.spawn(java.util.List.of("sleep", "300"));
    Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !node.pids().isEmpty());

    var listing = capture("doctor");
    assertEquals(1, listing.code, "leftovers listed, not fixed");
    assertTrue(listing.out.contains("leftover: cgroup faultbed/h999999999-doctor with 1 process(es)"), listing.out);
    assertTrue(sleeper.isAlive(), "listing changes nothing");

    var asJson = capture("doctor", "--json");
    assertEquals(1, asJson.code, "the same exit code as the text");
    var doc = faultbed.results.RecordStore.json().readTree(asJson.out);
    assertTrue(doc.get("leftovers").toString().contains("cgroup faultbed/h999999999-doctor with 1 process(es)"), asJson.out);
    int examples = faultbed.harness.timeline.FaultKind.all().stream()
        .mapToInt(k -> k.examples().apply(faultbed.harness.timeline.Target.randomNode()).size()).sum();
    assertEquals(examples, doc.get("host").get("faultKinds").size(), "a row per example of each kind: " + asJson.out);
    assertTrue(doc.get("host").get("capabilities").size() >= 3, asJson.out);
    // every registered backend has its row: available, or the one line its own check gives
    assertEquals(faultbed.harness.Backends.names().size(), doc.get("host").get("backends").size(), asJson.out);
    assertEquals("mini", doc.get("host").get("backends").get(0).get("name").asText(), asJson.out);
    assertTrue(listing.out.contains("node backend"), listing.out);

    var fixing = capture("doctor", "--fix");
    assertEquals(0, fixing.code);
    assertTrue(fixing.out.contains("healed: removed unclaimed cgroup faultbed/h999999999-doctor and killed 1"), fixing.out);
    Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !sleeper.isAlive());
    assertFalse(Cgroup.of("h999999999-doctor").exists());
  }

  record Captured(int code, String out) {}

  private static Captured capture(String... args) {
    StringWriter out = new StringWriter();
    int code = FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), args);
    return new Captured(code, out.toString());
  }
}
