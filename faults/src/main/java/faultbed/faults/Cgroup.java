package faultbed.faults;

import faultbed.faults.CgroupLayout.Mechanism;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * One group of processes faultbed made (a node, or load on a node), under the same path in every
 * hierarchy its host's {@link CgroupLayout} uses: cgroup v2 where the unified hierarchy serves,
 * v1 controllers for the rest, and where no cgroup can hold processes, a member list whose process
 * trees are signalled. Killing is whole-group: {@code cgroup.kill} on v2, "freeze, SIGKILL every
 * member, thaw" on v1 (a frozen group cannot fork), "SIGSTOP until no new member appears, then
 * SIGKILL" for a process tree.
 */
public final class Cgroup {
  /** Every group faultbed makes lives under this folder of each hierarchy, so it never touches others. */
  public static final String PREFIX = CgroupLayout.PREFIX;
  /** A process-tree group's member list: one "pid starttime" line per process that joined. */
  static final String MEMBERS = "members";
  private static final String FROZEN_MARK = "frozen";

  private final CgroupLayout layout;
  private final String relative;
  private final Path v2Root;

  private Cgroup(CgroupLayout layout, String relative, Path v2Root) {
    this.layout = layout;
    this.relative = relative;
    this.v2Root = v2Root;
  }

  /** A handle on {@code faultbed/<relative>}; nothing is created until {@link #create()}. */
  public static Cgroup of(String relative) {
    CgroupLayout layout = CgroupLayout.current();
    return new Cgroup(layout, PREFIX + "/" + relative, layout.tasks() == Mechanism.V2 ? layout.v2Base().getParent() : null);
  }

  /** A group recorded in a ledger, possibly by a process that lived in another v2 cgroup. */
  static Cgroup recorded(String fullRelative, String v2Root) {
    CgroupLayout layout = CgroupLayout.current();
    Path root = v2Root != null && !v2Root.isEmpty() ? Path.of(v2Root)
        : layout.tasks() == Mechanism.V2 ? layout.v2Base().getParent() : null;
    return new Cgroup(layout, fullRelative, root);
  }

  /** The folder below which this group's v2 cgroup lives, for the ledger; null when v2 holds nothing. */
  String v2Root() {
    return v2Root == null ? null : v2Root.toString();
  }

  public String path() {
    return relative;
  }

  public CgroupLayout layout() {
    return layout;
  }

  /** The folder that holds this group's processes (v2 cgroup, v1 freezer group or member list). */
  public Path tasksDir() {
    return switch (layout.tasks()) {
      case V2 -> v2Root.resolve(relative);
      case V1 -> v1Dir("freezer");
      default -> layout.signalsBase().getParent().resolve(relative);
    };
  }

  private Path v1Dir(String controller) {
    return layout.v1Base(controller).getParent().resolve(relative);
  }

  /** Every folder this group needs, one per hierarchy, the one holding its processes first. */
  private List<Path> dirs() {
    Set<Path> dirs = new LinkedHashSet<>();
    dirs.add(tasksDir());
    if (layout.cpu() == Mechanism.V1) {
      dirs.add(v1Dir("cpu"));
      try {
        dirs.add(v1Dir("cpuacct")); // where v1 counts the CPU time a limit allowed
      } catch (PreconditionFailed notMounted) {
        // cpu.stat of the cpu hierarchy still shows throttling
      }
    }
    if (layout.io() == Mechanism.V1) {
      dirs.add(v1Dir("blkio"));
    }
    if (layout.memory() == Mechanism.V1) {
      dirs.add(v1Dir("memory"));
    }
    return new ArrayList<>(dirs);
  }

  public Cgroup create() {
    if (layout.tasks() == Mechanism.V2) {
      layout.handDown(layout.v2Needed());
    }
    for (Path d : dirs()) {
      try {
        Files.createDirectories(d);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create cgroup " + d, e);
      }
    }
    if (layout.tasks() == Mechanism.V2) {
      handControllersDown();
    }
    if (layout.io() == Mechanism.V1) {
      inheritThrottles();
    }
    return this;
  }

