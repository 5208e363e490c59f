package faultbed.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A private network for one harness's nodes, made of what containers are made of: a bridge on the
 * host holding the subnet's first address, and one network namespace per node joined to it by a
 * veth pair, each node with its own address. Subnets are /24s of 198.18.0.0/15 (reserved for
 * benchmarking, RFC 2544), used only on interfaces made here, so no traffic leaves the machine.
 * Every namespace and link is in the ledger and tagged with its owner; the host end of each veth
 * is where whole-node failures and bandwidth caps act.
 */
public final class NodeNetwork implements AutoCloseable {
  static final String NETNS_KIND = "netns";
  static final String LINK_KIND = "link";
  private static final String NETNS_PREFIX = "faultbed-";

  private final Ledger ledger;
  private final String tag;
  private final String bridge;
  private final String subnet; // "198.18.X"
  private final List<NodeNamespace> nodes = new ArrayList<>();

  /** One node's namespace, its address, and the host end of its link. */
  public record NodeNamespace(int index, String name, String address, String hostLink) {}

  private NodeNetwork(Ledger ledger, String tag, String subnet) {
    this.ledger = ledger;
    this.tag = tag;
    this.bridge = "fbbr-" + tag;
    this.subnet = subnet;
  }

  /** Empty when namespaces can be made here; otherwise what is missing, one line each. */
  public static List<String> problems() {
    List<String> p = new ArrayList<>();
    if (!Shell.exists("ip")) {
      p.add("ip is missing: install the Debian package 'iproute2' (apt-get install iproute2)");
    } else if (!Capability.isRoot()) {
      p.add("network namespaces need root: run as root");
    }
    return p;
  }

  /** A bridge with a free subnet's first address, up, recorded in the ledger before it exists. */
  public static NodeNetwork create(Ledger ledger) {
    List<String> p = problems();
    if (!p.isEmpty()) {
      throw new PreconditionFailed(p.get(0));
    }
    long space = 36L * 36 * 36 * 36 * 36 * 36; // six base-36 digits: interface names stay within 15 characters
    String tag = Long.toString(space + Math.floorMod((long) ledger.owner().hashCode(), space), 36).substring(1);
    NodeNetwork net = claimFreeSubnet(subnet -> {
      NodeNetwork n = new NodeNetwork(ledger, tag, subnet);
      n.link(n.bridge, List.of("ip", "link", "add", n.bridge, "type", "bridge"));
      Shell.check(List.of("ip", "addr", "add", n.subnet + ".1/24", "dev", n.bridge));
      return n;
    });
    Shell.check(List.of("ip", "link", "set", net.bridge, "up"));
    return net;
  }

  /**
   * Picks the first free 198.18.0.0/15 /24 and has {@code claim} put an address of it on an interface,
   * holding a lock every faultbed process of this machine takes for the same: two harnesses starting
   * at once would otherwise both find one subnet free and both take it, and their nodes' addresses
   * would clash.
   */
  public static <T> T claimFreeSubnet(java.util.function.Function<String, T> claim) {
    return MachineLock.holding("subnets", () -> claim.apply(freeSubnet()));
  }

  /** The first 198.18.0.0/15 /24 no interface of this machine has an address in. */
  private static String freeSubnet() {
    String addrs = Shell.check(List.of("ip", "-4", "-o", "addr", "show"));
    for (int i = 0; i < 512; i++) {
      String s = (i < 256 ? "198.18." : "198.19.") + (i % 256);
      if (!addrs.contains(" " + s + ".")) {
        return s;
      }
    }
    throw new PreconditionFailed("every /24 of 198.18.0.0/15 is in use on this machine");
  }

  public String bridge() {
    return bridge;
  }

  /** The host's address on this network: where nodes reach services of the harness. */
  public String hostAddress() {
    return subnet + ".1";
  }

  public synchronized List<NodeNamespace> nodes() {
    return List.copyOf(nodes);
  }

