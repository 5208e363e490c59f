package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each Toxiproxy fault measured on real sockets through a real Toxiproxy server: the one named by
 * FAULTBED_TOXIPROXY_URL, or a container where Docker runs. Without either, every test is skipped
 * and says why.
 */
class ToxiproxyFaultsTest {
  private static ToxiproxyServer server;
  private Ledger ledger;
  private Toxiproxy proxies;

  private static Optional<String> unavailable;

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** Per test, not per class: a skip in a class-level hook is not reported test by test. */
  @BeforeEach
  void backend() {
    if (unavailable == null) {
      unavailable = ToxiproxyServer.unavailable(null);
    }
    assumeTrue(unavailable.isEmpty(), () -> "Toxiproxy backend not tested here: " + unavailable.orElse(""));
    if (server == null) {
      server = ToxiproxyServer.open(null);
    }
    ledger = Ledger.open();
    proxies = new Toxiproxy(server, ledger);
  }

  @AfterEach
  void heal() throws IOException {
    if (ledger == null) {
      return;
    }
    for (var p : server.client().getProxies()) {
      if (p.getName().contains(ledger.owner())) {
        proxies.unfront(Integer.parseInt(p.getName().substring(p.getName().lastIndexOf('-') + 1)));
      }
    }
    ledger.close();
  }

  /** Median milliseconds for one byte to go to the echo server on {@code port} and back. */
  private static double roundTripMs(int port) throws IOException {
    try (Socket s = new Socket()) {
      s.setTcpNoDelay(true);
      s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
      s.setSoTimeout(5000);
      double[] rtt = new double[15];
      for (int i = 0; i < rtt.length; i++) {
        long t0 = System.nanoTime();
        s.getOutputStream().write(i);
        s.getOutputStream().flush();
        assertEquals(i, s.getInputStream().read());
        rtt[i] = (System.nanoTime() - t0) / 1e6;
      }
      Arrays.sort(rtt);
      return rtt[rtt.length / 2];
    }
  }

