package faultbed.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Real run records (kept with the results module's tests), copied into a folder of their own. */
final class ReportTestRecords {
  private static final Path RECORDS = Path.of("../results/src/test/resources/records");

  private ReportTestRecords() {}

  static Path quickstart(Path into) throws IOException {
    return copy("quickstart", into);
  }

  /** Four runs of the threshold sweep: defaults and a 6 s expiry, each under a crash and a freeze. */
  static Path thresholdSweep(Path into) throws IOException {
    return copy("threshold-sweep", into);
  }

  private static Path copy(String name, Path into) throws IOException {
    Path from = RECORDS.resolve(name);
    if (!Files.isDirectory(from)) {
      throw new IllegalStateException("run from the experiments module: no " + from.toAbsolutePath());
    }
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.toList()) {
        Files.copy(f, into.resolve(f.getFileName()));
      }
    }
    return into;
  }
}
