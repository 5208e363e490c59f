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
 * only (noqueue, pfifo_fast, fq_codel, fq, mq); deleting it brings that default back. Harnesses
 * shaping one interface at once share the root (made under a machine-wide lock on this machine):
 * each takes its classes from a range of its own, its ledger's entry for the root heals the classes
 * of that range, and the root goes when no harness's class is left under it.
 */
public final class TrafficControl {
  static final String KIND = "tc-root";
  private static final String OWNER = "owner";
  private static final Pattern CLASS_SHOWN = Pattern.compile("^class htb " + Pattern.quote(TcShape.ROOT) + "([0-9a-f]+) ",
      Pattern.MULTILINE);
  /** Root qdiscs the kernel puts on an interface by itself: replacing one loses nothing of the user's. */
  private static final Set<String> DEFAULTS = Set.of("noqueue", "pfifo_fast", "fq_codel", "fq", "mq", "pfifo");

  private final Ledger ledger;
  private final Commands on;
  private final Supplier<String> device;
  private final List<String> directions;
  private String dev; // the device, once found
  private boolean rootMade; // faultbed's root is on it, made or joined

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

  /**
   * Delays each packet these ports send (and, on loopback, receive) by {@code delay} (+- {@code jitter}),
   * but a share {@code reorder} sent at once (0: none).
   */
  public synchronized Installed delay(List<Integer> ports, Duration delay, Duration jitter, double reorder) {
    if (on == Commands.local()) {
      requireNetem();
    }
    return shape(ports, TcShape.pass(), TcShape.netem(delay, jitter, reorder));
  }

  private Installed shape(List<Integer> ports, List<String> classSpec, List<String> leaf) {
    // made under the ledger's lock: a heal on exit waits for this class and heals it with the root's
    // range, and no class is made after it. On this machine another harness may add a class or heal
    // the shared root at the same moment: the machine's tc lock, taken after the ledger's as its
    // healer takes them, and nothing under it touches the ledger
    return ledger.making(() -> {
      String d = device();
      return on == Commands.local() ? MachineLock.holding("tc", () -> shapeAlone(d, ports, classSpec, leaf))
          : shapeAlone(d, ports, classSpec, leaf);
    });
  }

  /** The device, found once; the ledger has the root's entry before any root is made on it. */
  private String device() {
    if (dev == null) {
      String d = device.get();
      ledger.record(new LedgerEntry(KIND, d, "cluster", Map.of(OWNER, ledger.owner())));
      dev = d;
    }
    return dev;
  }

  private Installed shapeAlone(String d, List<Integer> ports, List<String> classSpec, List<String> leaf) {
    ensureRoot(d);
    int slot = SLOTS.take(ledger.owner() + " " + d);
    TcShape s = new TcShape(d, classOf(slot), classSpec, leaf, ports, directions);
    Commands.Result added = on.act(s.addClass());
    if (!added.ok()) {
      if (!rootThere(on, d)) { // another harness's heal took the root while this one had no class
        rootMade = false;
        ensureRoot(d);
      } else { // another harness's range: its owner's name hashed to this one's
        s = new TcShape(d, freeClass(d), classSpec, leaf, ports, directions);
      }
      added = on.act(s.addClass());
    }
    if (!added.ok()) {
      SLOTS.give(ledger.owner() + " " + d, slot);
      throw new IllegalStateException(on.where() + ": " + String.join(" ", s.addClass()) + " failed: " + added.said());
    }
    if (s.addLeaf() != null) {
      Commands.Result r = on.act(s.addLeaf());
      if (!r.ok()) {
        on.act(List.of("tc", "class", "del", "dev", d, "classid", s.classId()));
        SLOTS.give(ledger.owner() + " " + d, slot);
        throw new PreconditionFailed(on.where() + ": tc could not add netem (" + r.said() + "); its kernel may lack"
            + " netem (CONFIG_NET_SCH_NETEM)");
      }
    }
    s.addFilters().forEach(on::check);
    TcShape made = s;
    return () -> {
      made.removal().forEach(on::act); // idempotent: what is gone already stays gone
      SLOTS.give(ledger.owner() + " " + d, slot);
    };
  }

  /**
   * A harness's class numbers on a device: a range of 256 of its own (from its owner name's hash),
   * so harnesses sharing a root seldom meet without asking tc which classes are taken; each fault
   * takes the lowest slot free and gives it back when healed.
   */
  private int classOf(int slot) {
    return firstClass(ledger.owner()) + slot;
  }

