package faultbed.faults;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;

/**
 * Bytes of a file inverted in place, as a disk that returns wrong data without an error: its size,
 * times and name stay as they were, so only a checksum tells. The ledger keeps the offset and the
 * bytes it held; the heal writes them back where the file still holds the inverted bytes (a file
 * deleted meanwhile, or made anew at the same path, is left alone).
 */
public final class FileCorruption {
  /** Ledger kind of a corrupted stretch of a file: healed by writing its bytes back. */
  public static final String KIND = "file-corruption";

  private FileCorruption() {}

  /** Inverts {@code length} bytes of {@code file} from {@code offset}; healing writes them back. */
  public static Installed corrupt(Ledger ledger, String runId, Path file, long offset, int length) {
    if (length < 1 || offset < 0) {
      throw new IllegalArgumentException("a corruption needs at least one byte at an offset of 0 or more");
    }
    byte[] original = read(file, offset, length);
    LedgerEntry entry = new LedgerEntry(KIND, file.toString(), runId, Map.of("offset", Long.toString(offset),
        "bytes", Base64.getEncoder().encodeToString(original)));
    ledger.making(entry, () -> {
      write(file, offset, inverted(original));
      return file;
    });
    return () -> ledger.heal(entry);
  }

  private static byte[] inverted(byte[] b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) ~b[i];
    }
    return out;
  }

  private static byte[] read(Path file, long offset, int length) {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      if (f.length() < offset + length) {
        throw new IllegalArgumentException(file + " holds " + f.length() + " bytes, fewer than " + (offset + length));
      }
      byte[] b = new byte[length];
      f.seek(offset);
      f.readFully(b);
      return b;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static void write(Path file, long offset, byte[] bytes) {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      f.write(bytes);
      f.getFD().sync();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** Writes a corrupted stretch's bytes back, where the file still holds them inverted. */
  static final class BytesHealer implements Healer {
    @Override
    public String kind() {
      return KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      Path file = Path.of(entry.id());
      long offset = Long.parseLong(entry.detail().get("offset"));
      byte[] original = Base64.getDecoder().decode(entry.detail().get("bytes"));
      try {
        if (!Files.isRegularFile(file) || Files.size(file) < offset + original.length) {
          return null;
        }
      } catch (IOException e) {
        return null;
      }
      if (!java.util.Arrays.equals(read(file, offset, original.length), inverted(original))) {
        return null; // not the bytes faultbed wrote: the file was made anew
      }
      write(file, offset, original);
      return "wrote back " + original.length + " corrupted bytes of " + file;
    }
  }
}
