package faultbed.experiments.remote;

import faultbed.experiments.cli.FaultbedCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.commons.io.output.TeeOutputStream;

/**
 * {@code faultbed run} of a scenario on a {@link YarnHosts} cluster's workers, in this JVM, started
 * at once. What it says as it goes (each fault made, each outage) is on standard output, kept here
 * as well until it ends.
 */
final class RunOnHosts {
  final StringWriter said = new StringWriter();
  final StringWriter err = new StringWriter();
  private final ByteArrayOutputStream console = new ByteArrayOutputStream();
  private final PrintStream stdout = System.out;
  private final CompletableFuture<Integer> exit;

  RunOnHosts(YarnHosts cluster, Path scenario, Path out) {
    System.setOut(new PrintStream(new TeeOutputStream(stdout, console), true));
    String workers = cluster.workers().stream().map(YarnHosts.Host::name).collect(Collectors.joining(","));
    exit = CompletableFuture.supplyAsync(() -> FaultbedCli.execute(new PrintWriter(said, true),
        new PrintWriter(err, true), "run", scenario.toString(), "--inventory", cluster.inventoryFile().toString(),
        "--confirm-hosts", workers, "--out", out.toString()));
  }

  boolean isDone() {
    return exit.isDone();
  }

  /** Its standard output so far. */
  String console() {
    return console.toString(StandardCharsets.UTF_8);
  }

  /** Its exit code, once it ends within {@code limit}; standard output is this JVM's own again after. */
  int exitCode(Duration limit) throws Exception {
    try {
      return exit.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      System.setOut(stdout);
    }
  }
}
