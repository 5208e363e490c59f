package faultbed.experiments.cli;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The DIR argument of the commands that read results: checked once, with one line on stderr when wrong. */
final class RecordsFolder {
  private RecordsFolder() {}

  /** True when {@code dir} is a folder; otherwise says so on {@code err}. */
  static boolean exists(Path dir, PrintWriter err) {
    if (Files.isDirectory(dir)) {
      return true;
    }
    err.println("faultbed: DIR: expected a folder of run records, got " + dir);
    return false;
  }

  /** The run records of {@code dir}, or empty after one line on {@code err} saying why there are none. */
  static Optional<List<RunRecord>> read(Path dir, PrintWriter err) {
    if (!exists(dir, err)) {
      return Optional.empty();
    }
    List<RunRecord> records;
    try {
      records = new RecordStore(dir).readAll();
    } catch (UncheckedIOException e) {
      err.println("faultbed: DIR: " + e.getMessage() + ": "
          + e.getCause().getMessage().lines().findFirst().orElse(""));
      return Optional.empty();
    }
    if (records.isEmpty()) {
      err.println("faultbed: DIR: expected run records (*.json) in " + dir);
      return Optional.empty();
    }
    return Optional.of(records);
  }
}