  /**
   * v2 limits need their controllers enabled in every parent's {@code cgroup.subtree_control}; a
   * parent with processes cannot, so only faultbed's folder and each instance's hand them down,
   * to the node groups. Groups below a node (its load) share the node's limits.
   */
  private void handControllersDown() {
    Set<String> need = layout.v2Needed();
    if (need.isEmpty()) {
      return;
    }
    Path base = v2Root.resolve(PREFIX);
    Path instance = v2Root.resolve(relative);
    while (instance.getParent() != null && !instance.getParent().equals(base)) {
      instance = instance.getParent();
    }
    CgroupLayout.enable(base, need);
    if (!instance.equals(v2Root.resolve(relative))) {
      CgroupLayout.enable(instance, need);
    }
  }

  /** Files of blkio throttles, which cgroup v1 does not apply down the hierarchy. */
  static final List<String> THROTTLES = List.of("blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device");

  /** A new v1 group below a throttled one gets the same throttles, since v1 would not apply them. */
  private void inheritThrottles() {
    Path mine = v1Dir("blkio");
    Path parent = mine.getParent();
    Path base = layout.v1Base("blkio");
    if (!parent.startsWith(base) || parent.equals(base)) {
      return;
    }
    for (String f : THROTTLES) {
      for (String line : readLines(parent.resolve(f))) {
        if (!line.isBlank()) {
          write(mine.resolve(f), line.trim());
        }
      }
    }
  }

  /** This group and every group below it, deepest last. */
  public List<Cgroup> subtree() {
    List<Cgroup> all = new ArrayList<>();
    Path base = tasksDir();
    for (Path d : folders(base)) {
      all.add(new Cgroup(layout, relative + (d.equals(base) ? "" : "/" + base.relativize(d)), v2Root));
    }
    return all;
  }

  private static List<Path> folders(Path base) {
    if (!Files.isDirectory(base)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(base)) {
      return walk.filter(Files::isDirectory).toList();
    } catch (NoSuchFileException gone) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public boolean exists() {
    return Files.isDirectory(tasksDir());
  }

  /** The files a process writes its pid into to join this group in every hierarchy. */
  public List<Path> procsFiles() {
    if (layout.tasks() == Mechanism.SIGNALS) {
      return List.of(tasksDir().resolve(MEMBERS));
    }
    return dirs().stream().map(d -> d.resolve("cgroup.procs")).toList();
  }

  /** A shell command that makes the shell running it ({@code $$}) a member of this group. */
  public String joinCommand() {
    List<String> parts = new ArrayList<>();
    for (Path f : procsFiles()) {
      parts.add(layout.tasks() == Mechanism.SIGNALS
          // the start time tells this process from a later one that reuses its pid
          ? "echo $$ $(cut -d' ' -f22 /proc/$$/stat) >> " + quote(f)
          : "echo $$ > " + quote(f));
    }
    return String.join(" && ", parts);
  }

  /** Processes in this group or any group below it. */
  public Set<Long> pids() {
    if (layout.tasks() == Mechanism.SIGNALS) {
      return ProcessTrees.members(tasksDir(), MEMBERS);
    }
    return procsBelow(tasksDir());
  }

  private static Set<Long> procsBelow(Path base) {
    Set<Long> pids = new TreeSet<>();
    for (Path d : folders(base)) {
      for (String line : readLines(d.resolve("cgroup.procs"))) {
        if (!line.isBlank()) {
          pids.add(Long.parseLong(line.trim()));
        }
      }
    }
    return pids;
  }

  public void join(long pid) {
    if (layout.tasks() == Mechanism.SIGNALS) {
      ProcessTrees.record(tasksDir().resolve(MEMBERS), pid);
      return;
    }
    for (Path f : procsFiles()) {
      write(f, Long.toString(pid));
    }
  }

  public void freeze() {
    switch (layout.tasks()) {
      case V2 -> {
        write(tasksDir().resolve("cgroup.freeze"), "1");
        await(() -> events().contains("frozen 1"), "frozen", Duration.ofSeconds(5));
      }
      case V1 -> freezeV1(tasksDir().resolve("freezer.state"), Duration.ofSeconds(10));
      default -> {
        write(tasksDir().resolve(FROZEN_MARK), "");
        ProcessTrees.stopAll(tasksDir(), MEMBERS);
      }
    }
  }

  /**
   * The v1 freezer can stay FREEZING while processes keep forking into the group (a shell loop, a
   * JVM starting threads): as runc does, write FROZEN again until it sticks, and now and then thaw
   * for a moment so the new children settle and can be caught.
   */
  private void freezeV1(Path state, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int i = 0; System.nanoTime() < deadline; i++) {
      if (i % 50 == 49) {
        write(state, "THAWED");
        pause(10);
      }
      write(state, "FROZEN");
      if (readFirst(state).equals("FROZEN")) {
        return;
      }
      pause(i % 25 == 24 ? 10 : 1);
    }
    throw new IllegalStateException("cgroup " + relative + " did not become FROZEN in " + timeout
        + " (still " + readFirst(state) + ")");
  }

