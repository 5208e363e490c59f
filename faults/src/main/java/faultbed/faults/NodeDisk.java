package faultbed.faults;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A disk of a node's own: an ext4 filesystem in a sparse image file, on a loop device, mounted where
 * the node keeps its local dirs, logs and DataNode blocks. It fills up and fails alone, as one
 * machine's disk does, while the machine's own disk stays untouched:
 * <ul>
 *   <li>full: a file allocated (fallocate, no byte written) over all but {@code free} bytes of it;
 *   every write past that gets ENOSPC, and Hadoop's disk checkers see the utilisation;</li>
 *   <li>failed: the filesystem shut down (ext4's {@code EXT4_IOC_SHUTDOWN}, without flushing its log,
 *   as a disk that stopped answering): every read, write and open on it returns EIO. The heal is a
 *   replaced disk: the dead mount detached (processes holding files on it keep getting EIO), the
 *   image checked ({@code e2fsck}) and mounted again on a new loop device, with what the log had
 *   committed. The old loop device goes when its last user does.</li>
 * </ul>
 * The disk sits on a shared bind mount of its own mount point, so a node process in a mount
 * namespace of its own (a slave copy, as {@code ip netns exec} makes) sees it mounted again.
 * The ledger keeps the mount (healed by lazy unmounts), the fill (deleted) and the failure (the
 * disk mounted again), so a harness killed mid-fault leaves nothing behind.
 */
public final class NodeDisk {
  /** Ledger kind of a mounted node disk: healed by unmounting it. */
  public static final String KIND = "node-disk";
  /** Ledger kind of a disk's fill file: healed by deleting it. */
  public static final String FILL_KIND = "disk-fill";
  /** Ledger kind of a failed (shut down) disk: healed by mounting its image again. */
  public static final String FAILED_KIND = "disk-failure";
  /** Ledger kind of a slowed disk: healed by lifting its throttles and its cap on dirty pages. */
  public static final String SLOW_KIND = "disk-slow";
  /** Name of the file that fills a disk: one per fault, under the disk's top. */
  static final String FILL_PREFIX = ".faultbed-fill-";
  /** ext4's EXT4_IOC_SHUTDOWN (_IOR('X', 125, __u32)) and its flag that skips the log flush. */
  private static final String SHUTDOWN = "open(F, '<', $ARGV[0]) or die \"open: $!\\n\";"
      + " my $flag = pack('L', 2); ioctl(F, 0x8004587D, $flag) or die \"shutdown: $!\\n\";";

  private final Ledger ledger;
  private final Path image;
  private final Path mount;

  private NodeDisk(Ledger ledger, Path image, Path mount) {
    this.ledger = ledger;
    this.image = image;
    this.mount = mount;
  }

  /** Why this machine cannot give a node a disk of its own, one line each; empty when it can. */
  public static List<String> problems() {
    List<String> p = new ArrayList<>();
    if (!Capability.isRoot()) {
      p.add("a disk of a node's own needs root (loop devices, mount): run as root, e.g. with sudo");
      return p;
    }
    for (String tool : List.of("losetup", "mkfs.ext4", "e2fsck", "fallocate", "perl", "mount", "umount")) {
      if (!Shell.exists(tool)) {
        p.add("no " + tool + " here: install " + (tool.startsWith("mkfs") || tool.equals("e2fsck") ? "e2fsprogs"
            : tool.equals("perl") ? "perl" : "util-linux") + " for disks of a node's own");
      }
    }
    if (!Files.exists(Path.of("/dev/loop-control"))) {
      p.add("no /dev/loop-control: the kernel offers no loop devices (load the loop module: modprobe loop)");
    }
    return p;
  }

