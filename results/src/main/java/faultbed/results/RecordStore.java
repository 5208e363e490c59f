package faultbed.results;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A folder of run records: one {@code <runId>.json} per run, written atomically (temp file and
 * rename) so a crash never leaves half a record, plus {@code summary.json}.
 */
public final class RecordStore {
  public static final String SUMMARY = "summary.json";
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final Path dir;

  public RecordStore(Path dir) {
    this.dir = dir;
  }

  public Path dir() {
    return dir;
  }
  /** The copy of the scenario file a suite folder keeps beside its records (run writes it, resume and merge check it). */
  public static final String SCENARIO_COPY = "scenario.json.txt";


  public static ObjectMapper json() {
    return JSON;
  }

  public Path write(RunRecord record) {
    return writeAtomically(dir.resolve(record.runId() + ".json"), record);
  }

  public Path writeSummary(SuiteSummary summary) {
    return writeAtomically(dir.resolve(SUMMARY), summary);
  }

  /** A run record and the file it was read from. */
  public record StoredRecord(Path file, RunRecord record) {}

  /** Every run record in the folder, in file name order. */
  public List<RunRecord> readAll() {
    return list().stream().map(StoredRecord::record).toList();
  }

  /**
   * Every run record in the folder with its file, in file name order. Other JSON files (the
   * summary, a baseline file or a scenario saved alongside) are skipped: a run record has a run id.
   */
  public List<StoredRecord> list() {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".json"))
          .filter(p -> !p.getFileName().toString().equals(SUMMARY))
          .sorted(Comparator.comparing(Path::toString))
          .map(RecordStore::readIfRecord)
          .flatMap(java.util.Optional::stream)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }

  /** The file as a run record, or nothing when it is JSON of another kind (no run id). */
  private static java.util.Optional<StoredRecord> readIfRecord(Path file) {
    try {
      com.fasterxml.jackson.databind.JsonNode tree = JSON.readTree(file.toFile());
      if (tree == null || !tree.isObject() || !tree.hasNonNull("runId")) {
        return java.util.Optional.empty();
      }
      return java.util.Optional.of(new StoredRecord(file, JSON.treeToValue(tree, RunRecord.class)));
    } catch (IOException e) {
      throw unreadable(file, e);
    }
  }


  public static RunRecord read(Path file) {
    try {
      return JSON.readValue(file.toFile(), RunRecord.class);
    } catch (IOException e) {
      throw unreadable(file, e);
    }
  }

  /**
   * A record that cannot be read, said without Java's words: a part of it that the record's own
   * checks refuse (most often a null or missing value) is named by where it is, not by the Java
   * exception the check threw.
   */
  private static UncheckedIOException unreadable(Path file, IOException e) {
    if (e instanceof com.fasterxml.jackson.databind.exc.ValueInstantiationException v) {
      String at = v.getPath().stream()
          .map(r -> r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]")
          .collect(java.util.stream.Collectors.joining()).replaceFirst("^\\.", "");
      String what = v.getType() == null ? "a part of it" : "its " + v.getType().getRawClass().getSimpleName()
          .replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT);
      return new UncheckedIOException("cannot read run record " + file, new IOException(what
          + (at.isEmpty() ? "" : " at " + at) + " lacks a value it needs (one is null or missing)", e));
    }
    return new UncheckedIOException("cannot read run record " + file, e);
  }

  private Path writeAtomically(Path target, Object value) {
    Path tmp = null;
    try {
      Files.createDirectories(dir);
      tmp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
      JSON.writeValue(tmp.toFile(), value);
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      return target;
    } catch (IOException e) {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp); // a part written to a full disk is no record, and holds space
        } catch (IOException gone) {
          e.addSuppressed(gone);
        }
      }
      throw new NotWritten(target, e);
    }
  }

  /**
   * A record or summary that could not be written (a full disk, say); the file it would have
   * replaced, and every record written before, are as they were.
   */
  public static final class NotWritten extends UncheckedIOException {
    private final Path target;

    NotWritten(Path target, IOException cause) {
      super("cannot write " + target + ": " + reason(cause), cause);
      this.target = target;
    }

    public Path target() {
      return target;
    }

    /** What the OS said ("No space left on device"), without the path it repeats. */
    private static String reason(IOException e) {
      String m = e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason()
          : e.getMessage();
      return m == null ? e.getClass().getSimpleName() : m;
    }
  }
}
