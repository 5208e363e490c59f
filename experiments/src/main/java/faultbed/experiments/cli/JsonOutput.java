package faultbed.experiments.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import faultbed.results.RecordStore;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine.Option;

/** {@code --json}: the command's result as one JSON document on standard output, for scripts and CI. */
final class JsonOutput {
  @Option(names = "--json", description = "print the result as JSON on standard output (progress and notes go to"
      + " standard error); the exit code is the same")
  boolean enabled;

  static void print(PrintWriter out, Object value) {
    try {
      out.println(RecordStore.json().writerWithDefaultPrettyPrinter().writeValueAsString(value));
      out.flush();
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
