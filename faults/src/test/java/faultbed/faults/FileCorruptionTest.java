package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bytes of a file inverted in place and written back by the heal, by the ledger after a death too. */
class FileCorruptionTest {
  private static byte[] content() {
    byte[] b = new byte[4096];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (i * 31);
    }
    return b;
  }

  @Test
  void corruptedBytesAreInvertedInPlaceAndWrittenBackByTheHeal(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("blk_1");
    Files.write(file, content());
    try (Ledger ledger = Ledger.open()) {
      Installed bad = FileCorruption.corrupt(ledger, "run-1", file, 1000, 64);
      byte[] now = Files.readAllBytes(file);
      assertEquals(4096, now.length, "the size stays");
      assertEquals((byte) ~content()[1000], now[1000]);
      assertEquals(content()[999], now[999], "only the stretch changed");
      assertEquals(content()[1064], now[1064], "only the stretch changed");
      bad.heal();
      assertArrayEquals(content(), Files.readAllBytes(file));
      bad.heal(); // idempotent
      assertArrayEquals(content(), Files.readAllBytes(file));
    }
  }

  @Test
  void aFileMadeAnewOrGoneIsLeftAlone(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("blk_2");
    Files.write(file, content());
    LedgerEntry entry;
    try (Ledger ledger = Ledger.open()) {
      FileCorruption.corrupt(ledger, "run-1", file, 0, 16);
      entry = ledger.entries().stream().filter(e -> e.kind().equals(FileCorruption.KIND)).findFirst().orElseThrow();
      Files.write(file, new byte[4096]); // a new replica at the same path
    }
    assertArrayEquals(new byte[4096], Files.readAllBytes(file), "the ledger's close left the new file alone");
    Files.delete(file);
    assertNull(new FileCorruption.BytesHealer().heal(entry), "nothing to heal where the file is gone");
    assertFalse(Files.exists(file));
  }
}
