package faultbed.harness.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import faultbed.faults.CgroupLayout;
import faultbed.harness.Cluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * What {@link FaultbedExtension} makes of test classes as users write them: a {@code @Nested} class
 * and a subclass use a real cluster; a host that cannot run the cluster skips the tests with the
 * reason. The fixtures run under the real JUnit engine, only from here.
 */
class FaultbedExtensionTest {
  private static final String RUN_FIXTURES = "faultbed.test.fixtures";
  /** What the fixtures' tests were given, to tell one shared cluster from one per class. */
  private static final List<Given> GIVEN = new CopyOnWriteArrayList<>();

  private record Given(Cluster cluster, Recorder recorder) {}

  private static Events run(Class<?> fixture) {
    GIVEN.clear();
    System.setProperty(RUN_FIXTURES, "true");
    try {
      return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute().testEvents();
    } finally {
      System.clearProperty(RUN_FIXTURES);
    }
  }

  /** Fixtures run only when this test runs them, not when the build finds them on their own. */
  static void onlyFromTheExtensionTest() {
    org.junit.jupiter.api.Assumptions.assumeTrue(Boolean.getBoolean(RUN_FIXTURES), "a fixture of FaultbedExtensionTest");
  }

  static void oneRunningNode(Cluster cluster, Recorder recorder) {
    onlyFromTheExtensionTest();
    GIVEN.add(new Given(cluster, recorder));
    assertEquals(1, cluster.nodes().size());
    Awaitility.await().atMost(Duration.ofSeconds(30))
        .until(() -> cluster.nodeStates().values().stream().allMatch("RUNNING"::equals));
  }

  @Faultbed(nodes = 1)
  static class WithNestedFixture {
    @Test
    void outer(Cluster cluster, Recorder recorder) {
      oneRunningNode(cluster, recorder);
    }

    @Nested
    class Inner {
      @Test
      void nestedGetsTheEnclosingCluster(Cluster cluster, Recorder recorder) {
        oneRunningNode(cluster, recorder);
      }
    }
  }

  static class SubclassFixture extends WithNestedFixture {
    @Test
    void subclassGetsACluster(Cluster cluster, Recorder recorder) {
      oneRunningNode(cluster, recorder);
    }
  }

  @Faultbed(nodes = 1, backend = "namespace")
  static class NoCgroupFixture {
    @Test
    void needsACluster(Cluster cluster) {
      onlyFromTheExtensionTest();
    }
  }

  @Test
  void aNestedClassUsesTheClusterOfTheClassItIsNestedIn() {
    Events events = run(WithNestedFixture.class);
    events.assertStatistics(s -> s.started(2).succeeded(2).failed(0).aborted(0));
    assertEquals(1, GIVEN.stream().distinct().count(), "one cluster and recorder for both classes: " + GIVEN);
  }

  @Test
  void aSubclassOfAnAnnotatedClassGetsACluster() {
    Events events = run(SubclassFixture.class);
    events.assertStatistics(s -> s.started(3).succeeded(3).failed(0).aborted(0));
    assertEquals(1, GIVEN.stream().distinct().count(), "one cluster and recorder for the subclass: " + GIVEN);
  }

  @Test
  void aHostThatCannotRunTheClusterSkipsItsTestsWithTheReason(@TempDir Path dir) throws Exception {
    // a host without cgroups: the namespace backend holds each node in one, so it cannot start
    String mountinfo = System.getProperty("faultbed.mountinfo");
    System.setProperty("faultbed.mountinfo", Files.writeString(dir.resolve("mountinfo"), "").toString());
    CgroupLayout.reload();
    try {
      Events events = run(NoCgroupFixture.class);
      events.assertStatistics(s -> s.started(1).aborted(1).failed(0));
      String reason = events.aborted().stream().findFirst().orElseThrow().getPayload(
          org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow().getMessage();
      assertTrue(reason.contains("cluster not started here") && reason.contains("cgroup"), reason);
    } finally {
      if (mountinfo == null) {
        System.clearProperty("faultbed.mountinfo");
      } else {
        System.setProperty("faultbed.mountinfo", mountinfo);
      }
      CgroupLayout.reload();
    }
  }

}
