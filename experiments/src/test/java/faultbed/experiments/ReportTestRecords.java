package faultbed.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Real quickstart records (kept with the results module's tests), copied into a folder of their own. */
final class ReportTestRecords {
  private static final Path QUICKSTART = Path.of("../results/src/test/resources/records/quickstart");

  private ReportTestRecords() {}

  static Path quickstart(Path into) throws IOException {
    if (!Files.isDirectory(QUICKSTART)) {
      throw new IllegalStateException("run from the experiments module: no " + QUICKSTART.toAbsolutePath());
    }
    try (Stream<Path> files = Files.list(QUICKSTART)) {
      for (Path f : files.toList()) {
        Files.copy(f, into.resolve(f.getFileName()));
      }
    }
    return into;
  }
}
