package faultbed.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * One control group faultbed created, present under the same relative path in each cgroup v1
 * controller it uses. The freezer is what makes killing reliable: a frozen group cannot fork, so
 * "freeze, SIGKILL every member, thaw" leaves nothing behind.
 */
public final class Cgroup {
  /** Controllers a node's group joins: freezer to kill and freeze, cpu and blkio to slow it down. */
  public static final List<String> CONTROLLERS = List.of("freezer", "cpu", "blkio");
  /** Every group faultbed makes lives under this folder of each controller, so it never touches others. */
  public static final String PREFIX = "faultbed";

  private final Path root;
  private final String relative;

  private Cgroup(Path root, String relative) {
    this.root = root;
    this.relative = relative;
  }

  public static Path defaultRoot() {
    return Path.of(System.getProperty("faultbed.cgroup.root", "/sys/fs/cgroup"));
  }

  /** A handle on {@code faultbed/<relative>}; nothing is created until {@link #create()}. */
  public static Cgroup of(String relative) {
    return new Cgroup(defaultRoot(), PREFIX + "/" + relative);
  }

  static Cgroup ofFullPath(Path root, String fullRelative) {
    return new Cgroup(root, fullRelative);
  }

  public String path() {
    return relative;
  }

  public Path dir(String controller) {
    return root.resolve(controller).resolve(relative);
  }

  public Cgroup create() {
    for (String c : CONTROLLERS) {
      try {
        Files.createDirectories(dir(c));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create cgroup " + dir(c), e);
      }
    }
    inheritThrottles();
    return this;
  }

  /** Files of blkio throttles, which cgroup v1 does not apply down the hierarchy. */
  static final List<String> THROTTLES = List.of("blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device");

  /** A new group below a throttled one gets the same throttles, since v1 would not apply them. */
  private void inheritThrottles() {
    Path parent = dir("blkio").getParent();
    if (!parent.startsWith(root.resolve("blkio").resolve(PREFIX)) || parent.equals(root.resolve("blkio").resolve(PREFIX))) {
      return;
    }
    for (String f : THROTTLES) {
      for (String line : readLines(parent.resolve(f))) {
        if (!line.isBlank()) {
          write(dir("blkio").resolve(f), line.trim());
        }
      }
    }
  }

  /** This group and every group below it, deepest last. */
  public List<Cgroup> subtree() {
    return subtree("blkio");
  }

  private List<Cgroup> subtree(String controller) {
    List<Cgroup> all = new ArrayList<>();
    Path base = dir(controller);
    if (!Files.isDirectory(base)) {
      return all;
    }
    try (Stream<Path> walk = Files.walk(base)) {
      walk.filter(Files::isDirectory).forEach(d ->
          all.add(new Cgroup(root, relative + (d.equals(base) ? "" : "/" + base.relativize(d)))));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return all;
  }

  public boolean exists() {
    return Files.isDirectory(dir("freezer"));
  }

  /** The files a process writes its pid into to join this group in every controller. */
  public List<Path> procsFiles() {
    List<Path> files = new ArrayList<>();
    for (String c : CONTROLLERS) {
      files.add(dir(c).resolve("cgroup.procs"));
    }
    return files;
  }

  /** Processes in this group or any group below it (the freezer hierarchy is the reference). */
  public Set<Long> pids() {
    Set<Long> pids = new TreeSet<>();
    Path base = dir("freezer");
    if (!Files.isDirectory(base)) {
      return pids;
    }
    try (Stream<Path> files = Files.walk(base)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.getFileName().toString().equals("cgroup.procs"))::iterator) {
        for (String line : readLines(f)) {
          if (!line.isBlank()) {
            pids.add(Long.parseLong(line.trim()));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return pids;
  }

  public void join(long pid) {
    for (Path f : procsFiles()) {
      write(f, Long.toString(pid));
    }
  }

  public void freeze() {
    write(dir("freezer").resolve("freezer.state"), "FROZEN");
    waitForState("FROZEN", Duration.ofSeconds(5));
  }

  public void thaw() {
    write(dir("freezer").resolve("freezer.state"), "THAWED");
  }

  public boolean isFrozen() {
    return !readLines(dir("freezer").resolve("freezer.state")).get(0).trim().equals("THAWED");
  }

  /**
   * Kills every process of the group: freeze (no more forks), SIGKILL each member, thaw so the
   * signals are delivered, then wait until the group is empty.
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
      if (members.isEmpty()) {
        return killed;
      }
      freeze();
      for (long pid : members) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        killed.add(pid);
      }
      // a group below that was frozen on its own stays frozen when this one thaws: thaw them all
      for (Cgroup g : subtree("freezer")) {
        g.thaw();
      }
      pause(20);
    } while (System.nanoTime() < deadline);
    Set<Long> left = pids();
    if (!left.isEmpty()) {
      throw new IllegalStateException("cgroup " + relative + " still holds " + left + " after " + timeout);
    }
    return killed;
  }

  /** Kills what is left and removes the group (deepest folders first) from every controller. */
  public Set<Long> destroy() {
    Set<Long> killed = killAll(Duration.ofSeconds(10));
    for (String c : CONTROLLERS) {
      Path d = dir(c);
      if (!Files.isDirectory(d)) {
        continue;
      }
      try (Stream<Path> walk = Files.walk(d)) {
        for (Path p : walk.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).toList()) {
          rmdir(p);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      try {
        Files.deleteIfExists(root.resolve(c).resolve(PREFIX)); // only succeeds when no group is left
      } catch (IOException stillInUse) {
        // other faultbed groups live there
      }
    }
    return killed;
  }

  /** A group below this one, e.g. for load processes that share the node's limits. */
  public Cgroup child(String name) {
    return new Cgroup(root, relative + "/" + name);
  }

  /** Writes a control file of one controller, e.g. ("cpu", "cpu.cfs_quota_us", "25000"). */
  public void set(String controller, String file, String value) {
    write(dir(controller).resolve(file), value);
  }

  /** Reads a control file of one controller. */
  public String get(String controller, String file) {
    return String.join("\n", readLines(dir(controller).resolve(file))).trim();
  }

  /** Starts {@code command} as a member of this group: the shell joins, then execs the command. */
  public Process spawn(List<String> command) throws IOException {
    StringBuilder join = new StringBuilder();
    for (Path f : procsFiles()) {
      join.append("echo $$ > '").append(f).append("' || exit 97; ");
    }
    List<String> argv = new ArrayList<>(List.of("sh", "-c", join + "exec \"$@\"", "faultbed-join"));
    argv.addAll(command);
    return new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
  }

  /** Groups faultbed made directly under {@code faultbed/} (one per harness instance). */
  public static List<String> instances() {
    Path base = defaultRoot().resolve("freezer").resolve(PREFIX);
    if (!Files.isDirectory(base)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(base)) {
      return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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

  private void waitForState(String state, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Path f = dir("freezer").resolve("freezer.state");
    while (System.nanoTime() < deadline) {
      if (readLines(f).get(0).trim().equals(state)) {
        return;
      }
      pause(5);
    }
    throw new IllegalStateException("cgroup " + relative + " did not reach " + state + " in " + timeout);
  }

  private static List<String> readLines(Path f) {
    try {
      return Files.readAllLines(f);
    } catch (NoSuchFileException e) {
      return List.of("");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path f, String value) {
    try {
      Files.writeString(f, value);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + value + " to " + f, e);
    }
  }

  private static void pause(long ms) {
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