  public void thaw() {
    switch (layout.tasks()) {
      case V2 -> write(tasksDir().resolve("cgroup.freeze"), "0");
      case V1 -> write(tasksDir().resolve("freezer.state"), "THAWED");
      default -> {
        ProcessTrees.signal("CONT", pids());
        deleteQuietly(tasksDir().resolve(FROZEN_MARK));
      }
    }
  }

  public boolean isFrozen() {
    return switch (layout.tasks()) {
      case V2 -> events().contains("frozen 1");
      case V1 -> !readFirst(tasksDir().resolve("freezer.state")).equals("THAWED");
      default -> Files.exists(tasksDir().resolve(FROZEN_MARK));
    };
  }

  private List<String> events() {
    return readLines(tasksDir().resolve("cgroup.events")).stream().map(String::trim).toList();
  }

  /**
   * Kills every process of the group and waits until the group is empty.
   *
   * @return the pids that were killed
   */
  public Set<Long> killAll(Duration timeout) {
    if (!exists()) {
      return Set.of();
    }
    Set<Long> killed = new TreeSet<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    do {
      Set<Long> members = pids();
      if (members.isEmpty() && !populated()) {
        return killed;
      }
      killed.addAll(members);
      if (layout.tasks() == Mechanism.V2 && Files.exists(tasksDir().resolve("cgroup.kill"))) {
        write(tasksDir().resolve("cgroup.kill"), "1"); // the kernel kills the whole subtree, forks included
      } else if (layout.tasks() == Mechanism.SIGNALS) {
        killed.addAll(ProcessTrees.stopAll(tasksDir(), MEMBERS));
        ProcessTrees.signal("KILL", killed);
      } else {
        freeze();
        members.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        // a group below that was frozen on its own stays frozen when this one thaws: thaw them all
        subtree().forEach(Cgroup::thaw);
      }
      pause(20);
    } while (System.nanoTime() < deadline);
    Set<Long> left = pids();
    if (!left.isEmpty() || populated()) {
      throw new IllegalStateException("cgroup " + relative + " still holds " + left + " after " + timeout);
    }
    return killed;
  }

  /**
   * Whether any thread of the group is still alive. {@code cgroup.procs} drops a process once its
   * main thread has exited, while its other threads may still be exiting and holding its sockets
   * open (a JVM's listening port); the kernel's counts see every thread.
   */
  private boolean populated() {
    return switch (layout.tasks()) {
      case V2 -> !events().contains("populated 0") && Files.exists(tasksDir().resolve("cgroup.events"));
      case V1 -> folders(tasksDir()).stream().anyMatch(d -> readLines(d.resolve("tasks")).stream().anyMatch(l -> !l.isBlank()));
      default -> false;
    };
  }

  /** How {@link #killAll} kills, for the record: "cgroup.kill", "freezer+SIGKILL" or "SIGSTOP+SIGKILL". */
  public String killMechanism() {
    return switch (layout.tasks()) {
      case V2 -> Files.exists(tasksDir().resolve("cgroup.kill")) ? "cgroup.kill" : "cgroup.freeze+SIGKILL";
      case V1 -> "freezer+SIGKILL";
      default -> "SIGSTOP+SIGKILL";
    };
  }

