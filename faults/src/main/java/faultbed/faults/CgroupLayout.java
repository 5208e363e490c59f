package faultbed.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The cgroup hierarchies of this host, read from the mount table (never from fixed paths), and
 * which one serves each thing a node's group does: holding and killing or freezing its processes,
 * limiting its CPU, limiting its disk I/O. cgroup v2 serves whatever its unified hierarchy offers
 * here; v1 controllers serve the rest (a hybrid host); with neither, a node's processes are still
 * found and signalled as a process tree.
 *
 * <p>Under cgroup v2 faultbed works below the cgroup it was started in when that one is its own (the
 * cgroup root of a VM or container, or a subtree delegated to it, e.g. by {@code systemd-run --scope
 * -p Delegate=yes}); it never takes over a cgroup that other processes share.
 */
public final class CgroupLayout {
  /** Where one concern is served. */
  public enum Mechanism {
    V2("cgroup v2"), V1("cgroup v1"), SIGNALS("signals to the process tree"), NONE("unavailable");

    private final String words;

    Mechanism(String words) {
      this.words = words;
    }

    @Override
    public String toString() {
      return words;
    }
  }

  /** The folder, below a hierarchy's base, that holds every group faultbed makes. */
  public static final String PREFIX = "faultbed";
  /** The leaf this process and its family move into when their cgroup must hand controllers down. */
  static final String HARNESS_LEAF = "faultbed-harness";

  private static volatile CgroupLayout current;

  private final Map<String, Path> v1;
  private final Path v2Mount;
  private final Path v2Own;
  private final Set<String> v2Controllers;
  private final boolean v2OwnNeedsLeaf;
  private final Path signalsBase;
  private final Mechanism tasks;
  private final Mechanism cpu;
  private final Mechanism io;
  private final Mechanism memory;
  private final List<String> problems;

  private CgroupLayout(Map<String, Path> v1, Path v2Mount, Path v2Own, Set<String> v2Controllers,
      boolean v2OwnNeedsLeaf, String v2Problem, Path signalsBase) {
    this.v1 = Map.copyOf(v1);
    this.v2Mount = v2Mount;
    this.v2Own = v2Own;
    this.v2Controllers = Set.copyOf(v2Controllers);
    this.v2OwnNeedsLeaf = v2OwnNeedsLeaf;
    this.signalsBase = signalsBase;
    List<String> found = new ArrayList<>();
    boolean v2 = v2Own != null;
    this.tasks = v2 ? Mechanism.V2 : this.v1.containsKey("freezer") ? Mechanism.V1 : Mechanism.SIGNALS;
    this.cpu = v2 && this.v2Controllers.contains("cpu") ? Mechanism.V2
        : this.v1.containsKey("cpu") ? Mechanism.V1 : Mechanism.NONE;
    this.io = v2 && this.v2Controllers.contains("io") ? Mechanism.V2
        : this.v1.containsKey("blkio") ? Mechanism.V1 : Mechanism.NONE;
    this.memory = v2 && this.v2Controllers.contains("memory") ? Mechanism.V2
        : this.v1.containsKey("memory") ? Mechanism.V1 : Mechanism.NONE;
    String how = v2Problem != null ? v2Problem : "no cgroup v2 or v1 '%s' hierarchy is mounted and writable here";
    if (tasks == Mechanism.SIGNALS) {
      found.add("node processes are found and signalled as process trees, not held in a cgroup: "
          + String.format(how, "freezer"));
    }
    if (cpu == Mechanism.NONE) {
      found.add("no CPU controller for faultbed's groups (slow-node cpu): " + String.format(how, "cpu"));
    }
    if (io == Mechanism.NONE) {
      found.add("no I/O controller for faultbed's groups (slow-node disk throttles): " + String.format(how, "blkio"));
    }
    this.problems = List.copyOf(found);
  }

  /** This host's layout, read once; {@link #reload()} reads it again (tests that change the properties). */
  public static CgroupLayout current() {
    CgroupLayout l = current;
    if (l == null) {
      l = reload();
    }
    return l;
  }