  /** "refused", "closed" (accepted, then ended), "silent" or "echoes" for one byte sent. */
  private static String probe(int port) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      s.setSoTimeout(1000);
      s.getOutputStream().write(7);
      return s.getInputStream().read() == 7 ? "echoes" : "closed";
    } catch (ConnectException e) {
      return "refused";
    } catch (SocketTimeoutException e) {
      return "silent";
    } catch (IOException e) {
      return "closed";
    }
  }

  /** The server's API and every proxy it makes listen on loopback: none is reachable from the machine's network. */
  @Test
  void theApiAndItsProxiesListenOnLoopbackOnly() throws Exception {
    try (ServerSocket firehose = Firehose.start()) {
      int proxied = proxies.front(firehose.getLocalPort());
      int api = java.net.URI.create(server.api()).getPort();
      String listening = Shell.run(List.of("ss", "-H", "-l", "-t", "-n")).out();
      for (int port : List.of(api, proxied)) {
        List<String> local = listening.lines().map(l -> l.trim().split("\\s+"))
            .filter(f -> f.length > 3 && f[3].endsWith(":" + port)).map(f -> f[3]).toList();
        assertEquals(List.of("127.0.0.1:" + port), local, "port " + port + " listens on: " + local);
      }
    }
  }

  @Test
  void bandwidthCapHoldsWithinTwentyPercentAndSparesDirectTraffic() throws Exception {
    try (ServerSocket firehose = Firehose.start()) {
      int direct = firehose.getLocalPort();
      int proxied = proxies.front(direct);
      assertEquals(List.of(direct), proxies.reach(List.of(direct, direct + 1)));
      long cap = 1_000_000;
      Installed shaping = proxies.cap("run-1", List.of(direct), cap);
      double got = Firehose.bytesPerSecond(proxied, Duration.ofSeconds(3), Duration.ofMillis(300));
      double other = Firehose.bytesPerSecond(direct, Duration.ofSeconds(1), Duration.ofMillis(100));
      assertTrue(Math.abs(got - cap) <= 0.2 * cap, "proxied port delivered " + got + " B/s for a cap of " + cap);
      assertTrue(other > 20 * cap, "direct port delivered " + other + " B/s");
      shaping.heal();
      shaping.heal(); // idempotent
      double after = Firehose.bytesPerSecond(proxied, Duration.ofSeconds(1), Duration.ofMillis(100));
      assertTrue(after > 5 * cap, "cap gone after heal: " + after + " B/s");
    }
  }

  @Test
  void latencyAddsTheDelayEachWayWithinTwentyPercent() throws Exception {
    try (ServerSocket echo = Echo.start()) {
      int proxied = proxies.front(echo.getLocalPort());
      double before = roundTripMs(proxied);
      Installed delay = proxies.delay("run-1", List.of(echo.getLocalPort()), Duration.ofMillis(100), Duration.ZERO);
      double with = roundTripMs(proxied);
      delay.heal();
      double after = roundTripMs(proxied);
      // the byte is delayed once on its way to the server and once on its way back
      double added = with - before;
      assertTrue(Math.abs(added - 200) <= 40, "round trip grew by " + added + " ms for 100 ms each way");
      assertTrue(after < before + 20, "delay gone after heal: " + after + " ms (was " + before + ")");
    }
  }

  @Test
  void blackholeDeliversNothingUntilHealed() throws Exception {
    try (ServerSocket echo = Echo.start()) {
      int proxied = proxies.front(echo.getLocalPort());
      assertEquals("echoes", probe(proxied));
      Installed hole = proxies.dropAll("run-1", List.of(echo.getLocalPort()));
      assertEquals("silent", probe(proxied));
      hole.heal();
      assertEquals("echoes", probe(proxied));
    }
  }

  @Test
  void aRefusedFrontAnswersNothingLikeTheDeadPortBehindIt() throws Exception {
    try (ServerSocket echo = Echo.start()) {
      int proxied = proxies.front(echo.getLocalPort());
      proxies.refuse(echo.getLocalPort());
      String seen = probe(proxied);
      // a user's server closes the listener (refused); Docker's port forwarder accepts, then closes
      assertTrue(seen.equals("refused") || seen.equals("closed"), "a refused front " + seen);
    }
  }

  @Test
  void rstSuppressionIsRefusedWithAReason() {
    var e = assertThrows(PreconditionFailed.class, () -> proxies.dropRst("run-1", List.of(1)));
    assertTrue(e.getMessage().startsWith("rst-suppression: the toxiproxy backend cannot"), e.getMessage());
  }

  @Test
  void proxiesOfAKilledHarnessAreDeletedByTheNextStart() throws Exception {
    assumeFalse(server.startedHere(), "a server this JVM started dies with it; this is about a user's server");
    try (ServerSocket echo = Echo.start()) {
      Process maker = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), Maker.class.getName(), server.api(),
          Integer.toString(echo.getLocalPort())).redirectErrorStream(true).start();
      String name;
      try (BufferedReader out = new BufferedReader(new InputStreamReader(maker.getInputStream()))) {
        String line = out.readLine();
        assertTrue(line != null && line.startsWith("READY "), "maker said: " + line);
        name = line.substring(6).trim();
        assertTrue(server.client().getProxyOrNull(name) != null, "proxy " + name + " in place");
        maker.destroyForcibly(); // SIGKILL: no shutdown hook
        maker.waitFor();
      }
      assertTrue(server.client().getProxyOrNull(name) != null, "the dead harness's proxy outlives it");
      Ledger.healOrphans();
      assertNull(server.client().getProxyOrNull(name), "no faultbed proxy left on the server");
    }
  }

  /** A stand-in harness: fronts a port on the given server, says READY with the proxy's name, waits to be killed. */
  public static final class Maker {
    public static void main(String[] args) throws Exception {
      Ledger ledger = Ledger.open();
      ToxiproxyServer s = ToxiproxyServer.open(args[0]);
      int port = Integer.parseInt(args[1]);
      new Toxiproxy(s, ledger).front(port);
      System.out.println("READY faultbed-" + ledger.owner() + "-" + port);
      System.out.flush();
      Thread.sleep(600_000);
    }
  }
}