  /**
   * Kills what is left and removes the group (deepest folders first) from every hierarchy it may
   * be in, whichever layout made it; a frozen group is thawed first.
   */
  public Set<Long> destroy() {
    // killAll answers an immutable empty set for a group gone from the tasks hierarchy, whose folders
    // may still be in the others (a heal after the JVM died half-way through removing it)
    Set<Long> killed = new java.util.TreeSet<>(killAll(Duration.ofSeconds(10)));
    for (Cgroup g : subtree()) {
      if (g.exists() && layout.tasks() != Mechanism.SIGNALS) {
        g.thaw();
      }
    }
    for (Path base : everyBase()) {
      Path d = base.getParent().resolve(relative);
      Set<Long> strays = base.startsWith(layout.signalsBase()) ? Set.of() : procsBelow(d);
      strays.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
      killed.addAll(strays);
      List<Path> deepestFirst = new ArrayList<>(folders(d));
      deepestFirst.sort(Comparator.reverseOrder());
      for (Path p : deepestFirst) {
        if (base.startsWith(layout.signalsBase())) {
          deleteFiles(p);
        }
        rmdir(p);
      }
      try {
        Files.deleteIfExists(base); // only succeeds when no group is left
      } catch (IOException stillInUse) {
        // other faultbed groups live there
      }
    }
    return killed;
  }

  /** Whether any hierarchy still has this group's folder (a crashed process's layout may have differed). */
  boolean existsAnywhere() {
    return everyBase().stream().anyMatch(b -> Files.isDirectory(b.getParent().resolve(relative)));
  }

  /** faultbed's folder in every hierarchy this host has, used now or by an earlier layout. */
  private List<Path> everyBase() {
    List<Path> bases = new ArrayList<>();
    if (v2Root != null) {
      bases.add(v2Root.resolve(PREFIX));
    }
    for (String c : List.of("freezer", "cpu", "cpuacct", "blkio", "memory")) {
      try {
        bases.add(layout.v1Base(c));
      } catch (PreconditionFailed notMounted) {
        // nothing of faultbed can be there
      }
    }
    bases.add(layout.signalsBase());
    return bases.stream().distinct().filter(Files::isDirectory).toList();
  }

  /** A group below this one, e.g. for load processes that share the node's limits. */
  public Cgroup child(String name) {
    return new Cgroup(layout, relative + "/" + name, v2Root);
  }

  /**
   * Limits the group to {@code cores} of CPU time per wall second (0.25 = a quarter of one core),
   * or lifts the limit when null: {@code cpu.max} on v2, the CFS quota on v1.
   */
  public void limitCpu(Double cores) {
    switch (layout.cpu()) {
      case V2 -> write(tasksDir().resolve("cpu.max"),
          cores == null ? "max 100000" : Math.max(1000, Math.round(cores * 100_000)) + " 100000");
      case V1 -> {
        Path d = v1Dir("cpu");
        long period = Long.parseLong(readFirst(d.resolve("cpu.cfs_period_us")));
        write(d.resolve("cpu.cfs_quota_us"), cores == null ? "-1" : Long.toString(Math.max(1000, Math.round(cores * period))));
      }
      default -> throw unavailable("cpu");
    }
  }

