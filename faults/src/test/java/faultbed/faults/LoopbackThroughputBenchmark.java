package faultbed.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      InputStream in = s.getInputStream();
      byte[] buf = new byte[256 * 1024];
      long bytes = 0;
      long t0 = System.nanoTime();
      long end = t0 + millis * 1_000_000;
      while (System.nanoTime() < end) {
        int n = in.read(buf);
        if (n < 0) {
          break;
        }
        bytes += n;
      }
      return bytes / ((System.nanoTime() - t0) / 1e9) / (1 << 20);
    }
  }

  private static ServerSocket firehose() throws IOException {
    ServerSocket server = new ServerSocket(0);
    Thread t = new Thread(() -> {
      byte[] chunk = new byte[256 * 1024];
      while (!server.isClosed()) {
        try (Socket c = server.accept(); OutputStream out = c.getOutputStream()) {
          while (true) {
            out.write(chunk);
          }
        } catch (IOException closed) {
          // next client
        }
      }
    });
    t.setDaemon(true);
    t.start();
    return server;
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
    try (ServerSocket server = firehose(); ServerSocket other = new ServerSocket(0); Ledger ledger = Ledger.open()) {
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
