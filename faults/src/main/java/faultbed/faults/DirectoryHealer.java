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
    // At exit the cluster's own threads (DataNodes, NodeManagers) may still be writing into the
    // folder while it is walked, so a pass can miss new files or trip over vanished ones; retry.
    IOException last = null;
    for (int pass = 0; pass < 5; pass++) {
      if (!Files.exists(dir)) {
        return pass == 0 ? null : "deleted folder " + dir;
      }
      try (Stream<Path> walk = Files.walk(dir)) {
        for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      } catch (IOException e) {
        last = e;
      } catch (UncheckedIOException e) {
        last = e.getCause();
      }
      if (!Files.exists(dir)) {
        return "deleted folder " + dir;
      }
      try {
        Thread.sleep(200L * (pass + 1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new UncheckedIOException("cannot delete " + dir, last != null ? last
        : new IOException("files kept appearing in " + dir));
  }
}