  /**
   * Makes a sparse image of {@code sizeBytes} at {@code image}, an ext4 filesystem in it with no
   * blocks reserved for root (so full means full to Hadoop, which runs as root here), and mounts it
   * at {@code mount} (created).
   */
  public static NodeDisk make(Ledger ledger, Path image, Path mount, long sizeBytes) {
    if (sizeBytes < 64L << 20) {
      throw new IllegalArgumentException("a node's disk must hold at least 64MB, got " + sizeBytes + " bytes");
    }
    NodeDisk disk = new NodeDisk(ledger, image, mount);
    ledger.making(new LedgerEntry(KIND, mount.toAbsolutePath().toString(), "cluster",
        Map.of("image", image.toAbsolutePath().toString())), () -> {
          try {
            Files.createDirectories(mount);
            try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
              f.setLength(sizeBytes);
            }
          } catch (IOException e) {
            throw new UncheckedIOException("cannot make the disk image " + image, e);
          }
          // lazy_itable_init=0: no kernel thread zeroing inode tables behind a test's back
          Shell.check(List.of("mkfs.ext4", "-q", "-F", "-m", "0", "-E", "lazy_itable_init=0,nodiscard",
              image.toString()));
          // a node process may live in a mount namespace of its own (ip netns exec makes one, a slave
          // copy of this one): a shared mount point below the disk carries the disk mounted again
          // after a failure into it, where this host's mounts may be private and would not
          Shell.check(List.of("mount", "--bind", mount.toString(), mount.toString()));
          Shell.check(List.of("mount", "--make-shared", mount.toString()));
          attach(image, mount);
          return null;
        });
    return disk;
  }

  /** Where the disk is mounted. */
  public Path mount() {
    return mount;
  }

  /** Bytes a write may still take on the disk. */
  public long free() {
    try {
      return Files.getFileStore(mount).getUsableSpace();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the free space of " + mount, e);
    }
  }

  /**
   * Fills the disk until {@code freeBytes} are left (none if it already has fewer), healed by
   * deleting the fill. Returns the fill and how many bytes it took.
   */
  public Filled fill(String runId, long freeBytes) {
    Path file = mount.resolve(FILL_PREFIX + runId.replaceAll("[^A-Za-z0-9_.-]", "_"));
    LedgerEntry entry = new LedgerEntry(FILL_KIND, file.toString(), runId, Map.of());
    long taken = ledger.making(entry, () -> {
      // the filesystem's own extent blocks come out of the same free space, so a request for all of
      // it fails: ask for less and less until what is left is what was asked to be left
      // (a request that fails may still have taken part of it: the bytes taken are what went)
      long before = free();
      long size = 0;
      long ask = before - freeBytes;
      while (ask >= 4096) {
        Shell.Result r = Shell.run(List.of("fallocate", "-o", Long.toString(size), "-l", Long.toString(ask),
            file.toString()));
        if (r.ok()) {
          size += ask;
          ask = free() - freeBytes;
          continue;
        }
        size = Files.exists(file) ? fileSize(file) : 0;
        if (r.out().contains("No space left")) {
          ask = Math.min(ask / 2, free() - freeBytes);
        } else {
          throw new IllegalStateException("fallocate " + file + " failed (" + r.code() + "): " + r.out());
        }
      }
      return before - free();
    });
    return new Filled(taken, () -> ledger.heal(entry));
  }

  private static long fileSize(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the size of " + file, e);
    }
  }

  /** A fill: the bytes it took, and its heal. */
  public record Filled(long bytes, Installed installed) {}

  /** Shuts the disk's filesystem down: every I/O on it returns EIO until the heal mounts it again. */
  public Installed fail(String runId) {
    LedgerEntry entry = new LedgerEntry(FAILED_KIND, mount.toAbsolutePath().toString(), runId,
        Map.of("image", image.toAbsolutePath().toString()));
    ledger.making(entry, () -> Shell.check(List.of("perl", "-e", SHUTDOWN, mount.toString())));
    return () -> ledger.heal(entry);
  }

  /**
   * Makes the disk limp at {@code bytesPerSecond}, for every reader and writer alike, until healed:
   * <ul>
   *   <li>its device throttled in the root group of cgroup v1's blkio hierarchy, which holds the
   *   kernel's writeback threads too, so the page cache's writes to it go at that rate (a throttle on
   *   the node's own group would hold its direct and read I/O only);</li>
   *   <li>its dirty pages capped at one second of that rate ({@code strict_limit} and {@code max_bytes}
   *   of its backing device info), so a writer waits for the disk, as on a machine with no memory to
   *   spare, rather than writing into memory at full speed;</li>
   *   <li>the pages of its files dropped from the page cache (clean ones; dd's {@code nocache}), so
   *   what was read or written before the fault is read from the slow disk again.</li>
   * </ul>
   * The loop device is the node's alone, so nothing else on the machine slows.
   */
  public Slowed slow(String runId, long bytesPerSecond) {
    if (bytesPerSecond < 1) {
      throw new IllegalArgumentException("a slow disk's rate must be 1 byte a second or more, got " + bytesPerSecond);
    }
    String device = device();
    Path bdi = Path.of("/sys/class/bdi", device);
    Map<String, String> detail = new java.util.LinkedHashMap<>();
    detail.put("device", device);
    detail.put("strictLimit", readLine(bdi.resolve("strict_limit")));
    detail.put("maxRatio", readLine(bdi.resolve("max_ratio")));
    LedgerEntry entry = new LedgerEntry(SLOW_KIND, mount.toAbsolutePath().toString(), runId, Map.copyOf(detail));
    int[] evicted = new int[1];
    ledger.making(entry, () -> {
      Path root = blkioRoot();
      for (String file : THROTTLE_FILES) {
        Cgroup.write(root.resolve(file), device + " " + bytesPerSecond);
      }
      Cgroup.write(bdi.resolve("strict_limit"), "1");
      Cgroup.write(bdi.resolve("max_bytes"), Long.toString(Math.max(bytesPerSecond, 256L << 10)));
      evicted[0] = evictCache();
      return null;
    });
    return new Slowed(device, evicted[0], () -> ledger.heal(entry));
  }

  /** A slowed disk: its device (major:minor), the files whose pages were dropped, and its heal. */
  public record Slowed(String device, int filesEvicted, Installed installed) {}

  /** The v1 blkio throttle files of a root group, read and write. */
  static final List<String> THROTTLE_FILES = List.of("blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device");

  /** Why this machine cannot make a disk of a node's own limp, one line each; empty when it can. */
  public static List<String> slowProblems() {
    List<String> p = new ArrayList<>(problems());
    if (!p.isEmpty()) {
      return p;
    }
    java.util.Optional<Path> root = CgroupLayout.current().v1Root("blkio");
    if (root.isEmpty()) {
      p.add("a slow disk throttles its device in cgroup v1's root blkio group, where the kernel's writeback runs:"
          + " this host mounts no v1 blkio hierarchy (cgroup v2 alone gives no throttle for every writer)");
    } else if (!Files.isWritable(root.get().resolve(THROTTLE_FILES.get(1)))) {
      p.add("a slow disk throttles its device in cgroup v1's root blkio group, and "
          + root.get().resolve(THROTTLE_FILES.get(1)) + " is not writable here: run as root on the host");
    }
    if (!Shell.exists("dd") || !Shell.exists("find")) {
      p.add("no dd or find here: install coreutils and findutils to drop a slow disk's pages from the cache");
    }
    return p;
  }

  private static Path blkioRoot() {
    return CgroupLayout.current().v1Root("blkio").orElseThrow(() -> new PreconditionFailed(slowProblems().get(0)));
  }

  /** The major:minor of the device mounted at the disk's mount point (the top-most mount there). */
  String device() {
    String at = mount.toAbsolutePath().toString();
    String device = null;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
        String[] f = line.split(" ");
        if (f.length > 4 && f[4].replace("\\040", " ").equals(at)) {
          device = f[2];
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read /proc/self/mountinfo", e);
    }
    if (device == null) {
      throw new IllegalStateException("the node disk " + at + " is not mounted");
    }
    return device;
  }

  /** Drops the clean pages of every file on the disk from the page cache; returns how many files. */
  private int evictCache() {
    String script = "n=0; for f in \"$@\"; do dd if=\"$f\" iflag=nocache count=0 status=none 2>/dev/null && n=$((n+1)); done;"
        + " echo $n";
    List<String> files;
    try (Stream<Path> all = Files.walk(mount)) {
      files = all.filter(Files::isRegularFile).map(Path::toString).toList();
    } catch (IOException | UncheckedIOException e) {
      return 0; // files come and go under a running node: what could be listed was
    }
    int evicted = 0;
    for (int from = 0; from < files.size(); from += 500) {
      List<String> command = new ArrayList<>(List.of("sh", "-c", script, "sh"));
      command.addAll(files.subList(from, Math.min(files.size(), from + 500)));
      String out = Shell.check(command).strip();
      evicted += out.isEmpty() ? 0 : Integer.parseInt(out.substring(out.lastIndexOf('\n') + 1).strip());
    }
    return evicted;
  }

  private static String readLine(Path file) {
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /**
   * Whether making a file at the disk's top fails with an I/O error: the disk is failed. (A listing
   * does not tell: a shut-down ext4 still lists what its cache holds.)
   */
  public boolean failed() {
    try {
      Files.delete(Files.createTempFile(mount, ".faultbed-probe", ""));
      return false;
    } catch (IOException e) {
      return String.valueOf(e.getMessage()).contains("Input/output error");
    }
  }

  /** Mounts {@code image} at {@code mount} on a loop device of its own, which goes when it is unmounted. */
  private static void attach(Path image, Path mount) {
    String device = Shell.check(List.of("losetup", "--find", "--show", image.toString())).strip();
    Shell.Result mounted = Shell.run(List.of("mount", "-t", "ext4", device, mount.toString()));
    // detaching a mounted loop device only marks it to go with its last user: the unmount
    Shell.run(List.of("losetup", "-d", device));
    if (!mounted.ok()) {
      throw new IllegalStateException("mount " + device + " (" + image + ") on " + mount + " failed ("
          + mounted.code() + "): " + mounted.out());
    }
  }

  /** Whether something is mounted exactly at {@code mount}. */
  static boolean mounted(Path mount) {
    String at = mount.toAbsolutePath().toString();
    return mountPoints().contains(at);
  }

  private static List<String> mountPoints() {
    try {
      List<String> points = new ArrayList<>();
      for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
        String[] f = line.split(" ");
        if (f.length > 4) {
          points.add(f[4].replace("\\040", " "));
        }
      }
      return points;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read /proc/self/mountinfo", e);
    }
  }

  /**
   * A node disk's mount point: a disk-N folder under a harness's folder (named by its ledger's owner,
   * h&lt;pid&gt;-&lt;stamp&gt;) in faultbed's work root; group 1 is the owner. Nothing else is ever taken for one.
   */
  private static final java.util.regex.Pattern OURS =
      java.util.regex.Pattern.compile("/faultbed(?:-[^/]+)?/(h[0-9]+-[0-9a-z]+)/(?:[^/]+/)*disk-[0-9]+$");

  /** Unmounts a node's disk: lazily, since the node's processes may still hold files on it. */
  static final class MountHealer implements Healer {
    @Override
    public String kind() {
      return KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      Path mount = Path.of(entry.id());
      int unmounted = 0;
      while (mounted(mount)) { // the disk, any dead one below it, and the shared mount point under them
        Shell.check(List.of("umount", "-l", mount.toString()));
        unmounted++;
      }
      try {
        Files.deleteIfExists(Path.of(entry.detail().get("image")));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot delete the disk image " + entry.detail().get("image"), e);
      }
      return unmounted == 0 ? null : "unmounted the node disk " + mount;
    }

    @Override
    public List<Found> findAll() {
      List<Found> found = new ArrayList<>();
      for (String point : mountPoints().stream().distinct().toList()) { // a disk is mounted over its mount point
        java.util.regex.Matcher m = OURS.matcher(point);
        if (m.find()) {
          found.add(new Found(new LedgerEntry(KIND, point, "unknown", Map.of("image", point + ".img")), m.group(1)));
        }
      }
      return found;
    }
  }

  /**
   * Lifts a slow disk's throttles and gives its device back its dirty-page share. The throttles are
   * keyed by device number, which outlives the mount (a loop device is reused), so they are lifted
   * whether or not the disk is still there.
   */
  static final class SlowHealer implements Healer {
    @Override
    public String kind() {
      return SLOW_KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      String device = entry.detail().get("device");
      boolean lifted = false;
      java.util.Optional<Path> root = CgroupLayout.current().v1Root("blkio");
      if (root.isPresent()) {
        for (String file : THROTTLE_FILES) {
          Path f = root.get().resolve(file);
          if (throttled(f, device)) {
            Cgroup.write(f, device + " 0");
            lifted = true;
          }
        }
      }
      Path bdi = Path.of("/sys/class/bdi", device);
      if (Files.isDirectory(bdi)) {
        Cgroup.write(bdi.resolve("max_ratio"), entry.detail().getOrDefault("maxRatio", "100"));
        Cgroup.write(bdi.resolve("strict_limit"), entry.detail().getOrDefault("strictLimit", "0"));
      }
      return lifted ? "lifted the throttles of the slow disk " + entry.id() + " (" + device + ")" : null;
    }

    /** Root throttles on loop devices whose image is a node disk's: what a harness that died left. */
    @Override
    public List<Found> findAll() {
      java.util.Optional<Path> root = CgroupLayout.current().v1Root("blkio");
      if (root.isEmpty()) {
        return List.of();
      }
      List<Found> found = new ArrayList<>();
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (String file : THROTTLE_FILES) {
        for (String line : linesOf(root.get().resolve(file))) {
          String device = line.split(" ")[0];
          Path backing = Path.of("/sys/dev/block", device, "loop", "backing_file");
          if (!seen.add(device) || !Files.exists(backing)) {
            continue;
          }
          String image = readLine(backing);
          java.util.regex.Matcher m = OURS.matcher(image.replaceFirst("\\.img$", ""));
          if (m.find()) {
            found.add(new Found(new LedgerEntry(SLOW_KIND, image.replaceFirst("\\.img$", ""), "unknown",
                Map.of("device", device)), m.group(1)));
          }
        }
      }
      return found;
    }

    private static boolean throttled(Path file, String device) {
      return linesOf(file).stream().anyMatch(l -> l.startsWith(device + " "));
    }

    private static List<String> linesOf(Path file) {
      try {
        return Files.readAllLines(file).stream().filter(l -> !l.isBlank()).toList();
      } catch (IOException e) {
        return List.of();
      }
    }
  }

  /** Deletes a fill; on a failed disk it goes with the failure's heal, which mounts the disk again. */
  static final class FillHealer implements Healer {
    @Override
    public String kind() {
      return FILL_KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      try {
        return Files.deleteIfExists(Path.of(entry.id())) ? "deleted the disk fill " + entry.id() : null;
      } catch (IOException e) {
        return null; // the disk failed meanwhile (EIO) or is gone: its failure's heal removes fills
      }
    }
  }

  /** Mounts a failed disk's image again, checked, over its dead mount, and removes fills left on it. */
  static final class FailureHealer implements Healer {
    @Override
    public String kind() {
      return FAILED_KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      Path mount = Path.of(entry.id());
      Path image = Path.of(entry.detail().get("image"));
      if (!mounted(mount) || !Files.exists(image)) {
        return null; // the node's disk is gone already
      }
      NodeDisk disk = new NodeDisk(null, image, mount);
      if (!disk.failed()) {
        return null;
      }
      Shell.check(List.of("umount", "-l", mount.toString()));
      // 0: clean, 1: errors corrected; the shut-down log is replayed here
      Shell.Result fsck = Shell.run(List.of("e2fsck", "-f", "-y", image.toString()));
      if (fsck.code() > 1) {
        throw new IllegalStateException("e2fsck " + image + " failed (" + fsck.code() + "): " + fsck.out());
      }
      attach(image, mount);
      try (Stream<Path> top = Files.list(mount)) {
        for (Path p : top.filter(p -> p.getFileName().toString().startsWith(FILL_PREFIX)).toList()) {
          Files.deleteIfExists(p);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot clear fills from " + mount, e);
      }
      return "mounted the failed disk " + mount + " again";
    }
  }
}
