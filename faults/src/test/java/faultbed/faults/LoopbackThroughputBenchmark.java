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
 * What an idle tc backend costs the shuffle's path: TCP throughput on loopback with no qdisc, and
 * with faultbed's htb root installed but shaping another port.
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
        Installed cap = new TrafficControl(ledger).cap(List.of(other.getLocalPort()), 1 << 20);
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
}
