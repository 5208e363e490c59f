package faultbed.faults;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What an idle backend costs the shuffle's path: TCP throughput on loopback with no qdisc, with
 * faultbed's htb root installed but shaping another port, and through an idle Toxiproxy proxy
 * (where a server is: FAULTBED_TOXIPROXY_URL or Docker; otherwise that part is skipped).
 * {@code mvn -pl faults test -Dfaultbed.excludedGroups=none -Dgroups=benchmark -Dtest=LoopbackThroughputBenchmark}
 */
@Tag("benchmark")
class LoopbackThroughputBenchmark {
  private static double mbPerSecond(int port, long millis) throws IOException {
    return Firehose.bytesPerSecond(port, java.time.Duration.ofMillis(millis), java.time.Duration.ZERO) / (1 << 20);
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  @Test
  void measure() throws Exception {
    int repeats = 5;
    double[] direct = new double[repeats];
    double[] idle = new double[repeats];
    try (ServerSocket server = Firehose.start(); ServerSocket other = new ServerSocket(0); Ledger ledger = Ledger.open()) {
      for (int i = 0; i < repeats; i++) {
        direct[i] = mbPerSecond(server.getLocalPort(), 2000);
        Installed cap = TrafficControl.loopback(ledger).cap(List.of(other.getLocalPort()), 1 << 20);
        idle[i] = mbPerSecond(server.getLocalPort(), 2000);
        cap.heal();
        new TrafficControl.RootHealer().heal(new LedgerEntry(TrafficControl.KIND, "lo", "bench", java.util.Map.of()));
      }
    }
    String line = String.format("loopback TCP throughput, no qdisc: median %.0f MB/s; faultbed's htb root idle"
        + " (shaping another port): median %.0f MB/s; ratio %.2f (n=%d, 2 s each)",
        median(direct), median(idle), median(idle) / median(direct), repeats);
    System.out.println(line);
    Files.writeString(Path.of("target", "benchmarks-loopback.txt"), line + "\n");
  }

  @Test
  void throughAnIdleToxiproxyProxy() throws Exception {
    java.util.Optional<String> missing = ToxiproxyServer.unavailable(null);
    org.junit.jupiter.api.Assumptions.assumeTrue(missing.isEmpty(),
        () -> "Toxiproxy benchmark not run here: " + missing.orElse(""));
    int repeats = 5;
    double[] direct = new double[repeats];
    double[] proxied = new double[repeats];
    try (ServerSocket server = Firehose.start(); Ledger ledger = Ledger.open();
        Toxiproxy proxies = new Toxiproxy(ToxiproxyServer.open(null), ledger)) {
      int port = proxies.front(server.getLocalPort());
      for (int i = 0; i < repeats; i++) {
        direct[i] = mbPerSecond(server.getLocalPort(), 2000);
        proxied[i] = mbPerSecond(port, 2000);
      }
      String line = String.format("loopback TCP throughput direct: median %.0f MB/s; through an idle Toxiproxy"
          + " proxy (%s): median %.0f MB/s; ratio %.2f (n=%d, 2 s each)", median(direct), proxies.server(),
          median(proxied), median(proxied) / median(direct), repeats);
      System.out.println(line);
      Files.writeString(Path.of("target", "benchmarks-proxy.txt"), line + "\n");
    }
  }
}
