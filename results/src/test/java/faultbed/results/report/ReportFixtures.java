package faultbed.results.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** A suite folder made of the real records under test resources: the quickstart plus a lost-outputs run. */
final class ReportFixtures {
  private ReportFixtures() {}

  static Path suite(Path into) {
    try {
      for (String name : new String[] {"quickstart", "lost-map-outputs"}) {
        Path from = Path.of(ReportFixtures.class.getResource("/records/" + name).toURI());
        try (Stream<Path> files = Files.list(from)) {
          for (Path f : files.toList()) {
            Files.copy(f, into.resolve(f.getFileName()));
          }
        }
      }
      return into;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
