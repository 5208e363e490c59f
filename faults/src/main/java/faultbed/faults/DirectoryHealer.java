package faultbed.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/** Deletes a working folder faultbed created (cluster data, node dirs) when its owner died. */
public final class DirectoryHealer implements Healer {
  public static final String KIND = "dir";

  public static LedgerEntry entry(Path dir, String runId) {
    return new LedgerEntry(KIND, dir.toAbsolutePath().toString(), runId, Map.of());
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public String heal(LedgerEntry entry) {
    Path dir = Path.of(entry.id());
    if (!Files.exists(dir)) {
      return null;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
    return "deleted folder " + dir;
  }
}