  /**
   * Reads the layout again. {@code faultbed.mountinfo} names the mount table (default
   * {@code /proc/self/mountinfo}); {@code faultbed.cgroup.use} = {@code v1} or {@code v2} ignores the
   * other kind of hierarchy, {@code none} both, to exercise one path on a host that has more.
   */
  public static synchronized CgroupLayout reload() {
    current = read(Path.of(System.getProperty("faultbed.mountinfo", "/proc/self/mountinfo")),
        Path.of("/proc/self/cgroup"), System.getProperty("faultbed.cgroup.use", ""));
    return current;
  }

  static CgroupLayout read(Path mountinfo, Path selfCgroup, String use) {
    Map<String, Path> v1 = new LinkedHashMap<>();
    Path v2Mount = null;
    String v2MountRoot = "/";
    for (Mount m : mounts(mountinfo)) {
      Path point = Path.of(m.point());
      if (use.equals("none")) {
        break;
      }
      if (m.type().equals("cgroup2") && !use.equals("v1") && v2Mount == null) {
        v2Mount = point;
        v2MountRoot = m.root();
      } else if (m.type().equals("cgroup") && !use.equals("v2")) {
        for (String opt : m.options().split(",")) {
          if (Set.of("freezer", "cpu", "blkio", "cpuacct", "memory").contains(opt) && !v1.containsKey(opt)
              && Files.isWritable(point)) {
            v1.put(opt, point);
          }
        }
      }
    }
    Path own = null;
    Set<String> controllers = Set.of();
    boolean needsLeaf = false;
    String v2Problem = null;
    if (v2Mount != null) {
      String ownPath = ownV2Path(selfCgroup).orElse("/");
      Path ownDir = inside(v2Mount, v2MountRoot, ownPath);
      if (ownDir.getFileName() != null && ownDir.getFileName().toString().equals(HARNESS_LEAF)) {
        ownDir = ownDir.getParent(); // moved there by an earlier faultbed process of this family
      }
      if (!Files.isWritable(ownDir) || !Files.isWritable(ownDir.resolve("cgroup.procs"))) {
        v2Problem = "cgroup v2 is mounted at " + v2Mount + ", but this process's cgroup " + ownDir
            + " is not delegated to it; run as root, or under `systemd-run --user --scope -p Delegate=yes`";
      } else {
        own = ownDir;
        Set<String> available = words(ownDir.resolve("cgroup.controllers"));
        boolean isRoot = ownDir.equals(v2Mount);
        Set<String> otherProcesses = isRoot ? Set.of() : strangers(ownDir);
        if (!otherProcesses.isEmpty()) {
          // enabling controllers for children needs an empty parent; moving strangers is not ours to do
          v2Problem = "this process's cgroup " + ownDir + " also holds other processes " + otherProcesses
              + ", so faultbed cannot hand its controllers down; run it in a cgroup of its own (`systemd-run"
              + " --scope -p Delegate=yes ...`, as root with `--user` dropped)";
          controllers = Set.of();
        } else {
          controllers = available;
          needsLeaf = !isRoot;
          if (!available.contains("cpu") || !available.contains("io")) {
            v2Problem = "cgroup v2 at " + ownDir + " offers only [" + String.join(" ", available)
                + "] and no %s v1 hierarchy is mounted; delegate cpu and io to it (`systemd-run"
                + " --scope -p Delegate=yes`, or as root)";
          }
        }
      }
    }
    return new CgroupLayout(v1, v2Mount, own, controllers, needsLeaf, v2Problem, groupsFolder());
  }

  private static Path groupsFolder() {
    return Ledger.dir().getParent().resolve("groups");
  }

  /** The mount point's folder for a path of the hierarchy, given the hierarchy path the mount shows. */
  private static Path inside(Path mount, String mountRoot, String path) {
    String rel = path;
    if (!mountRoot.equals("/") && path.startsWith(mountRoot)) {
      rel = path.substring(mountRoot.length());
    }
    rel = rel.replaceFirst("^/+", "");
    return rel.isEmpty() ? mount : mount.resolve(rel);
  }

  private static Optional<String> ownV2Path(Path selfCgroup) {
    for (String line : Cgroup.readLines(selfCgroup)) {
      if (line.startsWith("0::")) {
        return Optional.of(line.substring(3));
      }
    }
    return Optional.empty();
  }

