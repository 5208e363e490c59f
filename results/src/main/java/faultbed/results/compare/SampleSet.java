package faultbed.results.compare;

import com.fasterxml.jackson.databind.JsonNode;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.SuiteSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The runs of every variant of one suite, read from a folder of run records or from a baseline
 * file. A comparison needs the raw times (a rank test cannot run on summaries), which is why a
 * baseline file keeps them.
 *
 * @param origin the folder or file read, as a real path (null when not read from one): variants of
 *     one origin are runs of one suite, which blocks can pair
 */
public record SampleSet(String source, Path origin, String scenario, List<VariantSample> variants) {
  public SampleSet {
    variants = List.copyOf(variants);
  }

  public Optional<VariantSample> variant(String name) {
    return variants.stream().filter(v -> v.variant().equals(name)).findFirst();
  }

  public List<String> variantNames() {
    return variants.stream().map(VariantSample::variant).toList();
  }

  /** Whether both name one folder or file. */
  public boolean sameOrigin(SampleSet other) {
    return origin != null && origin.equals(other.origin);
  }

  public static SampleSet fromRecords(String source, Path origin, List<RunRecord> records) {
    List<VariantSample> variants = new ArrayList<>();
    SuiteSummary.byVariant(records).forEach((variant, runs) -> variants.add(new VariantSample(variant,
        runs.stream().map(SampleSet::run).toList())));
    return new SampleSet(source, origin, records.isEmpty() ? "" : records.get(0).scenario(), variants);
  }

  /** A run as the tests see it: failed unless its job succeeded with a completion time. */
  private static VariantSample.Run run(RunRecord r) {
    Double seconds = r.job() != null && r.job().succeeded() ? r.completionSeconds().orElse(null) : null;
    return new VariantSample.Run(r.runIndex(), r.block() == null ? null : r.block().index(), seconds);
  }

  /**
   * A folder of run records or a baseline file.
   *
   * @throws InvalidSampleSource naming what was expected, for one line of output
   */
  public static SampleSet read(Path path) {
    if (Files.isDirectory(path)) {
      List<RunRecord> records;
      try {
        records = new RecordStore(path).readAll();
      } catch (RuntimeException e) {
        throw new InvalidSampleSource(e.getMessage()
            + (e.getCause() == null ? "" : ": " + e.getCause().getMessage().lines().findFirst().orElse("")));
      }
      if (records.isEmpty()) {
        throw new InvalidSampleSource("expected run records (*.json) in " + path);
      }
      return fromRecords(path.toString(), realPath(path), records);
    }
    if (!Files.isRegularFile(path)) {
      throw new InvalidSampleSource("expected a folder of run records or a baseline file, got " + path);
    }
    JsonNode json;
    try {
      json = RecordStore.json().readTree(path.toFile());
    } catch (IOException e) {
      throw new InvalidSampleSource("cannot read " + path + " as JSON: " + e.getMessage().lines().findFirst().orElse(""));
    }
    if (json == null || !BaselineFile.FORMAT.equals(json.path("format").asText())) {
      throw new InvalidSampleSource("expected a baseline file (\"format\": \"" + BaselineFile.FORMAT
          + "\", written by 'faultbed baseline') or a folder of run records, got " + path);
    }
    return BaselineFile.read(path, realPath(path), json);
  }

  private static Path realPath(Path path) {
    try {
      return path.toRealPath();
    } catch (IOException e) {
      return path.toAbsolutePath().normalize();
    }
  }

  /** A path that holds no samples, with a message saying what was expected. */
  public static final class InvalidSampleSource extends RuntimeException {
    public InvalidSampleSource(String message) {
      super(message);
    }
  }
}