  /** Node {@code index}'s namespace, with loopback up and {@code eth0} at its own address on the bridge. */
  public synchronized NodeNamespace add(int index) {
    if (index < 0 || index > 200) {
      throw new IllegalArgumentException("node index: expected 0..200, got " + index);
    }
    String ns = NETNS_PREFIX + ledger.owner() + "-node-" + index;
    String host = "fbv" + tag + "-" + index;
    String peer = "fbn" + tag + "-" + index;
    String address = subnet + "." + (10 + index);
    ledger.record(new LedgerEntry(NETNS_KIND, ns, "cluster", Map.of()));
    Shell.check(List.of("ip", "netns", "add", ns));
    link(host, List.of("ip", "link", "add", host, "type", "veth", "peer", "name", peer));
    Shell.check(List.of("ip", "link", "set", peer, "netns", ns));
    Shell.check(List.of("ip", "link", "set", host, "master", bridge));
    Shell.check(List.of("ip", "link", "set", host, "up"));
    in(ns, "ip", "link", "set", "lo", "up");
    in(ns, "ip", "link", "set", peer, "name", "eth0");
    in(ns, "ip", "addr", "add", address + "/24", "dev", "eth0");
    in(ns, "ip", "link", "set", "eth0", "up");
    NodeNamespace n = new NodeNamespace(index, ns, address, host);
    nodes.add(n);
    return n;
  }

  /** {@code command} as run inside the node's namespace. */
  public static List<String> inside(NodeNamespace node, List<String> command) {
    List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", node.name()));
    c.addAll(command);
    return c;
  }

  /**
   * The node's link goes down: nothing reaches it or leaves it, not even a refusal, as when a
   * machine dies or its cable is pulled. Heal plugs it back.
   */
  public Installed unplug(NodeNamespace node) {
    Shell.check(List.of("ip", "link", "set", node.hostLink(), "down"));
    return () -> Shell.run(List.of("ip", "link", "set", node.hostLink(), "up"));
  }

  /** Plugs the node's link back in; a link already up stays as it is. */
  public void plug(NodeNamespace node) {
    Shell.check(List.of("ip", "link", "set", node.hostLink(), "up"));
  }

  /** Traffic to and from the node limited to {@code bytesPerSecond} each way (tbf on both ends of its link). */
  public Installed cap(NodeNamespace node, long bytesPerSecond) {
    return bothEnds(node, TcShape.tbf(bytesPerSecond));
  }

  /** {@code qdisc} as the root of both ends of the node's link: what reaches the node and what leaves it. */
  private Installed bothEnds(NodeNamespace node, List<String> qdisc) {
    Installed toNode = TrafficControl.wholeLink(Commands.local(), node.hostLink(), qdisc);
    try {
      return Installed.all(List.of(toNode, TrafficControl.wholeLink(namespace(node), "eth0", qdisc)));
    } catch (RuntimeException e) {
      toNode.heal();
      throw e;
    }
  }

  /** Commands run in the node's own network namespace. */
  private static Commands namespace(NodeNamespace node) {
    return Commands.local().within("node " + node.index() + "'s namespace " + node.name(),
        List.of("ip", "netns", "exec", node.name()));
  }

  /**
   * TCP packets leaving the node that match {@code spec}, dropped by a rule in the node's own
   * namespace: it goes with the namespace, so nothing on the host is touched or left behind.
   */
  public Installed dropOutgoing(NodeNamespace node, String runId, List<String> spec) {
    return rules(node).drop(runId, "OUTPUT", spec);
  }

  /** Each TCP packet in or out of the node's link dropped with {@code probability} (a lossy NIC). */
  public Installed lose(NodeNamespace node, String runId, double probability) {
    List<String> out = new ArrayList<>(List.of("-o", "eth0"));
    out.addAll(Iptables.randomly(probability));
    List<String> in = new ArrayList<>(List.of("-i", "eth0"));
    in.addAll(Iptables.randomly(probability));
    Iptables rules = rules(node);
    return Installed.all(List.of(rules.drop(runId, "OUTPUT", out), rules.drop(runId, "INPUT", in)));
  }

  /** Packet filter rules in the node's own namespace. */
  private Iptables rules(NodeNamespace node) {
    return Iptables.namespace(namespace(node), ledger.owner());
  }

