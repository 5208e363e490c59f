package faultbed.faults;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Traffic shaping on loopback with tc: an htb root qdisc (handle {@code fb:}) whose default class
 * passes everything at 100 Gbit/s, and one class per fault that u32 filters on the node's ports
 * send traffic into: capped by htb for bandwidth, or through netem for latency. Each fault's
 * filters share one priority, so they are removed together.
 */
public final class TrafficControl {
  static final String KIND = "tc-root";
  static final String DEV = "lo";

  private final Ledger ledger;
  private boolean rootInstalled;
  private int nextClass = 2;

  public TrafficControl(Ledger ledger) {
    this.ledger = ledger;
  }

  public static List<String> problems() {
    return Shell.exists("tc") ? List.of()
        : List.of("tc is missing: install the Debian package 'iproute2' (apt-get install iproute2)");
  }

  /** Empty when this kernel has netem; otherwise why latency faults cannot run on the kernel backend. */
  public static List<String> latencyProblems() {
    if (!Shell.exists("tc")) {
      return problems();
    }
    java.nio.file.Path cfg = java.nio.file.Path.of("/proc/config.gz");
    if (!java.nio.file.Files.exists(cfg)) {
      return List.of(); // no kernel config to read: let tc say if netem is missing
    }
    try (var in = new java.util.zip.GZIPInputStream(java.nio.file.Files.newInputStream(cfg))) {
      String config = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      if (config.contains("CONFIG_NET_SCH_NETEM=y") || config.contains("CONFIG_NET_SCH_NETEM=m")) {
        return List.of();
      }
      return List.of("this kernel has no netem (CONFIG_NET_SCH_NETEM), so the kernel backend cannot add"
          + " latency; use the Toxiproxy backend for latency faults");
    } catch (java.io.IOException e) {
      return List.of();
    }
  }

  /** Caps traffic from and to these ports at {@code bytesPerSecond} in each direction. */
  public synchronized Installed cap(List<Integer> ports, long bytesPerSecond) {
    return shape(ports, TcShape.cap(bytesPerSecond), null);
  }

  /** Delays each packet from and to these ports by {@code delay} (+- {@code jitter}). */
  public synchronized Installed delay(List<Integer> ports, Duration delay, Duration jitter) {
    List<String> p = latencyProblems();
    if (!p.isEmpty()) {
      throw new PreconditionFailed(p.get(0));
    }
    return shape(ports, TcShape.pass(), TcShape.netem(delay, jitter));
  }

  /** On loopback a packet's both ends are the node's: match its ports as source and destination. */
  private Installed shape(List<Integer> ports, List<String> classSpec, List<String> leaf) {
    ensureRoot();
    TcShape s = new TcShape(DEV, nextClass++, classSpec, leaf, ports, List.of("sport", "dport"));
    Shell.check(s.addClass());
    if (s.addLeaf() != null) {
      Shell.check(s.addLeaf());
    }
    s.addFilters().forEach(Shell::check);
    return () -> s.removal().forEach(Shell::run);
  }

  private void ensureRoot() {
    if (rootInstalled) {
      return;
    }
    String current = Shell.check(List.of("tc", "qdisc", "show", "dev", DEV));
    if (current.contains(TcShape.ROOT_SHOWN)) {
      throw new PreconditionFailed("another faultbed process shapes traffic on lo now; run one at a time"
          + " ('faultbed doctor' lists leftovers of dead ones)");
    }
    if (!current.isBlank() && !current.startsWith("qdisc noqueue")) {
      throw new PreconditionFailed("lo already has a root qdisc faultbed did not make (" + current.lines().findFirst()
          .orElse("") + "); faultbed will not replace it");
    }
    ledger.record(new LedgerEntry(KIND, DEV, "cluster", Map.of()));
    TcShape.root(DEV, false).forEach(Shell::check);
    rootInstalled = true;
  }

  /** Removes faultbed's root qdisc on lo, and with it every class and filter below it. */
  static final class RootHealer implements Healer {
    @Override
    public String kind() {
      return KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      if (!Shell.exists("tc") || !ours()) {
        return null;
      }
      Shell.check(List.of("tc", "qdisc", "del", "dev", DEV, "root"));
      return "removed tc root qdisc fb: on " + DEV;
    }

    @Override
    public List<Found> findAll() {
      return Shell.exists("tc") && ours()
          ? List.of(new Found(new LedgerEntry(KIND, DEV, "unknown", Map.of()), null)) : List.of();
    }

    private static boolean ours() {
      return Shell.run(List.of("tc", "qdisc", "show", "dev", DEV)).out().contains(TcShape.ROOT_SHOWN);
    }
  }
}
