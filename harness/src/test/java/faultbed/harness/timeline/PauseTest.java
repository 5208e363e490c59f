package faultbed.harness.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.Node;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which processes a pause stops, on a process table as a namespace node lists it while a job runs. */
class PauseTest {
  private static final String JAVA = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java -Xmx384m -XX:+UseSerialGC";
  private static final String APP = "/var/tmp/faultbed/h1/nodes/node-2/g0/local/usercache/root/appcache/application_17_0001/";

  /** The node process, the AM's container (launcher, shell, JVM) and two maps' and a reduce's (shell, JVM). */
  private static final List<Node.Proc> NODE = List.of(
      new Node.Proc(100, JAVA + " -cp x.jar faultbed.harness.daemons.NodeProcess /var/tmp/node-2/g0 /var/tmp/node-2/g0/status", true),
      new Node.Proc(200, "bash " + APP + "container_17_0001_01_000001/default_container_executor.sh", false),
      new Node.Proc(201, "/bin/bash -c " + JAVA + " org.apache.hadoop.mapreduce.v2.app.MRAppMaster 1>stdout 2>stderr", false),
      new Node.Proc(202, JAVA + " org.apache.hadoop.mapreduce.v2.app.MRAppMaster", false),
      new Node.Proc(300, "/bin/bash -c " + JAVA + " org.apache.hadoop.mapred.YarnChild 198.18.0.12 40945"
          + " attempt_17_0001_m_000003_0 5 1>stdout 2>stderr", false),
      new Node.Proc(301, JAVA + " org.apache.hadoop.mapred.YarnChild 198.18.0.12 40945 attempt_17_0001_m_000003_0 5", false),
      new Node.Proc(310, JAVA + " org.apache.hadoop.mapred.YarnChild 198.18.0.12 40945 attempt_17_0001_m_000001_1 7", false),
      new Node.Proc(400, JAVA + " org.apache.hadoop.mapred.YarnChild 198.18.0.12 40945 attempt_17_0001_r_000000_0 9", false));

  private static List<Long> pids(Pause.Chosen c) {
    return c.processes().stream().map(Node.Proc::pid).toList();
  }

  @Test
  void theNodeManagerIsTheNodesOwnProcessAlone() {
    assertEquals(List.of(100L), pids(Pause.choose(Pause.Part.NODEMANAGER, NODE)));
  }

  @Test
  void containersAreEverythingButTheNodeProcess() {
    assertEquals(List.of(200L, 201L, 202L, 300L, 301L, 310L, 400L), pids(Pause.choose(Pause.Part.CONTAINERS, NODE)));
  }

  @Test
  void theApplicationMasterIsItsJvmNotTheShellThatStartedIt() {
    assertEquals(List.of(202L), pids(Pause.choose(Pause.Part.APPLICATION_MASTER, NODE)));
  }

  @Test
  void aTaskIsTheJvmOfTheRunningAttemptOfItsTypeWithTheLowestId() {
    Pause.Chosen map = Pause.choose(Pause.Part.MAP, NODE);
    assertEquals(Optional.of("attempt_17_0001_m_000001_1"), map.attempt());
    assertEquals(List.of(310L), pids(map));
    Pause.Chosen reduce = Pause.choose(Pause.Part.REDUCE, NODE);
    assertEquals(Optional.of("attempt_17_0001_r_000000_0"), reduce.attempt());
    assertEquals(List.of(400L), pids(reduce));
  }

  /** A map whose launch shell runs but whose JVM has not started yet is not yet a map to stall. */
  @Test
  void aTaskStillInItsLaunchShellIsNotChosen() {
    List<Node.Proc> launching = NODE.stream().filter(p -> p.pid() != 301 && p.pid() != 310).toList();
    Pause.Chosen map = Pause.choose(Pause.Part.MAP, launching);
    assertEquals(Optional.empty(), map.attempt());
    assertTrue(map.processes().isEmpty());
  }

  @Test
  void aNodeWithoutTheRoleGivesNothing() {
    List<Node.Proc> daemonOnly = NODE.subList(0, 1);
    for (Pause.Part part : List.of(Pause.Part.CONTAINERS, Pause.Part.APPLICATION_MASTER, Pause.Part.MAP, Pause.Part.REDUCE)) {
      assertTrue(Pause.choose(part, daemonOnly).processes().isEmpty(), part.label());
    }
    assertTrue(Pause.choose(Pause.Part.NODEMANAGER, NODE.subList(1, NODE.size())).processes().isEmpty(),
        "a node of the mini backend has no process of its own");
  }

  @Test
  void aPauseLastsAWhileAndStallsThePartItNames() {
    assertThrows(IllegalArgumentException.class, () -> Pause.of(Target.node(0), Pause.Part.MAP, Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> Pause.of(Target.node(0), Pause.Part.MAP, null));
    assertEquals(faultbed.results.FaultEffect.CUTS_OFF,
        Pause.of(Target.node(0), Pause.Part.NODEMANAGER, Duration.ofSeconds(1)).effect());
    assertEquals(faultbed.results.FaultEffect.NONE,
        Pause.of(Target.node(0), Pause.Part.APPLICATION_MASTER, Duration.ofSeconds(1)).effect());
  }
}