  /** Members of the cgroup other than this process, its ancestors and its descendants. */
  private static Set<String> strangers(Path cgroup) {
    Set<Long> family = new java.util.HashSet<>();
    ProcessHandle self = ProcessHandle.current();
    family.add(self.pid());
    self.descendants().forEach(p -> family.add(p.pid()));
    for (Optional<ProcessHandle> p = self.parent(); p.isPresent(); p = p.get().parent()) {
      family.add(p.get().pid());
    }
    Set<String> others = new LinkedHashSet<>();
    for (String pid : words(cgroup.resolve("cgroup.procs"))) {
      if (!family.contains(Long.parseLong(pid))) {
        others.add(pid);
      }
    }
    return others;
  }

  static Set<String> words(Path file) {
    Set<String> w = new LinkedHashSet<>();
    for (String line : Cgroup.readLines(file)) {
      for (String s : line.trim().split("\\s+")) {
        if (!s.isEmpty()) {
          w.add(s);
        }
      }
    }
    return w;
  }


  /**
   * Shell commands that mount this host's cgroup hierarchies again where they are mounted here, for
   * a process in a mount namespace of its own whose {@code /sys} is fresh ({@code ip netns exec}
   * mounts a new sysfs, and the cgroup mounts below it are gone): mounting a v1 hierarchy with the
   * same controllers, or cgroup2, gives the same hierarchy, so a node process sees its groups as
   * the harness does. Only hierarchies mounted from their root; each command may fail alone. Empty
   * when nothing is mounted.
   */
  public static String remountCommands() {
    Path mountinfo = Path.of(System.getProperty("faultbed.mountinfo", "/proc/self/mountinfo"));
    List<String> commands = new ArrayList<>();
    for (Mount m : mounts(mountinfo)) {
      String point = m.point();
      if (!m.root().equals("/") || !point.startsWith("/sys/fs/cgroup") || point.contains("'")) {
        continue;
      }
      switch (m.type()) {
        case "tmpfs" -> {
          if (point.equals("/sys/fs/cgroup")) {
            commands.add("mount -t tmpfs -o mode=755 tmpfs /sys/fs/cgroup");
          }
        }
        case "cgroup2" -> commands.add("mkdir -p '" + point + "' && mount -t cgroup2 cgroup2 '" + point + "'");
        case "cgroup" -> {
          List<String> opts = new ArrayList<>();
          for (String o : m.options().split(",")) {
            if (!Set.of("rw", "ro").contains(o) && o.matches("[A-Za-z0-9_=.-]+")) {
              opts.add(o);
            }
          }
          commands.add("mkdir -p '" + point + "' && mount -t cgroup -o " + String.join(",", opts) + " cgroup '" + point + "'");
        }
        default -> { }
      }
    }
    return commands.isEmpty() ? "" : "{ " + String.join("; ", commands) + "; } 2>/dev/null;";
  }

  /** A line of a mount table: the folder of the file system mounted, where, its type and its own options. */
  private record Mount(String root, String point, String type, String options) {}

  private static List<Mount> mounts(Path mountinfo) {
    List<Mount> out = new ArrayList<>();
    for (String line : Cgroup.readLines(mountinfo)) {
      String[] halves = line.split(" - ", 2);
      if (halves.length < 2) {
        continue;
      }
      String[] left = halves[0].split(" ");
      String[] right = halves[1].split(" ");
      if (left.length >= 5 && right.length >= 3) {
        out.add(new Mount(unescape(left[3]), unescape(left[4]), right[0], right[2]));
      }
    }
    return out;
  }

