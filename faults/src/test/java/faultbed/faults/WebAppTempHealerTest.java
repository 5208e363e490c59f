package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A web app's folder goes once nothing listens on its port, and stays while its server does. */
class WebAppTempHealerTest {
  private static Path webApp(Path temp, int port, String base) throws Exception {
    return webApp(temp, "localhost", port, base);
  }

  private static Path webApp(Path temp, String host, int port, String base) throws Exception {
    Path dir = temp.resolve("jetty-" + host + "-" + port + "-" + base + "-_-any-42");
    Files.createDirectories(dir.resolve("webapp/WEB-INF"));
    Files.writeString(dir.resolve("webapp/index.html"), "<html/>");
    return dir;
  }

  @Test
  void removesOnlyTheFoldersOfHadoopWebAppsWhosePortIsClosed(@TempDir Path temp) throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    try (ServerSocket live = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Path stale = webApp(temp, closedPort, "hadoop-yarn-common-3_4_3_jar");
      Path serving = webApp(temp, live.getLocalPort(), "hadoop-hdfs-3_4_3-tests_jar");
      Path notHadoops = webApp(temp, closedPort, "someone-elses_war");
      Path everyAddress = webApp(temp, "0_0_0_0", closedPort, "hadoop-yarn-common-3_4_3_jar");
      Path servingOnLoopback = webApp(temp, "127_0_0_1", live.getLocalPort(), "hadoop-yarn-common-3_4_3_jar");
      Path elsewhere = webApp(temp, "10_1_2_3", closedPort, "hadoop-yarn-common-3_4_3_jar");

      WebAppTempHealer healer = new WebAppTempHealer(temp);
      List<Healer.Found> found = healer.findAll();
      assertEquals(java.util.Set.of(stale.toString(), everyAddress.toString()),
          found.stream().map(f -> f.entry().id()).collect(java.util.stream.Collectors.toSet()));
      found.forEach(f -> assertEquals("removed web app folder " + f.entry().id(), healer.heal(f.entry())));
      assertFalse(Files.exists(stale));
      assertFalse(Files.exists(everyAddress));
      assertTrue(Files.exists(servingOnLoopback), "127.0.0.1 is asked as such");
      assertTrue(Files.exists(elsewhere), "an address the project did not make is never contacted");
      assertTrue(Files.exists(serving.resolve("webapp/index.html")), "a serving web app keeps its folder");
      assertTrue(Files.exists(notHadoops), "only Hadoop's web apps are faultbed's to judge");
      assertNull(healer.heal(found.get(0).entry()), "healing twice finds nothing left");
    }
  }
}