  /**
   * Network faults of one node, acting on the node as a machine: a cap, a blackhole or packet loss
   * takes its whole link (a slow, dead or lossy NIC), a silenced node's link goes down, and RST
   * suppression is a rule in its own namespace.
   */
  public NetworkFaults faults(NodeNamespace node) {
    return new NetworkFaults() {
      @Override
      public String name() {
        return "namespace";
      }


      @Override
      public Installed cap(String runId, List<Integer> ports, long bytesPerSecond) {
        return NodeNetwork.this.cap(node, bytesPerSecond);
      }

      @Override
      public Installed delay(String runId, List<Integer> ports, java.time.Duration delay, java.time.Duration jitter) {
        return delay(runId, ports, delay, jitter, 0);
      }

      @Override
      public Installed delay(String runId, List<Integer> ports, java.time.Duration delay, java.time.Duration jitter,
          double reorder) {
        TrafficControl.requireNetem();
        return bothEnds(node, TcShape.netem(delay, jitter, reorder));
      }

      @Override
      public Installed dropAll(String runId, List<Integer> ports) {
        return unplug(node);
      }

      @Override
      public Installed dropRst(String runId, List<Integer> ports) {
        return rules(node).dropRst(runId, ports);
      }

      @Override
      public Installed silence(String runId, List<Integer> ports) {
        return unplug(node);
      }

      @Override
      public Installed dropRandomly(String runId, List<Integer> ports, double probability) {
        return lose(node, runId, probability);
      }

      @Override
      public Installed duplicate(String runId, List<String> hosts, double probability) {
        return rules(node).duplicate(runId, hosts, probability);
      }

      /** Rules in the node's own namespace: they go with it. */
      @Override
      public Installed cut(String runId, List<String> addresses, boolean inbound, boolean outbound) {
        return rules(node).cut(runId, addresses, inbound, outbound);
      }
    };
  }

  private static void in(String ns, String... command) {
    List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", ns));
    c.addAll(List.of(command));
    Shell.check(c);
  }

  /** Creates a link, recorded first and tagged with its owner (ifalias), so a later start can tell whose it is. */
  private void link(String name, List<String> create) {
    ledger.record(new LedgerEntry(LINK_KIND, name, "cluster", Map.of()));
    Shell.check(create);
    Shell.check(List.of("ip", "link", "set", name, "alias", "faultbed " + ledger.owner()));
  }

  /** Namespaces first (their processes killed, their veth ends going with them), then the bridge. */
  @Override
  public synchronized void close() {
    for (NodeNamespace n : nodes) {
      ledger.heal(new LedgerEntry(NETNS_KIND, n.name(), "cluster", Map.of()));
      ledger.heal(new LedgerEntry(LINK_KIND, n.hostLink(), "cluster", Map.of()));
    }
    nodes.clear();
    ledger.heal(new LedgerEntry(LINK_KIND, bridge, "cluster", Map.of()));
  }

  /** Deletes a namespace after killing whatever still runs in it (a namespace lives while a process does). */
  static final class NamespaceHealer implements Healer {
    @Override
    public String kind() {
      return NETNS_KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      if (!Shell.exists("ip") || !Shell.run(List.of("ip", "netns", "list")).out().lines()
          .anyMatch(l -> l.split("\\s")[0].equals(entry.id()))) {
        return null;
      }
      int killed = 0;
      for (String pid : Shell.run(List.of("ip", "netns", "pids", entry.id())).out().split("\\s+")) {
        if (!pid.isBlank() && ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::destroyForcibly).orElse(false)) {
          killed++;
        }
      }
      Shell.check(List.of("ip", "netns", "del", entry.id()));
      return "removed network namespace " + entry.id() + (killed == 0 ? "" : " and killed the " + killed
          + " process(es) still running in it");
    }

    @Override
    public List<Found> findAll() {
      if (!Shell.exists("ip")) {
        return List.of();
      }
      List<Found> found = new ArrayList<>();
      for (String line : Shell.run(List.of("ip", "netns", "list")).out().split("\n")) {
        String ns = line.split("\\s")[0];
        int node = ns.lastIndexOf("-node-");
        if (ns.startsWith(NETNS_PREFIX) && node > NETNS_PREFIX.length()) {
          found.add(new Found(new LedgerEntry(NETNS_KIND, ns, "unknown", Map.of()),
              ns.substring(NETNS_PREFIX.length(), node)));
        }
      }
      return found;
    }
  }

  /** Deletes a bridge or veth faultbed made (a veth's peer goes with it). */
  static final class LinkHealer implements Healer {
    @Override
    public String kind() {
      return LINK_KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      if (!Files.exists(Path.of("/sys/class/net", entry.id()))) {
        return null;
      }
      Shell.run(List.of("ip", "link", "del", entry.id()));
      return "removed network link " + entry.id();
    }

    @Override
    public List<Found> findAll() {
      List<Found> found = new ArrayList<>();
      try (var links = Files.list(Path.of("/sys/class/net"))) {
        for (Path l : links.toList()) {
          Path alias = l.resolve("ifalias");
          String a = Files.isReadable(alias) ? Files.readString(alias).strip() : "";
          if (a.startsWith("faultbed ")) {
            found.add(new Found(new LedgerEntry(LINK_KIND, l.getFileName().toString(), "unknown", Map.of()),
                a.substring("faultbed ".length())));
          }
        }
      } catch (java.io.IOException e) {
        return found;
      }
      return found;
    }
  }
}
