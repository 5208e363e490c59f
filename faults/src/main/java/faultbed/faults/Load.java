package faultbed.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Background load on a node, as LATE's stragglers had (seed 000, section 5.2.2): dd writers in a
 * loop and CPU spinners. Each set runs in its own group below the node's cgroup, so it competes
 * under the node's limits and a crash or a sweep of the node ends it too; the group weighs as many
 * threads as it runs, so more spinners or writers take more of the node from its tasks.
 */
public final class Load {
  private static final AtomicInteger SEQ = new AtomicInteger();
  /** One CPU spinner, an awk program: the seed's loops "modifying values in 800 KB arrays". */
  public static final String SPINNER = "BEGIN { n = 100000; for (;;) for (i = 0; i < n; i++) a[i] = a[i] + 1 }";

  /**
   * One pass of a dd writer, as a shell line: a file of {@code fileBytes} written in
   * {@code blockBytes} writes to {@code file} (a shell word, quoted as the caller needs), synced or
   * direct, then removed.
   */
  public static String ddPass(String file, long blockBytes, long fileBytes, boolean direct) {
    return "dd if=/dev/zero of=" + file + " bs=" + blockBytes + " count=" + (fileBytes / blockBytes)
        + (direct ? " oflag=direct" : " conv=fsync") + " 2>/dev/null; rm -f " + file;
  }

  private Load() {}

  /**
   * {@code count} loops of {@code dd if=/dev/zero of=<dir>/... bs=<blockBytes> count=<fileBytes/blockBytes>}
   * (with {@code oflag=direct} when asked), spread over {@code dirs}; each file is removed and written again.
   */
  public static Installed diskWriters(Ledger ledger, String runId, Cgroup node, List<Path> dirs, int count,
      long blockBytes, long fileBytes, boolean direct) {
    if (count < 1 || blockBytes < 1 || fileBytes < blockBytes || dirs.isEmpty()) {
      throw new IllegalArgumentException("disk load: expected count >= 1, block >= 1 byte, file >= block, a dir");
    }
    Cgroup group = node.child("dd-" + SEQ.incrementAndGet()).create();
    group.weighCpuAs(count);
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Path file = dirs.get(i % dirs.size()).resolve("faultbed-dd-" + runId + "-" + group.path().hashCode() + "-" + i);
      files.add(file);
      ledger.record(DirectoryHealer.entry(file, runId));
      start(group, List.of("sh", "-c", "while :; do " + ddPass("'" + file + "'", blockBytes, fileBytes, direct)
          + "; done"));
    }
    awaitMembers(group, count);
    Installed deleteFiles = () -> files.forEach(Load::delete);
    Installed stopWriters = group::destroy;
    return Installed.all(List.of(deleteFiles, stopWriters)); // healed last to first: writers stop, then files go
  }

  /**
   * One piece of a memory hog, a perl program: it asks the kernel's OOM killer to spare it
   * (oom_score_adj -1000, which needs CAP_SYS_RESOURCE and is skipped without it), then holds its
   * first argument's worth of bytes, every page written, and sleeps. The bytes come from extending a
   * string, which allocates them once.
   */
  public static final String MEMORY_HOG = "if (open(my $f, '>', '/proc/self/oom_score_adj')) { print $f '-1000'; close $f }"
      + " my $x = ''; vec($x, $ARGV[0] - 1, 8) = 1; sleep";

  /**
   * The most one hog process holds: smaller than any JVM of a node, so the OOM killer, which takes
   * the largest process, takes the node's own before a piece of the hog even where none may ask to be
   * spared.
   */
  public static final long HOG_PIECE = 32L << 20;

  /**
   * Processes holding {@code bytes} resident in the node's group (a group of its own below it), in
   * pieces of at most {@link #HOG_PIECE}: the node's own processes take the pressure. Waits until the
   * bytes are held (bounded).
   */
  public static Installed memoryHog(Cgroup node, long bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("memory hog: expected at least 1 byte, got " + bytes);
    }
    Cgroup group = node.child("mem-" + SEQ.incrementAndGet()).create();
    for (long left = bytes; left > 0; left -= HOG_PIECE) {
      start(group, List.of("perl", "-e", MEMORY_HOG, Long.toString(Math.min(left, HOG_PIECE))));
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (resident(group) < bytes) {
      if (System.nanoTime() > deadline) {
        long held = resident(group);
        group.destroy();
        throw new IllegalStateException("the memory hog in " + group + " held " + held + " of its " + bytes
            + " bytes after 30 s");
      }
      java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
    }
    return group::destroy;
  }

  /**
   * Anonymous bytes the group's processes hold resident (RssAnon), from /proc: what the group is
   * charged for them. VmRSS would also count the interpreter's shared pages, which whoever read them
   * first was charged for, and call a hog ready megabytes short.
   */
  private static long resident(Cgroup group) {
    long total = 0;
    for (long pid : group.pids()) {
      try {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
          if (line.startsWith("RssAnon:")) {
            total += Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
          }
        }
      } catch (IOException gone) {
        // ended meanwhile
      }
    }
    return total;
  }

  /**
   * {@code count} CPU spinners: tight loops over a 100 000-element array, like the seed's loops
   * "modifying values in 800 KB arrays".
   */
  public static Installed cpuSpinners(Cgroup node, int count) {
    if (count < 1) {
      throw new IllegalArgumentException("cpu hog: expected count >= 1, got " + count);
    }
    Cgroup group = node.child("hog-" + SEQ.incrementAndGet()).create();
    group.weighCpuAs(count);
    for (int i = 0; i < count; i++) {
      start(group, List.of("awk", SPINNER));
    }
    awaitMembers(group, count);
    return group::destroy;
  }

  private static void start(Cgroup group, List<String> command) {
    try {
      group.spawn(command);
    } catch (IOException e) {
      group.destroy();
      throw new UncheckedIOException("cannot start " + command.get(0), e);
    }
  }

  /** Waits until the processes have joined, so the load is on when the fault counts as injected. */
  private static void awaitMembers(Cgroup group, int count) {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (group.pids().size() < count) {
      if (System.nanoTime() > deadline) {
        group.destroy();
        throw new IllegalStateException("load processes did not start in " + group);
      }
      Thread.onSpinWait();
    }
  }

  private static void delete(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
