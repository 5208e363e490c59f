package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Nodes in their own network namespaces, on real sockets: each has its own address and stack, a
 * pulled link answers nothing (no RST), a killed process is refused, a cap holds, and nothing is
 * left after close.
 */
class NodeNetworkTest {
  private Ledger ledger;
  private NodeNetwork net;
  private final List<Process> servers = new ArrayList<>();

  @BeforeEach
  void network() {
    List<String> problems = new ArrayList<>(NodeNetwork.problems());
    assumeTrue(problems.isEmpty(), () -> "namespace network unavailable: " + problems);
    ledger = Ledger.open();
    net = NodeNetwork.create(ledger);
  }

  @AfterEach
  void close() {
    if (ledger == null) {
      return;
    }
    servers.forEach(Process::destroyForcibly);
    String bridge = net.bridge();
    net.close();
    ledger.close();
    assertFalse(Shell.run(List.of("ip", "netns", "list")).out().contains(ledger.owner()), "namespaces left");
    assertFalse(Files.exists(Path.of("/sys/class/net", bridge)), "bridge left");
  }

  /** Runs {@link Server} in the node's namespace and waits until the host can connect to it. */
  private Process serve(NodeNetwork.NodeNamespace node, int port, String mode) throws IOException {
    Process p = new ProcessBuilder(NodeNetwork.inside(node, List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
        Server.class.getName(), Integer.toString(port), mode))).redirectErrorStream(true).start();
    servers.add(p);
    Awaitility.await("server in " + node.name()).atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100)).until(() -> !connect(node.address(), port).equals("refused"));
    return p;
  }

  /** "refused", "timeout" or "connected" for a connect with a 1 s timeout. */
  private static String connect(String host, int port) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 1000);
      return "connected";
    } catch (ConnectException e) {
      return "refused";
    } catch (SocketTimeoutException e) {
      return "timeout";
    }
  }

  private static String echo(String host, int port) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 1000);
      s.setSoTimeout(2000);
      s.getOutputStream().write(42);
      return s.getInputStream().read() == 42 ? "echoes" : "closed";
    }
  }

  @Test
  void eachNodeHasItsOwnAddressAndStackReachableFromTheHostAndTheOtherNodes() throws Exception {
    NodeNetwork.NodeNamespace a = net.add(0);
    NodeNetwork.NodeNamespace b = net.add(1);
    assertNotEquals(a.address(), b.address());
    assertTrue(a.address().startsWith("198.1"), a.address());
    serve(a, 7100, "echo");
    serve(b, 7100, "echo"); // the same port on both: separate stacks
    assertEquals("echoes", echo(a.address(), 7100));
    assertEquals("echoes", echo(b.address(), 7100));
    assertEquals("refused", connect("127.0.0.1", 7100), "nothing of theirs on the host's loopback");
    Process probe = new ProcessBuilder(NodeNetwork.inside(b, List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
        Probe.class.getName(), a.address(), "7100"))).redirectErrorStream(true).start();
    String said = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertEquals("echoes", said, "node 1 reaches node 0 over the bridge");
  }

  @Test
  void anUnpluggedNodeAnswersNothingAndAKilledServerIsRefused() throws Exception {
    NodeNetwork.NodeNamespace a = net.add(0);
    Process server = serve(a, 7101, "echo");
    Installed pulled = net.unplug(a);
    assertEquals("timeout", connect(a.address(), 7101), "no RST from a pulled link");
    pulled.heal();
    Awaitility.await("plugged back").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
        .until(() -> echo(a.address(), 7101).equals("echoes"));
    server.destroyForcibly().waitFor();
    assertEquals("refused", connect(a.address(), 7101), "a killed process on a live node is refused");
  }

  @Test
  void aCappedNodeDeliversWithinTwentyPercent() throws Exception {
    NodeNetwork.NodeNamespace a = net.add(0);
    serve(a, 7102, "firehose");
    double free = Firehose.bytesPerSecond(a.address(), 7102, Duration.ofSeconds(1), Duration.ofMillis(100));
    long cap = 2_000_000;
    Installed capped = net.cap(a, cap);
    double got = Firehose.bytesPerSecond(a.address(), 7102, Duration.ofSeconds(3), Duration.ofMillis(500));
    capped.heal();
    capped.heal(); // idempotent
    assertTrue(free > 10 * cap, "uncapped " + free + " B/s");
    assertTrue(Math.abs(got - cap) <= 0.2 * cap, "capped node delivered " + got + " B/s for a cap of " + cap);
  }

  /** Two harnesses' networks made at once: each on a subnet of its own, never the same one twice. */
  @Test
  void networksMadeAtOnceTakeSubnetsOfTheirOwn() throws Exception {
    Ledger first = Ledger.open();
    Ledger second = Ledger.open();
    var pool = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      var a = pool.submit(() -> NodeNetwork.create(first));
      var b = pool.submit(() -> NodeNetwork.create(second));
      NodeNetwork na = a.get();
      NodeNetwork nb = b.get();
      try {
        assertNotEquals(na.hostAddress(), nb.hostAddress());
        assertNotEquals(net.hostAddress(), na.hostAddress());
        assertNotEquals(net.hostAddress(), nb.hostAddress());
      } finally {
        na.close();
        nb.close();
      }
    } finally {
      pool.shutdownNow();
      first.close();
      second.close();
    }
  }

  /** A lossy node: a share of its link's packets lost both ways, each sent again by TCP (see KernelFaultsTest). */
  @Test
  void aLossyNodeDelaysConnectsByRetransmissionUntilHealed() throws Exception {
    NodeNetwork.NodeNamespace a = net.add(0);
    serve(a, 7103, "echo");
    Installed lossy = net.lose(a, "run-1", 0.3);
    LossyConnects.Count seen = LossyConnects.both(a.address(), 7103, 20);
    assertTrue(seen.showsLoss(), seen + ": late connects waited for a retransmission");
    lossy.heal();
    assertEquals(0, LossyConnects.late(a.address(), 7103, 10), "late connects after the heal");
  }

  /**
   * A node whose link duplicates: a share of what it sends arrives twice, which the receiver (the
   * host) answers with D-SACKs, counted by the node's own TCP stack; none once healed.
   */
  @Test
  void aDuplicatingNodesCopiesReachTheReceiverUntilHealed() throws Exception {
    NodeNetwork.NodeNamespace a = net.add(0);
    NodeNetwork.NodeNamespace peer = net.add(1); // one rule per host of the cluster
    serve(a, 7104, "firehose");
    Installed dup = net.faults(a).duplicate("run-1", List.of(net.hostAddress(), peer.address()), 0.3);
    long before = dsacksReceived(a);
    double got = Firehose.bytesPerSecond(a.address(), 7104, Duration.ofSeconds(1), Duration.ofMillis(100));
    long during = dsacksReceived(a) - before;
    dup.heal();
    dup.heal(); // idempotent
    long healed = dsacksReceived(a);
    Firehose.bytesPerSecond(a.address(), 7104, Duration.ofSeconds(1), Duration.ofMillis(100));
    long after = dsacksReceived(a) - healed;
    assertTrue(got > 0, "the data got through");
    assertTrue(during > 50, during + " D-SACKs for a second of copies");
    assertTrue(after * 20 < during, after + " D-SACKs after the heal against " + during + " during");
    assertFalse(Shell.run(NodeNetwork.inside(a, List.of("iptables", "-w", "-t", "mangle", "-S", "POSTROUTING"))).out()
        .contains("TEE"), "no copying rule left");
  }

  /** TcpExt's TCPDSACKRecv in the node's own stack: D-SACKs its peers sent it. */
  private static long dsacksReceived(NodeNetwork.NodeNamespace node) {
    List<String> lines = Shell.run(NodeNetwork.inside(node, List.of("cat", "/proc/net/netstat"))).out().lines()
        .filter(l -> l.startsWith("TcpExt:")).toList();
    List<String> names = List.of(lines.get(0).split("\\s+"));
    return Long.parseLong(lines.get(1).split("\\s+")[names.indexOf("TCPDSACKRecv")]);
  }

  /** A server for the namespace side: "echo" returns every byte, "firehose" writes as fast as read. */
  public static final class Server {
    public static void main(String[] args) throws Exception {
      ServerSocket s = new ServerSocket(Integer.parseInt(args[0]));
      if (args[1].equals("firehose")) {
        Firehose.start(s);
        Thread.sleep(Long.MAX_VALUE);
      }
      Echo.serve(s);
    }
  }

  /** Prints what one echo exchange with host:port gave. */
  public static final class Probe {
    public static void main(String[] args) throws Exception {
      System.out.println(echo(args[0], Integer.parseInt(args[1])));
    }
  }
}
