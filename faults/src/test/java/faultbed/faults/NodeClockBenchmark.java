package faultbed.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a node's clock costs a JVM: the same class-loading start ({@link ClockLoad}) and the same
 * clock calls without the clock, with faultbed's agent, and with libfaketime where it is installed
 * (the mechanism tried first), alternated so that drift cannot pose as a difference. Writes
 * {@code target/benchmarks-node-clock.txt}: medians (min-max) of each.
 */
@Tag("benchmark")
class NodeClockBenchmark {
  private static final int REPEATS = 7;

  @Test
  void aNodeClockCostsAJvm(@TempDir Path dir) throws Exception {
    NodeClock clock = NodeClock.make(dir.resolve("clock"));
    List<String> libfaketime = List.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
        "/usr/lib/faketime/libfaketime.so.1").stream().filter(p -> Files.exists(Path.of(p))).toList();
    List<List<Double>> load = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    List<List<Double>> call = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    List<List<Double>> whole = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (int i = 0; i < REPEATS; i++) {
      for (int way = 0; way < (libfaketime.isEmpty() ? 2 : 3); way++) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        if (way == 1) {
          cmd.add(clock.javaOption());
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), ClockLoad.class.getName()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (way == 2) {
          pb.environment().put("LD_PRELOAD", libfaketime.get(0));
          pb.environment().put("FAKETIME", "+0");
          pb.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        }
        long t0 = System.nanoTime();
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        whole.get(way).add((System.nanoTime() - t0) / 1e6);
        String[] f = out.lines().filter(l -> l.matches("\\d+ \\d+ .*")).findFirst().orElseThrow(
            () -> new IllegalStateException("no reading: " + out)).split(" ");
        load.get(way).add(Double.parseDouble(f[1]));
        call.get(way).add(Double.parseDouble(f[2]));
      }
    }
    StringBuilder t = new StringBuilder("| JVM | the whole JVM run, ms | loading Jackson databind's classes, ms |"
        + " System.currentTimeMillis, ns per call |\n|---|---|---|---|\n");
    String[] names = {"the machine's clock", "faultbed's clock agent", "libfaketime 0.9.10 (LD_PRELOAD)"};
    for (int way = 0; way < 3; way++) {
      if (load.get(way).isEmpty()) {
        continue;
      }
      t.append("| ").append(names[way]).append(" | ").append(spread(whole.get(way), "%.0f")).append(" | ")
          .append(spread(load.get(way), "%.0f")).append(" | ")
          .append(spread(call.get(way), "%.1f")).append(" |\n");
    }
    Path out = Path.of("target", "benchmarks-node-clock.txt");
    Files.writeString(out, t.toString());
    System.out.print(t);
  }

  private static String spread(List<Double> v, String form) {
    List<Double> s = new ArrayList<>(v);
    Collections.sort(s);
    return String.format(Locale.ROOT, form + " (" + form + "-" + form + ")", s.get(s.size() / 2), s.get(0),
        s.get(s.size() - 1));
  }
}
