package faultbed.faults;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The list of everything one harness process installed on the OS, kept in a file so that whatever
 * a dead process left behind can be healed by the next one. A shutdown hook heals the process's
 * own entries on a normal exit; {@link #healOrphans()} heals those of processes that died. The
 * same ledger, kept in a file on a remote host ({@link #kept}), holds what a harness made there;
 * its healers run their commands over that host's {@link Commands}.
 */
public final class Ledger implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final Map<String, Healer> HEALERS = new ConcurrentHashMap<>();
  private static final java.util.concurrent.atomic.AtomicLong OPENED = new java.util.concurrent.atomic.AtomicLong();

  static {
    register(new CgroupHealer());
    register(new DirectoryHealer());
    register(new WebAppTempHealer());
    register(new Iptables.RuleHealer());
    register(new Iptables.OldChainHealer());
    register(new Undo());
    register(new StoppedProcesses.Continue());
    register(new NodeDisk.MountHealer());
    register(new NodeDisk.FillHealer());
    register(new NodeDisk.FailureHealer());
    register(new NodeDisk.SlowHealer());
    register(new FileCorruption.BytesHealer());
    register(new TrafficControl.RootHealer());
    register(new Toxiproxy.ProxyHealer());
    register(new NodeNetwork.NamespaceHealer());
    register(new NodeNetwork.LinkHealer());
    if (DockerEngine.clientOnClassPath()) { // optional: a build without Docker has no healers of it to load
      register(new DockerEngine.ContainerHealer());
      register(new DockerEngine.NetworkHealer());
    }
    register(new faultbed.faults.remote.YarnApplications.KillHealer());
  }

  private final String owner;
  private final Commands on;
  private final Store store;
  private final Map<String, LedgerEntry> entries = new LinkedHashMap<>();
  private final Thread hook; // null: a ledger kept elsewhere, healed by whoever holds it
  private boolean closed;

  /**
   * Where a ledger keeps its entries: a file of this machine that a shutdown hook and the next
   * start read, or a file on the remote host the entries are about.
   */
  public interface Store {
    /** Keeps {@code added} (now among {@code all}) before the thing it names is made. */
    void added(LedgerEntry added, List<LedgerEntry> all);

    /** Keeps {@code all}, what is left after an entry was healed. */
    void healed(List<LedgerEntry> all);

    /** The ledger is done: every entry healed. */
    void delete();
  }

  /** The on-disk form of one ledger. */
  record Page(String owner, long pid, String pidStart, List<LedgerEntry> entries) {}

  private Ledger(String owner, Commands on, Store store, List<LedgerEntry> existing, boolean healOnExit) {
    this.owner = owner;
    this.on = on;
    this.store = store;
    existing.forEach(e -> entries.put(e.kind() + ":" + e.id(), e));
    this.hook = healOnExit ? new Thread(this::healQuietly, "faultbed-ledger-heal") : null;
    if (hook != null) {
      Runtime.getRuntime().addShutdownHook(hook);
      store.healed(List.of());
    }
  }

  /** Opens a ledger for this JVM; its owner name tags every cgroup and rule it installs. */
  public static Ledger open() {
    long pid = ProcessHandle.current().pid();
    // one JVM may hold more than one ledger (a harness per test): each a name of its own
    long stamp = System.currentTimeMillis() + OPENED.getAndIncrement();
    String owner = "h" + pid + "-" + Long.toString(stamp % 1_000_000_000L, 36);
    return new Ledger(owner, Commands.local(), new PageFile(dir().resolve(owner + ".json"), owner), List.of(), true);
  }

  /**
   * A ledger of {@code owner}'s whose things are made by {@code on} and whose entries {@code store}
   * keeps, holding {@code existing} already (read back from the store); healed by whoever holds it.
   */
  public static Ledger kept(String owner, Commands on, Store store, List<LedgerEntry> existing) {
    return new Ledger(owner, on, store, existing, false);
  }

  public static void register(Healer healer) {
    HEALERS.put(healer.kind(), healer);
  }

  /** Where ledgers live: a tmpfs under /run when root (cleared with the cgroups at reboot). */
  public static Path dir() {
    String configured = System.getProperty("faultbed.state.dir", System.getenv("FAULTBED_STATE_DIR"));
    Path d = configured != null ? Path.of(configured)
        : Files.isWritable(Path.of("/run")) ? Path.of("/run/faultbed")
        : Path.of(System.getProperty("java.io.tmpdir"), "faultbed-" + System.getProperty("user.name"));
    Path ledgers = d.resolve("ledger");
    try {
      Files.createDirectories(ledgers);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the ledger folder " + ledgers, e);
    }
    return ledgers;
  }

  public String owner() {
    return owner;
  }

  /** Where this ledger's things are: where its healers run their commands. */
  public Commands commands() {
    return on;
  }

  /**
   * Keeps {@code entry} before the thing it names is made. Refused once the ledger is closed (the
   * harness is stopping, its things already healed): a thing made then would be left behind.
   */
  public synchronized void record(LedgerEntry entry) {
    if (closed) {
      throw new Stopping(entry);
    }
    entries.put(entry.kind() + ":" + entry.id(), entry);
    store.added(entry, List.copyOf(entries.values()));
  }

  /**
   * Records {@code entry} and makes its thing ({@code make}) under this ledger's lock, so the heal on
   * exit (a SIGINT, say) waits for a making in progress and heals what it made, and nothing is made
   * once it has run. Making must not take a lock that a healer of this ledger's takes first.
   */
  public synchronized <T> T making(LedgerEntry entry, java.util.function.Supplier<T> make) {
    record(entry);
    return make.get();
  }

  /** As {@link #making(LedgerEntry, java.util.function.Supplier)}, for a thing an entry already kept heals (a tc class under its root). */
  public synchronized <T> T making(java.util.function.Supplier<T> make) {
    if (closed) {
      throw new Stopping(null);
    }
    return make.get();
  }

  /** A fault asked of a ledger already healed and closed: the harness is stopping. */
  public static final class Stopping extends IllegalStateException {
    Stopping(LedgerEntry entry) {
      super("faultbed is stopping: its clean-up has run, so nothing more is made"
          + (entry == null ? "" : " (" + entry.kind() + " " + entry.id() + ")"));
    }
  }

  public synchronized List<LedgerEntry> entries() {
    return List.copyOf(entries.values());
  }

  /** Heals one entry now and forgets it; nothing once the ledger is closed, whose close healed it. */
  public synchronized String heal(LedgerEntry entry) {
    if (closed) {
      return null;
    }
    String what = healer(entry).heal(entry, on);
    entries.remove(entry.kind() + ":" + entry.id());
    saveHealed();
    return what;
  }

  /** Heals every entry of this ledger (newest first) and deletes its file. */
  public synchronized List<String> healAll() {
    List<LedgerEntry> list = new ArrayList<>(entries.values());
    java.util.Collections.reverse(list);
    List<String> done = new ArrayList<>();
    RuntimeException first = null;
    for (LedgerEntry e : list) {
      try {
        String what = healer(e).heal(e, on);
        if (what != null) {
          done.add(what);
        }
        entries.remove(e.kind() + ":" + e.id());
      } catch (RuntimeException ex) {
        first = first == null ? ex : first;
      }
    }
    saveHealed();
    if (first != null) {
      throw first;
    }
    return done;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    healAll(); // throws, leaving the store, when something could not be healed: the next start tries again
    closed = true;
    store.delete();
    if (hook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // called from the hook itself
      }
    }
  }

  private void healQuietly() {
    try {
      close();
    } catch (RuntimeException e) {
      System.err.println("faultbed: clean-up on exit failed: " + e.getMessage());
    }
  }

  private void saveHealed() {
    if (!closed) {
      store.healed(List.copyOf(entries.values()));
    }
  }

  /** This process's ledger file: rewritten whole at each change, with the process's pid and start time. */
  private record PageFile(Path file, String owner) implements Store {
    @Override
    public void added(LedgerEntry added, List<LedgerEntry> all) {
      healed(all);
    }

    @Override
    public void healed(List<LedgerEntry> all) {
      ProcessHandle self = ProcessHandle.current();
      writeAtomically(file, new Page(owner, self.pid(), startOf(self).map(Instant::toString).orElse(""), all));
    }

    @Override
    public void delete() {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * Heals what dead harness processes left: every entry of a ledger whose process is gone, then
   * anything faultbed made that no live ledger claims (a ledger lost with its process).
   *
   * @return one line per thing removed
   */
  public static List<String> healOrphans() {
    return sweep(true);
  }

  /**
   * The owners of the ledgers whose harness still runs on this machine: what they installed
   * elsewhere (on a remote host) is theirs to heal.
   */
  public static java.util.Set<String> liveOwners() {
    return Claims.live().owners();
  }

  /**
   * How many things of each kind faultbed made are on this machine now, whoever made them and whether
   * or not their harness still runs (a kind that cannot be listed here, such as iptables without
   * root, is left out): what a long suite must not accumulate.
   */
  public static Map<String, Integer> present() {
    return present(owner -> true);
  }

  /**
   * {@link #present()} of the things whose harness {@code owner} accepts (a thing of no known
   * harness, such as a qdisc root harnesses share, counts as {@code null}): what one harness among
   * others leaves.
   */
  public static Map<String, Integer> present(java.util.function.Predicate<String> owner) {
    Map<String, Integer> counts = new java.util.TreeMap<>();
    for (Healer h : HEALERS.values()) {
      try {
        counts.put(h.kind(), (int) h.findAll().stream().filter(f -> owner.test(f.owner())).count());
      } catch (RuntimeException notAllowed) {
        // listed by whoever may
      }
    }
    return counts;
  }

  /** What {@link #healOrphans()} would remove, without removing it. */
  public static List<String> orphans() {
    return sweep(false);
  }

  private static List<String> sweep(boolean heal) {
    List<String> lines = new ArrayList<>();
    java.util.Set<String> liveOwners = new java.util.HashSet<>();
    java.util.Set<String> claimed = new java.util.HashSet<>();
    // files and folders go last, once every process is stopped: a dd loop still running would write
    // its file again after it was removed
    List<Runnable> filesLast = new ArrayList<>();
    for (Path f : ledgerFiles()) {
      Optional<Page> page = read(f);
      if (page.isEmpty()) {
        continue;
      }
      Page p = page.get();
      if (isAlive(p)) {
        liveOwners.add(p.owner());
        p.entries().forEach(e -> claimed.add(e.kind() + ":" + e.id()));
        continue;
      }
      List<LedgerEntry> newestFirst = new ArrayList<>(p.entries());
      java.util.Collections.reverse(newestFirst);
      for (LedgerEntry e : newestFirst) {
        if (!heal) {
          lines.add(e.kind() + " " + e.id() + " (run " + e.runId() + ", dead process " + p.pid() + ")");
          continue;
        }
        Runnable healIt = () -> {
          String what = healer(e).heal(e, Commands.local());
          if (what != null) {
            lines.add(what + " (left by dead process " + p.pid() + ")");
          }
        };
        if (e.kind().equals(DirectoryHealer.KIND)) {
          filesLast.add(healIt);
        } else {
          healIt.run();
        }
      }
      if (heal) {
        try {
          Files.deleteIfExists(f);
        } catch (IOException ex) {
          throw new UncheckedIOException(ex);
        }
      }
    }
    Claims first = new Claims(liveOwners, claimed);
    for (Healer h : HEALERS.values()) {
      List<Healer.Found> present;
      try {
        present = h.findAll();
      } catch (RuntimeException notAllowed) {
        // e.g. iptables or tc without root: what root made, only root can list and remove
        if (!heal) {
          lines.add("cannot look for " + h.kind() + " leftovers here: " + notAllowed.getMessage());
        }
        continue;
      }
      Claims again = null;
      for (Healer.Found found : present) {
        LedgerEntry e = found.entry();
        boolean listedAbove = !heal && lines.stream().anyMatch(l -> l.startsWith(e.kind() + " " + e.id() + " "));
        if (first.claim(found) || listedAbove) {
          continue;
        }
        // A harness starting meanwhile opened its ledger after the first look and may have made this
        // since (its entry recorded first, then the thing): the ledgers are read again, after the
        // listing, which therefore sees every owner of what it found. Two harnesses starting at once
        // removed each other's Docker network this way.
        if (again == null) {
          again = Claims.live();
        }
        if (again.claim(found)) {
          continue;
        }
        if (heal) {
          String what = h.heal(e, Commands.local());
          if (what != null) {
            lines.add(what.replaceFirst("^removed ", "removed unclaimed "));
          }
        } else {
          lines.add(e.kind() + " " + e.id() + describe(e));
        }
      }
    }
    filesLast.forEach(Runnable::run);
    return lines;
  }

  /** The owners of live ledgers and the entries they hold: what a sweep must leave alone. */
  private record Claims(java.util.Set<String> owners, java.util.Set<String> entries) {
    static Claims live() {
      java.util.Set<String> owners = new java.util.HashSet<>();
      java.util.Set<String> entries = new java.util.HashSet<>();
      for (Path f : ledgerFiles()) {
        read(f).filter(Ledger::isAlive).ifPresent(p -> {
          owners.add(p.owner());
          p.entries().forEach(e -> entries.add(e.kind() + ":" + e.id()));
        });
      }
      return new Claims(owners, entries);
    }

    boolean claim(Healer.Found found) {
      return entries.contains(found.entry().kind() + ":" + found.entry().id()) || owners.contains(found.owner());
    }
  }

  private static String describe(LedgerEntry e) {
    if (e.kind().equals(CgroupHealer.KIND)) {
      return " with " + Cgroup.recorded(e.id(), e.detail().get(CgroupHealer.V2_ROOT)).pids().size() + " process(es)";
    }
    return "";
  }

  private static Healer healer(LedgerEntry e) {
    Healer h = HEALERS.get(e.kind());
    if (h == null) {
      throw new IllegalStateException("no healer for ledger entry kind '" + e.kind() + "'"
          + (e.kind().startsWith("docker-") ? " (" + DockerEngine.unavailable().orElse("") + ")" : ""));
    }
    return h;
  }

  private static boolean isAlive(Page p) {
    return ProcessHandle.of(p.pid())
        .filter(ProcessHandle::isAlive)
        .filter(h -> startOf(h).map(Instant::toString).orElse("").equals(p.pidStart()))
        .isPresent();
  }

  private static Optional<Instant> startOf(ProcessHandle h) {
    return h.info().startInstant();
  }

  private static List<Path> ledgerFiles() {
    try (Stream<Path> s = Files.list(dir())) {
      return s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Optional<Page> read(Path f) {
    try {
      return Optional.of(JSON.readValue(f.toFile(), Page.class));
    } catch (IOException e) {
      return Optional.empty(); // a half-written file of a process that died mid-write
    }
  }

  static void writeAtomically(Path target, Object value) {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    try {
      JSON.writeValue(tmp.toFile(), value);
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target, e);
    }
  }
}