  /** mountinfo escapes space, tab, newline and backslash as octal. */
  private static String unescape(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).matches("[0-7]{3}")) {
        b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** v1, v2, hybrid or none: which kinds of cgroup hierarchy are mounted. */
  public String kind() {
    boolean anyV1 = !v1.isEmpty();
    if (v2Mount != null && anyV1) {
      return "hybrid";
    }
    return v2Mount != null ? "v2" : anyV1 ? "v1" : "none";
  }

  /** Who holds, kills and freezes a node's processes. */
  public Mechanism tasks() {
    return tasks;
  }

  public Mechanism cpu() {
    return cpu;
  }

  public Mechanism io() {
    return io;
  }

  /** Who limits a node's memory (memory-pressure); NONE leaves the fault to say why it cannot. */
  public Mechanism memory() {
    return memory;
  }

  /** Why a node's memory cannot be limited here, with how to get it; empty when it can. */
  public Optional<String> memoryProblem() {
    return memory != Mechanism.NONE ? Optional.empty() : Optional.of("no memory controller for faultbed's groups"
        + " (memory-pressure): no cgroup v2 'memory' controller delegated here and no v1 'memory' hierarchy mounted"
        + " and writable; run as root on a host with either");
  }

  /** What this layout cannot do, one line each with how to get it. */
  public List<String> problems() {
    return problems;
  }

  /** One line for doctor and run records: what is mounted and what serves each concern. */
  public String describe() {
    StringBuilder b = new StringBuilder(kind());
    if (v2Mount != null) {
      b.append(" (v2 at ").append(v2Mount).append(v2Own != null && !v2Own.equals(v2Mount) ? ", own cgroup " + v2Own : "")
          .append(")");
    }
    if (!v1.isEmpty()) {
      b.append(" (v1: ").append(String.join(" ", new java.util.TreeSet<>(v1.keySet()))).append(")"); // one line per host, whatever the map's order
    }
    return b + "; processes: " + tasks + ", cpu: " + cpu + ", io: " + io + ", memory: " + memory;
  }

  /** The root of the v1 controller's hierarchy, if it is mounted here. */
  public Optional<Path> v1Root(String controller) {
    return Optional.ofNullable(v1.get(controller));
  }

  /** The folder of the v1 controller's hierarchy that holds faultbed's groups. */
  Path v1Base(String controller) {
    Path mount = v1.get(controller);
    if (mount == null) {
      throw new PreconditionFailed("cgroup v1 controller '" + controller + "' is not mounted here");
    }
    return mount.resolve(PREFIX);
  }

  /** The folder of the unified hierarchy that holds faultbed's groups. */
  Path v2Base() {
    if (v2Own == null) {
      throw new PreconditionFailed("cgroup v2 is not usable here");
    }
    return v2Own.resolve(PREFIX);
  }

  /** Where process-tree groups keep their member lists when no cgroup holds them. */
  Path signalsBase() {
    return signalsBase.resolve(PREFIX);
  }

  /** Controllers faultbed's v2 groups need handed down to them. */
  Set<String> v2Needed() {
    Set<String> need = new LinkedHashSet<>();
    if (cpu == Mechanism.V2) {
      need.add("cpu");
    }
    if (io == Mechanism.V2) {
      need.add("io");
    }
    if (memory == Mechanism.V2) {
      need.add("memory");
    }
    return need;
  }

  /**
   * Makes the cgroup faultbed was started in hand {@code controllers} down: its own processes (this
   * one and its family) move into a leaf first, since a v2 cgroup with processes cannot.
   */
  synchronized void handDown(Set<String> controllers) {
    if (controllers.isEmpty()) {
      return;
    }
    Path own = v2Own;
    Set<String> enabled = words(own.resolve("cgroup.subtree_control"));
    if (enabled.containsAll(controllers)) {
      return;
    }
    if (v2OwnNeedsLeaf) {
      Path leaf = own.resolve(HARNESS_LEAF);
      try {
        Files.createDirectories(leaf);
        for (String pid : words(own.resolve("cgroup.procs"))) {
          try {
            Files.writeString(leaf.resolve("cgroup.procs"), pid);
          } catch (IOException exited) {
            // the process ended between the read and the move
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot move faultbed's processes into " + leaf, e);
      }
    }
    enable(own, controllers);
  }

  static void enable(Path cgroup, Set<String> controllers) {
    Set<String> enabled = words(cgroup.resolve("cgroup.subtree_control"));
    List<String> add = controllers.stream().filter(c -> !enabled.contains(c)).map(c -> "+" + c).toList();
    if (add.isEmpty()) {
      return;
    }
    try {
      Files.writeString(cgroup.resolve("cgroup.subtree_control"), String.join(" ", add));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot enable " + add + " in " + cgroup.resolve("cgroup.subtree_control"), e);
    }
  }
}
