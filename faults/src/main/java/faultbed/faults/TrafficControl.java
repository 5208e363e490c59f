package faultbed.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Traffic shaping with tc on one interface of a host (this machine's loopback, or a remote
 * worker's own interface): an htb root qdisc (handle {@code fb:}) whose default class passes
 * everything, and one class per fault ({@link TcShape}) into which u32 filters send a node's
 * ports' packets, capped by htb or delayed by netem. The root takes the place of a kernel default
 * only (noqueue, pfifo_fast, fq_codel, fq, mq); deleting it brings that default back.
 */
public final class TrafficControl {
  static final String KIND = "tc-root";
  /** Root qdiscs the kernel puts on an interface by itself: replacing one loses nothing of the user's. */
  private static final Set<String> DEFAULTS = Set.of("noqueue", "pfifo_fast", "fq_codel", "fq", "mq", "pfifo");

  private final Ledger ledger;
  private final Commands on;
  private final Supplier<String> device;
  private final List<String> directions;
  private String dev;
  private int nextClass = 2;

  private TrafficControl(Ledger ledger, Supplier<String> device, List<String> directions) {
    this.ledger = ledger;
    this.on = ledger.commands();
    this.device = device;
    this.directions = directions;
  }

  /** On this machine's loopback a packet's both ends are the node's: its ports match as source and destination. */
  public static TrafficControl loopback(Ledger ledger) {
    return new TrafficControl(ledger, () -> "lo", List.of("sport", "dport"));
  }

  /**
   * On a host's interface ({@code device}, found when the first fault needs it), which shapes what
   * leaves it: a fault acts on what the node's ports send (the map output it serves, its answers).
   */
  public static TrafficControl sending(Ledger ledger, Supplier<String> device) {
    return new TrafficControl(ledger, device, List.of("sport"));
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

  /** Refused with one line on a kernel without netem. */
  static void requireNetem() {
    List<String> p = latencyProblems();
    if (!p.isEmpty()) {
      throw new PreconditionFailed(p.get(0));
    }
  }

  /**
   * {@code qdisc} (a {@link TcShape#tbf} cap or a {@link TcShape#netem} delay) as the root of a
   * node's own interface, taking everything it sends: a slow or laggy NIC rather than slow ports.
   * The interface is the node's (a veth end, a container's eth0), so nothing of the host's is
   * replaced; deleting it brings the default back.
   */
  public static Installed wholeLink(Commands on, String dev, List<String> qdisc) {
    List<String> add = new ArrayList<>(List.of("tc", "qdisc", "replace", "dev", dev, "root"));
    add.addAll(qdisc);
    on.check(add);
    return () -> on.act(List.of("tc", "qdisc", "del", "dev", dev, "root")); // idempotent: gone stays gone
  }

  /** Caps what these ports send (and, on loopback, receive) at {@code bytesPerSecond}. */
  public synchronized Installed cap(List<Integer> ports, long bytesPerSecond) {
    return shape(ports, TcShape.cap(bytesPerSecond), null);
  }

  /** Delays each packet these ports send (and, on loopback, receive) by {@code delay} (+- {@code jitter}). */
  public synchronized Installed delay(List<Integer> ports, Duration delay, Duration jitter) {
    if (on == Commands.local()) {
      requireNetem();
    }
    return shape(ports, TcShape.pass(), TcShape.netem(delay, jitter));
  }

  private Installed shape(List<Integer> ports, List<String> classSpec, List<String> leaf) {
    ensureRoot();
    TcShape s = new TcShape(dev, nextClass++, classSpec, leaf, ports, directions);
    on.check(s.addClass());
    if (s.addLeaf() != null) {
      Commands.Result r = on.act(s.addLeaf());
      if (!r.ok()) {
        on.act(List.of("tc", "class", "del", "dev", dev, "classid", s.classId()));
        throw new PreconditionFailed(on.where() + ": tc could not add netem (" + r.said() + "); its kernel may lack"
            + " netem (CONFIG_NET_SCH_NETEM)");
      }
    }
    s.addFilters().forEach(on::check);
    return () -> s.removal().forEach(on::act); // idempotent: what is gone already stays gone
  }

  /** faultbed's htb root in place of the kernel's default, in the ledger first. */
  private void ensureRoot() {
    if (dev != null) {
      return;
    }
    String d = device.get();
    String current = on.inspect(List.of("tc", "qdisc", "show", "dev", d, "root")).out().strip();
    String[] words = current.split("\\s+");
    String kind = words.length > 1 ? words[1] : "";
    if (current.contains(TcShape.ROOT_SHOWN)) {
      throw new PreconditionFailed(on.where() + ": another faultbed harness shapes traffic on " + d + " now; run one"
          + " at a time ('faultbed doctor' lists leftovers of dead ones)");
    }
    if (!current.isEmpty() && !DEFAULTS.contains(kind)) {
      throw new PreconditionFailed(on.where() + ": " + d + " already has a root qdisc faultbed did not make ("
          + current.lines().findFirst().orElse("") + "); faultbed will not replace it");
    }
    ledger.record(new LedgerEntry(KIND, d, "cluster", Map.of()));
    TcShape.root(d, true).forEach(on::check);
    dev = d;
  }

  /** Removes faultbed's root qdisc on a device, and with it every class and filter below it. */
  static final class RootHealer implements Healer.Anywhere {
    private static final Pattern OURS = Pattern.compile("^qdisc " + Pattern.quote(TcShape.ROOT_SHOWN.replace(" root", ""))
        + " dev (\\S+) root", Pattern.MULTILINE);

    @Override
    public String kind() {
      return KIND;
    }

    @Override
    public String heal(LedgerEntry entry, Commands on) {
      if (on == Commands.local() && !Shell.exists("tc")) {
        return null;
      }
      if (!on.inspect(List.of("tc", "qdisc", "show", "dev", entry.id(), "root")).out().contains(TcShape.ROOT_SHOWN)) {
        return null;
      }
      on.check(List.of("tc", "qdisc", "del", "dev", entry.id(), "root"));
      return "removed tc root qdisc " + TcShape.ROOT + " on " + entry.id();
    }

    /** faultbed's root qdisc on any device of this machine. */
    @Override
    public List<Found> findAll() {
      if (!Shell.exists("tc")) {
        return List.of();
      }
      List<Found> found = new ArrayList<>();
      Matcher m = OURS.matcher(Shell.run(List.of("tc", "qdisc", "show")).out());
      while (m.find()) {
        found.add(new Found(new LedgerEntry(KIND, m.group(1), "unknown", Map.of()), null));
      }
      return found;
    }
  }
}
