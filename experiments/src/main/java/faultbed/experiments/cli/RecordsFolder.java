package faultbed.experiments.cli;

import faultbed.experiments.scenario.ScenarioException;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The DIR argument of the commands that read results: checked once, with one line on stderr when wrong
 * (a line break in a folder's name escaped).
 */
final class RecordsFolder {
  private RecordsFolder() {}

  /** True when {@code dir} is a folder; otherwise says so on {@code err}. */
  static boolean exists(Path dir, PrintWriter err) {
    return exists("DIR", dir, err);
  }

  private static boolean exists(String field, Path dir, PrintWriter err) {
    if (Files.isDirectory(dir)) {
      return true;
    }
    err.println(ScenarioException.oneLine("faultbed: " + field + ": expected a folder of run records, got " + dir));
    return false;
  }

  /** The run records of {@code dir}, or empty after one line on {@code err} saying why there are none. */
  static Optional<List<RunRecord>> read(Path dir, PrintWriter err) {
    return read("DIR", dir, err);
  }

  /** As {@link #read(Path, PrintWriter)}, the line naming {@code field}: the argument or option that gave it. */
  private static Optional<List<RunRecord>> read(String field, Path dir, PrintWriter err) {
    if (!exists(field, dir, err)) {
      return Optional.empty();
    }
    List<RunRecord> records;
    try {
      records = new RecordStore(dir).readAll();
    } catch (UncheckedIOException e) {
      err.println(ScenarioException.oneLine("faultbed: " + field + ": " + e.getMessage() + ": "
          + e.getCause().getMessage().lines().findFirst().orElse("")));
      return Optional.empty();
    }
    if (records.isEmpty()) {
      err.println(ScenarioException.oneLine("faultbed: " + field + ": expected run records (*.json) in " + dir));
      return Optional.empty();
    }
    return Optional.of(records);
  }

  /**
   * The run records of every folder given as option {@code option}, together, or empty after one
   * line on {@code err} naming the option and the first folder that has none.
   */
  static Optional<List<RunRecord>> readAll(String option, List<Path> dirs, PrintWriter err) {
    List<RunRecord> all = new java.util.ArrayList<>();
    for (Path dir : dirs) {
      Optional<List<RunRecord>> read = read(option, dir, err);
      if (read.isEmpty()) {
        return Optional.empty();
      }
      all.addAll(read.get());
    }
    return Optional.of(all);
  }
}