  /**
   * Gives this group the CPU weight of {@code threads} busy threads beside its parent's own
   * processes, so N spinners in a load group slow a node's tasks as N processes on a machine would.
   * On v1 a child group is one scheduling entity with one thread's weight (cpu.shares 1024) whatever
   * it holds; on v2 a node's load groups get no cpu controller of their own (the node holds
   * processes), so their threads already compete one by one in the node's group.
   */
  public void weighCpuAs(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads: expected 1 or more, got " + threads);
    }
    if (layout.cpu() == Mechanism.V1) {
      write(v1Dir("cpu").resolve("cpu.shares"), Long.toString(1024L * threads));
    }
  }

  /** The CPU limit in force, in cores, or null when there is none. */
  public Double cpuLimit() {
    return switch (layout.cpu()) {
      case V2 -> {
        String[] max = readFirst(tasksDir().resolve("cpu.max")).split(" ");
        yield max[0].equals("max") ? null : Double.parseDouble(max[0]) / Double.parseDouble(max[1]);
      }
      case V1 -> {
        long quota = Long.parseLong(readFirst(v1Dir("cpu").resolve("cpu.cfs_quota_us")));
        yield quota < 0 ? null : (double) quota / Long.parseLong(readFirst(v1Dir("cpu").resolve("cpu.cfs_period_us")));
      }
      default -> null;
    };
  }

  /**
   * The group's memory limit in bytes, or none when null ({@code memory.max} on v2,
   * {@code memory.limit_in_bytes} on v1). The kernel reclaims down to it and, where it cannot, kills
   * the group's largest process (v2); v1 refuses a limit below what it cannot reclaim, which is said.
   */
  public void limitMemory(Long bytes) {
    switch (layout.memory()) {
      case V2 -> write(tasksDir().resolve("memory.max"), bytes == null ? "max" : Long.toString(bytes));
      case V1 -> {
        Path f = v1Dir("memory").resolve("memory.limit_in_bytes");
        try {
          Files.writeString(f, bytes == null ? "-1" : Long.toString(bytes));
        } catch (IOException e) {
          throw new PreconditionFailed("memory limit of " + bytes + " bytes on " + relative + ": cgroup v1 could not"
              + " reclaim the group's " + memoryUsage() + " bytes down to it (" + e.getMessage() + "); expected a limit"
              + " above what the node holds and cannot give back, with a hog to press on it");
        }
      }
      default -> throw unavailable("memory");
    }
  }

  /** Bytes the group and its children use now ({@code memory.current} on v2, {@code memory.usage_in_bytes} on v1). */
  public long memoryUsage() {
    return switch (layout.memory()) {
      case V2 -> Long.parseLong(readFirst(tasksDir().resolve("memory.current")));
      case V1 -> Long.parseLong(readFirst(v1Dir("memory").resolve("memory.usage_in_bytes")));
      default -> throw unavailable("memory");
    };
  }

  /** How many times the kernel's OOM killer has killed a process of the group (its {@code oom_kill} count). */
  public long oomKills() {
    Path f = switch (layout.memory()) {
      case V2 -> tasksDir().resolve("memory.events");
      case V1 -> v1Dir("memory").resolve("memory.oom_control");
      default -> throw unavailable("memory");
    };
    for (String line : readLines(f)) {
      String[] w = line.trim().split("\\s+");
      if (w.length == 2 && w[0].equals("oom_kill")) {
        return Long.parseLong(w[1]);
      }
    }
    return 0;
  }

  /** CPU time the group's processes used, in microseconds ({@code cpu.stat} on v2, cpuacct on v1). */
  public long cpuUsageMicros() {
    if (layout.cpu() == Mechanism.V2 || layout.tasks() == Mechanism.V2) {
      for (String line : readLines(tasksDir().resolve("cpu.stat"))) {
        if (line.startsWith("usage_usec ")) {
          return Long.parseLong(line.substring(11).trim());
        }
      }
    }
    if (layout.cpu() == Mechanism.V1) {
      return Long.parseLong(readFirst(v1Dir("cpuacct").resolve("cpuacct.usage"))) / 1000;
    }
    throw unavailable("cpu");
  }

  /**
   * Throttles reads and writes of the group on one disk ({@code MAJ:MIN}) in bytes per second; null
   * lifts that throttle. {@code io.max} on v2 (hierarchical); on v1 the blkio throttle of every group
   * of the subtree, since v1 does not apply it below.
   */
  public void throttleIo(String device, Long readBytesPerSecond, Long writeBytesPerSecond) {
    switch (layout.io()) {
      case V2 -> write(tasksDir().resolve("io.max"), device
          + " rbps=" + (readBytesPerSecond == null ? "max" : readBytesPerSecond)
          + " wbps=" + (writeBytesPerSecond == null ? "max" : writeBytesPerSecond));
      case V1 -> {
        Path base = v1Dir("blkio");
        for (Path d : folders(base)) {
          write(d.resolve(THROTTLES.get(0)), device + " " + (readBytesPerSecond == null ? 0 : readBytesPerSecond));
          write(d.resolve(THROTTLES.get(1)), device + " " + (writeBytesPerSecond == null ? 0 : writeBytesPerSecond));
        }
      }
      default -> throw unavailable("io");
    }
  }

  /** Bytes the group read and wrote on one disk ({@code io.stat} on v2, blkio accounting on v1). */
  public long[] ioBytes(String device) {
    long[] rw = new long[2];
    if (layout.io() == Mechanism.V2) {
      for (String line : readLines(tasksDir().resolve("io.stat"))) {
        if (line.startsWith(device + " ")) {
          for (String kv : line.split(" ")) {
            if (kv.startsWith("rbytes=")) {
              rw[0] = Long.parseLong(kv.substring(7));
            } else if (kv.startsWith("wbytes=")) {
              rw[1] = Long.parseLong(kv.substring(7));
            }
          }
        }
      }
    } else if (layout.io() == Mechanism.V1) {
      for (String line : readLines(v1Dir("blkio").resolve("blkio.throttle.io_service_bytes_recursive"))) {
        String[] w = line.trim().split(" ");
        if (w.length == 3 && w[0].equals(device) && w[1].equals("Read")) {
          rw[0] += Long.parseLong(w[2]);
        } else if (w.length == 3 && w[0].equals(device) && w[1].equals("Write")) {
          rw[1] += Long.parseLong(w[2]);
        }
      }
    } else {
      throw unavailable("io");
    }
    return rw;
  }

  private PreconditionFailed unavailable(String what) {
    if (what.equals("memory")) {
      return new PreconditionFailed(layout.memoryProblem().orElse("no memory controller for faultbed's groups here"));
    }
    return new PreconditionFailed(layout.problems().stream().filter(p -> p.contains(what.equals("io") ? "I/O" : "CPU"))
        .findFirst().orElse("no " + what + " controller for faultbed's groups here"));
  }

  /** Starts {@code command} as a member of this group: the shell joins, then execs the command. */
  public Process spawn(List<String> command) throws IOException {
    List<String> argv = new ArrayList<>(List.of("sh", "-c", "{ " + joinCommand() + "; } || exit 97; exec \"$@\"",
        "faultbed-join"));
    argv.addAll(command);
    return new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
  }

  /** Groups faultbed made directly under {@code faultbed/} (one per harness instance), in any hierarchy. */
  public static List<String> instances() {
    Set<String> found = new TreeSet<>();
    for (Path base : of("x").everyBase()) {
      try (Stream<Path> s = Files.list(base)) {
        s.filter(Files::isDirectory).forEach(p -> found.add(p.getFileName().toString()));
      } catch (NoSuchFileException gone) {
        // removed meanwhile
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return List.copyOf(found);
  }

  private static void rmdir(Path p) {
    // cgroupfs directories are removed with rmdir; their control files cannot be deleted one by one.
    for (int i = 0; i < 50; i++) {
      try {
        Files.deleteIfExists(p);
        return;
      } catch (IOException e) {
        pause(20); // the kernel frees a group a moment after its last task exits
      }
    }
    throw new IllegalStateException("cannot remove cgroup " + p);
  }

  private static void deleteFiles(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      for (Path f : s.filter(Files::isRegularFile).toList()) {
        Files.deleteIfExists(f);
      }
    } catch (NoSuchFileException gone) {
      // removed meanwhile
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteQuietly(Path f) {
    try {
      Files.deleteIfExists(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void await(java.util.function.BooleanSupplier done, String state, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (done.getAsBoolean()) {
        return;
      }
      pause(5);
    }
    throw new IllegalStateException("cgroup " + relative + " did not become " + state + " in " + timeout);
  }

  private static String readFirst(Path f) {
    List<String> lines = readLines(f);
    return lines.isEmpty() ? "" : lines.get(0).trim();
  }

  /** A control or list file's lines; none when it is gone (a group or process that just ended). */
  static List<String> readLines(Path f) {
    try {
      return Files.readAllLines(f);
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void write(Path f, String value) {
    try {
      Files.writeString(f, value);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + value + " to " + f, e);
    }
  }

  private static String quote(Path p) {
    return "'" + p.toString().replace("'", "'\\''") + "'";
  }

  static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public String toString() {
    return relative;
  }
}
