package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A disk of a node's own, filled and failed as a real one: ENOSPC and EIO from the kernel, healed back. */
class NodeDiskTest {
  private Ledger ledger;
  private Path dir;
  private NodeDisk disk;

  @BeforeEach
  void disk() throws IOException {
    assumeTrue(NodeDisk.problems().isEmpty(), () -> String.join("; ", NodeDisk.problems()));
    ledger = Ledger.open();
    dir = Path.of("/var/tmp/faultbed", ledger.owner());
    Files.createDirectories(dir);
    ledger.record(DirectoryHealer.entry(dir, "test"));
    disk = NodeDisk.make(ledger, dir.resolve("disk-0.img"), dir.resolve("disk-0"), 128L << 20);
  }

  @AfterEach
  void heal() {
    if (ledger != null) {
      ledger.close();
      assertFalse(Files.exists(dir), "the disk's folder is left");
      assertFalse(NodeDisk.mounted(dir.resolve("disk-0")), "the disk is still mounted");
    }
  }

  private static void write(Path file, int bytes) throws IOException {
    try (FileOutputStream out = new FileOutputStream(file.toFile())) {
      out.write(new byte[bytes]);
      out.getFD().sync();
    }
  }

  @Test
  void aFullDiskRefusesWritesUntilItsFillIsHealed() throws Exception {
    assertTrue(disk.free() > 100L << 20, "a fresh 128MB disk has " + disk.free() + " bytes free");
    NodeDisk.Filled fill = disk.fill("run-1", 0);
    assertTrue(fill.bytes() > 100L << 20, "the fill took " + fill.bytes());
    assertEquals(0, disk.free());
    IOException full = assertThrows(IOException.class, () -> write(disk.mount().resolve("spill"), 1 << 20));
    assertTrue(full.getMessage().contains("No space left on device"), full.getMessage());
    fill.installed().heal();
    fill.installed().heal(); // idempotent
    write(disk.mount().resolve("spill"), 1 << 20);
    assertTrue(disk.free() > 100L << 20, "healed disk has " + disk.free() + " bytes free");
  }

  @Test
  void aFillLeavesWhatItWasAskedToLeave() throws Exception {
    disk.fill("run-1", 8L << 20);
    long free = disk.free();
    // the fill's own extent blocks may take a few of the bytes asked to be left
    assertTrue(free > (8L << 20) - (64 << 10) && free <= 8L << 20, "left " + free + " bytes");
  }

  @Test
  void aFailedDiskAnswersEveryIoWithAnErrorUntilItIsMountedAgain() throws Exception {
    Path kept = disk.mount().resolve("kept");
    Files.writeString(kept, "before");
    try (FileOutputStream sync = new FileOutputStream(kept.toFile(), true)) {
      sync.getFD().sync();
    }
    Installed failure = disk.fail("run-1");
    assertTrue(disk.failed());
    IOException read = assertThrows(IOException.class, () -> Files.readString(kept));
    assertTrue(read.getMessage() == null || read.getMessage().contains("Input/output error")
        || read instanceof java.nio.file.FileSystemException, read.toString());
    assertThrows(IOException.class, () -> write(disk.mount().resolve("new"), 10));
    failure.heal();
    assertFalse(disk.failed());
    assertEquals("before", Files.readString(kept, StandardCharsets.UTF_8), "what was synced before the failure");
    write(disk.mount().resolve("new"), 10);
    failure.heal(); // idempotent
  }

  /**
   * A process in a mount namespace of its own, a slave copy made before the failure (as a node
   * process started by ip netns exec is), writes to the disk mounted again after the heal.
   */
  @Test
  void aProcessInItsOwnMountNamespaceSeesTheDiskMountedAgain() throws Exception {
    assumeTrue(Shell.exists("unshare"), "no unshare here");
    Path go = dir.resolve("go");
    Path written = disk.mount().resolve("from-namespace");
    Process inside = new ProcessBuilder("unshare", "-m", "--propagation", "slave", "sh", "-c",
        "while [ ! -e " + go + " ]; do sleep 0.1; done; echo ok > " + written).start();
    try {
      Installed failure = disk.fail("run-1");
      failure.heal();
      Files.writeString(go, "");
      assertTrue(inside.waitFor(20, java.util.concurrent.TimeUnit.SECONDS), "the process ended");
      assertEquals(0, inside.exitValue(), new String(inside.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
      assertEquals("ok\n", Files.readString(written), "what it wrote is on the disk this host sees");
    } finally {
      inside.destroyForcibly();
    }
  }

  @Test
  void aFailedDiskThatWasFullComesBackEmptyOfItsFill() throws Exception {
    disk.fill("run-1", 0);
    Installed failure = disk.fail("run-1");
    failure.heal();
    assertTrue(disk.free() > 100L << 20, "after the heal " + disk.free() + " bytes free");
  }

  @Test
  void aSlowDiskHoldsBufferedWritesAndColdReadsToItsRateUntilHealed() throws Exception {
    assumeTrue(NodeDisk.slowProblems().isEmpty(), () -> String.join("; ", NodeDisk.slowProblems()));
    Path old = disk.mount().resolve("old");
    write(old, 2 << 20);
    String device = disk.device();
    Path bdi = Path.of("/sys/class/bdi", device);
    String strict = Files.readString(bdi.resolve("strict_limit")).strip();
    String ratio = Files.readString(bdi.resolve("max_ratio")).strip();

    NodeDisk.Slowed slowed = disk.slow("run-1", 1L << 20);
    assertEquals(device, slowed.device());
    assertTrue(slowed.filesEvicted() >= 1, "the file written before was dropped from the cache");
    assertTrue(new NodeDisk.SlowHealer().findAll().stream().anyMatch(f -> f.entry().detail().get("device").equals(device)
        && f.owner().equals(ledger.owner())), "the throttle is found as this harness's");
    // a throttle cannot make I/O faster: 6 MB written without sync and 2 MB read cold take 8 s at
    // 1 MB/s; the cap on dirty pages is a share of the machine's dirty limit, which grows with free
    // memory, so up to 4 MB are allowed through at once and the bound is 4 s
    long start = System.nanoTime();
    try (FileOutputStream out = new FileOutputStream(disk.mount().resolve("new").toFile())) {
      for (int i = 0; i < 6; i++) {
        out.write(new byte[1 << 20]);
      }
    }
    double writing = (System.nanoTime() - start) / 1e9;
    assertEquals(2 << 20, Files.readAllBytes(old).length);
    double seconds = (System.nanoTime() - start) / 1e9;
    assertTrue(seconds >= 4, "8 MB through a 1 MB/s disk took " + seconds + " s (" + writing + " s of it writing 6 MB)");

    slowed.installed().heal();
    slowed.installed().heal(); // idempotent
    assertTrue(new NodeDisk.SlowHealer().findAll().stream().noneMatch(f -> f.entry().detail().get("device").equals(device)),
        "a throttle is left on " + device);
    assertEquals(strict, Files.readString(bdi.resolve("strict_limit")).strip());
    assertEquals(ratio, Files.readString(bdi.resolve("max_ratio")).strip());
  }
}
