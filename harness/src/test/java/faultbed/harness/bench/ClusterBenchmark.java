package faultbed.harness.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.harness.ClusterSpec;
import faultbed.harness.Backend;
import faultbed.harness.Backends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Measures what the benchmarks file quotes: cluster start, the two ways to restore a crashed node
 * (fresh NodeManager in the slot vs. rebuilding the cluster), and the harness's per-run overhead.
 * Not part of the normal test run: {@code mvn -pl harness test -Dfaultbed.excludedGroups=none -Dgroups=benchmark -Dtest=ClusterBenchmark},
 * with {@code -Dfaultbed.bench.backend=namespace} for the namespace backend.
 */
@Tag("benchmark")
class ClusterBenchmark {
  private static final int REPEATS = Integer.getInteger("faultbed.bench.repeats", 5);

  @Test
  void measure() throws IOException {
    Backend backend = Backends.named(System.getProperty("faultbed.bench.backend", "mini"), "faultbed.bench.backend");
    List<String> report = BackendCosts.measure(ClusterSpec.defaults().withBackend(backend), REPEATS, c -> List.of());
    Path out = Path.of("target", "benchmarks-" + backend.name() + ".txt");
    Files.write(out, report);
    report.forEach(System.out::println);
    assertTrue(Files.size(out) > 0);
  }
}