  /** The first of {@code owner}'s 256 class numbers; the root's own default class, 1, is below them all. */
  static int firstClass(String owner) {
    return (Math.floorMod(owner.hashCode(), 200) + 1) * 256;
  }

  /** Slots in use, per harness and device, across the harness's TrafficControl objects. */
  private static final class Slots {
    private final Map<String, java.util.BitSet> used = new java.util.HashMap<>();

    synchronized int take(String key) {
      java.util.BitSet b = used.computeIfAbsent(key, k -> new java.util.BitSet());
      int slot = b.nextClearBit(0);
      if (slot > 255) {
        throw new IllegalStateException("more than 256 traffic shaping faults at once on " + key);
      }
      b.set(slot);
      return slot;
    }

    synchronized void give(String key, int slot) {
      java.util.BitSet b = used.get(key);
      if (b != null) {
        b.clear(slot);
      }
    }
  }

  private static final Slots SLOTS = new Slots();

  /** The lowest class number above every class under faultbed's root on {@code d} (the default is 1). */
  private int freeClass(String d) {
    Matcher m = CLASS_SHOWN.matcher(on.inspect(List.of("tc", "class", "show", "dev", d)).out());
    int highest = 1;
    while (m.find()) {
      highest = Math.max(highest, Integer.parseInt(m.group(1), 16));
    }
    return highest + 1;
  }

  private static boolean rootThere(Commands on, String d) {
    return on.inspect(List.of("tc", "qdisc", "show", "dev", d, "root")).out().contains(TcShape.ROOT_SHOWN);
  }

  /** faultbed's htb root on the device, made in place of the kernel's default or shared with another harness. */
  private void ensureRoot(String d) {
    if (rootMade) {
      return;
    }
    String current = on.inspect(List.of("tc", "qdisc", "show", "dev", d, "root")).out().strip();
    String[] words = current.split("\\s+");
    String kind = words.length > 1 ? words[1] : "";
    if (!current.contains(TcShape.ROOT_SHOWN) && !current.isEmpty() && !DEFAULTS.contains(kind)) {
      throw new PreconditionFailed(on.where() + ": " + d + " already has a root qdisc faultbed did not make ("
          + current.lines().findFirst().orElse("") + "); faultbed will not replace it");
    }
    if (!current.contains(TcShape.ROOT_SHOWN)) {
      TcShape.root(d, true).forEach(on::check);
    }
    rootMade = true;
  }

  /** Removes faultbed's root qdisc on a device, and with it every class and filter below it. */
  static final class RootHealer implements Healer.Anywhere {
    private static final String UNCLAIMED = "unclaimed";
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
      return on == Commands.local() ? MachineLock.holding("tc", () -> healAlone(entry, on)) : healAlone(entry, on);
    }

    private String healAlone(LedgerEntry entry, Commands on) {
      if (!rootThere(on, entry.id())) {
        return null;
      }
      if (!entry.detail().containsKey(UNCLAIMED)) {
        List<Integer> classes = CLASS_SHOWN.matcher(on.inspect(List.of("tc", "class", "show", "dev", entry.id())).out())
            .results().map(c -> Integer.parseInt(c.group(1), 16)).filter(c -> c != 1).toList();
        String owner = entry.detail().get(OWNER);
        // this harness's classes (its range) go; another harness's keep the root until the last goes
        List<Integer> others = owner == null ? classes : classes.stream()
            .filter(c -> c < firstClass(owner) || c >= firstClass(owner) + 256).toList();
        for (int c : classes) {
          if (!others.contains(c)) {
            new TcShape(entry.id(), c, List.of(), List.of(), List.of(), List.of()).removal().forEach(on::act);
          }
        }
        if (!others.isEmpty()) {
          return classes.size() > others.size() ? "removed " + (classes.size() - others.size()) + " tc class(es) under "
              + TcShape.ROOT + " on " + entry.id() + "; the root stays for another harness's" : null;
        }
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
        // found here, healed only when no live ledger claims it: every class under it is a dead harness's
        found.add(new Found(new LedgerEntry(KIND, m.group(1), "unknown", Map.of(UNCLAIMED, "true")), null));
      }
      return found;
    }
  }
}
