package faultbed.experiments.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** Where an internal error's stack trace goes, so the terminal gets one line and the report a file. */
final class InternalErrors {
  private InternalErrors() {}

  /** Writes the trace to out/faultbed-error-TIME.log (or the temp folder) and returns that path. */
  static Path log(Throwable error, String... args) {
    StringWriter trace = new StringWriter();
    try (PrintWriter w = new PrintWriter(trace)) {
      w.println("faultbed " + String.join(" ", args));
      error.printStackTrace(w);
    }
    String name = "faultbed-error-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss-SSS")) + ".log";
    for (Path dir : new Path[] {Path.of("out"), Path.of(System.getProperty("java.io.tmpdir"))}) {
      try {
        Files.createDirectories(dir);
        // as bytes: a message with a character UTF-8 cannot encode (half a surrogate pair) is written, not lost
        return Files.write(dir.resolve(name), trace.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8))
            .toAbsolutePath();
      } catch (IOException | SecurityException e) {
        // try the next place; the line on the terminal still names the error
      }
    }
    return Path.of("(nowhere: neither out/ nor the temp folder is writable)");
  }
}
