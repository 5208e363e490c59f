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
}
