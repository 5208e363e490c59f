package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records folder's disk fills up in the middle of a suite: the run that could not be recorded
 * stops the suite with one line saying so (exit 3), the records before it stay whole and nothing
 * half-written is left, and {@code --resume} runs the rest once there is room again. The disk is a
 * small tmpfs of the test's own (root only), the suite a simulated one, so that only the disk is real
 * and the test takes seconds.
 */
class RecordsDiskFullTest {
  private static final String SCENARIO = """
      { "name": "full-disk", "cluster": { "backend": "sim", "nodes": 10 },
        "workload": { "type": "sort", "size": "1GB", "maps": 20, "reduces": 2 },
        "seed": 3, "runs": 3,
        "variants": { "a": { }, "b": { "speculation": "hadoop3" } } }
      """;
  private static final int RUNS = 6;
  private static final long PAGE = 4096;

  @Test
  void aFullDiskStopsTheSuiteWithOneLineAndResumeFinishesItOnceThereIsRoom(@TempDir Path dir) throws Exception {
    assumeTrue(isRoot(), "needs root to mount a small filesystem of its own for the records");
    Path scenario = Files.writeString(dir.resolve("full-disk.json"), SCENARIO);
    // how large this suite's records are, written where there is room
    Path roomy = dir.resolve("roomy");
    ScenarioValidationTest.Result first = ScenarioValidationTest.cli("run", scenario.toString(), "--out", roomy.toString());
    assertEquals(0, first.code(), first.out() + first.err());
    long record = 0;
    for (RecordStore.StoredRecord r : new RecordStore(roomy).list()) {
      record = Math.max(record, pages(Files.size(r.file())));
    }
    assertTrue(record > 0, "the suite wrote records");

    Path disk = Files.createDirectories(dir.resolve("disk"));
    mount(disk, 64 * 1024 * 1024);
    try {
      Path out = disk.resolve("out");
      // room for the scenario's copy, two records and half of a third: the third run cannot be recorded
      long room = PAGE + 2 * record + record / 2;
      Path filler = disk.resolve("filler");
      fill(filler, disk.toFile().getUsableSpace() - room);

      ScenarioValidationTest.Result full = ScenarioValidationTest.cli("run", scenario.toString(), "--out", out.toString());
      assertEquals(3, full.code(), full.out() + full.err());
      List<String> lines = full.err().strip().lines().filter(l -> l.startsWith("faultbed:")).toList();
      assertEquals(1, lines.size(), full.err());
      String line = lines.get(0);
      assertTrue(line.startsWith("faultbed: --out: cannot write ") && line.contains("No space left on device")
          && line.contains("the 2 run(s) recorded before it are kept") && line.endsWith("continue with --resume"), line);
      assertTrue(!full.err().contains("\tat ") && !full.err().contains("Exception"), full.err());
      List<RunRecord> kept = new RecordStore(out).readAll();
      assertEquals(2, kept.size(), "the records written before the disk filled up are whole");
      try (Stream<Path> files = Files.list(out)) {
        assertEquals(List.of(), files.filter(f -> f.getFileName().toString().endsWith(".tmp")).toList(),
            "nothing half-written is left");
      }

      Files.delete(filler);
      ScenarioValidationTest.Result resumed = ScenarioValidationTest.cli("run", scenario.toString(), "--out",
          out.toString(), "--resume");
      assertEquals(0, resumed.code(), resumed.out() + resumed.err());
      List<RunRecord> all = new RecordStore(out).readAll();
      assertEquals(RUNS, all.size());
      assertEquals(kept.get(0), all.stream().filter(r -> r.runId().equals(kept.get(0).runId())).findFirst().orElseThrow(),
          "a run recorded before is kept as it was, not run again");
      assertTrue(Files.exists(out.resolve(RecordStore.SUMMARY)));
    } finally {
      umount(disk);
    }
  }

  private static long pages(long bytes) {
    return (bytes + PAGE - 1) / PAGE * PAGE;
  }

  private static void fill(Path file, long bytes) throws IOException {
    // written, not sparse: tmpfs counts only the pages that hold data
    byte[] block = new byte[1 << 20];
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      for (long left = bytes; left > 0; left -= block.length) {
        f.write(block, 0, (int) Math.min(block.length, left));
      }
    }
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static void mount(Path at, long bytes) throws IOException, InterruptedException {
    run("mount", "-t", "tmpfs", "-o", "size=" + bytes + ",mode=0755", "faultbed-test-records", at.toString());
  }

  private static void umount(Path at) throws IOException, InterruptedException {
    run("umount", at.toString());
  }

  private static void run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + out);
  }
}
