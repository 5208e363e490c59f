package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.faults.Cgroup;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Shards of one suite: each runs whole blocks, resumes on its own, and merges into one suite folder. */
class MergeCommandTest {
  private static final String SCENARIO = """
      { "name": "m", "workload": { "type": "sort", "size": "1MB" }, "runs": 4, "seed": 3,
        "variants": { "a": {}, "b": { "speculation": "hadoop3" } } }
      """;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int faultbed(String... args) {
    return FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  /** A shard folder holding the runs of {@code blocks}, as 'run --shard' leaves it. */
  private static Path shard(Path dir, Path scenario, long seedOffset, int... blocks) throws IOException {
    Files.createDirectories(dir);
    Files.copy(scenario, dir.resolve("scenario.json.txt"));
    RecordStore store = new RecordStore(dir);
    for (int b : blocks) {
      int position = 0;
      for (String v : List.of("b", "a")) {
        store.write(new RunRecord(RunRecord.SCHEMA_VERSION, String.format("%s-%03d", v, b), "m", v, b, 100 + b + seedOffset, "t",
            new RunRecord.ClusterInfo("mini", 4, 1024, 2), Map.of(), new RunRecord.WorkloadInfo("sort", Map.of(), 1L << 20, 3 + seedOffset), List.of(), List.of(), List.of(), List.of(),
            List.of(), new RunRecord.JobOutcome("job_" + b, "SUCCEEDED", true, 0L, 20_000L + 1000 * b + (v.equals("b") ? 500 : 0), 8, 2, null),
            Map.of(), List.of(), null, null, List.of(), new RunRecord.Block(b, position++, 2), null, List.of(), null, null, null, null, null, null, null, null));
      }
    }
    return dir;
  }

  @Test
  void shardsMergeIntoTheSuiteOneMachineWouldHaveWritten(@TempDir Path tmp) throws IOException {
    Path scenario = Files.writeString(tmp.resolve("m.json"), SCENARIO);
    Path one = shard(tmp.resolve("one"), scenario, 0, 0, 2);
    Path two = shard(tmp.resolve("two"), scenario, 0, 1, 3);
    Path merged = tmp.resolve("merged");
    assertEquals(0, faultbed("merge", one.toString(), two.toString(), "--out", merged.toString()), err.toString());
    List<RunRecord> records = new RecordStore(merged).readAll();
    assertEquals(8, records.size());
    assertEquals(List.of("a-000", "a-001", "a-002", "a-003", "b-000", "b-001", "b-002", "b-003"),
        records.stream().map(RunRecord::runId).toList());
    assertArrayEquals(Files.readAllBytes(one.resolve("b-002.json")), Files.readAllBytes(merged.resolve("b-002.json")));
    assertEquals(Files.readString(scenario), Files.readString(merged.resolve("scenario.json.txt")));
    assertTrue(Files.exists(merged.resolve("summary.json")));

    Path single = shard(tmp.resolve("single"), scenario, 0, 0, 1, 2, 3);
    assertEquals(0, faultbed("summary", single.toString()), err.toString());
    assertEquals(Files.readString(single.resolve("summary.json")), Files.readString(merged.resolve("summary.json")),
        "the merged summary is the one-machine summary");
  }

  @Test
  void aShardWhoseRunsAreRecordedResumesWithoutACluster(@TempDir Path tmp) throws IOException {
    Path scenario = Files.writeString(tmp.resolve("m.json"), SCENARIO);
    Path dir = shard(tmp.resolve("s2"), scenario, 0, 1, 3);
    List<String> groups = Cgroup.instances();
    assertEquals(0, faultbed("run", scenario.toString(), "--shard", "2/2", "--out", dir.toString(), "--resume"),
        err.toString());
    assertEquals(groups, Cgroup.instances(), "shard 2/2 is blocks 1 and 3, all recorded: no cluster started");
  }

  @Test
  void foldersThatAreNotShardsOfOneSuiteAreRefused(@TempDir Path tmp) throws IOException {
    Path scenario = Files.writeString(tmp.resolve("m.json"), SCENARIO);
    Path other = Files.writeString(tmp.resolve("o.json"), SCENARIO.replace("\"seed\": 3", "\"seed\": 4"));
    Path one = shard(tmp.resolve("one"), scenario, 0, 0, 2);
    assertEquals(2, faultbed("merge", one.toString(), shard(tmp.resolve("same"), scenario, 0, 2).toString(),
        "--out", tmp.resolve("x").toString()));
    assertTrue(err.toString().contains("expected each run once, but a-002 is in"), err.toString());
    assertEquals(2, faultbed("merge", one.toString(), shard(tmp.resolve("other"), other, 0, 1, 3).toString(),
        "--out", tmp.resolve("y").toString()));
    assertTrue(err.toString().contains("ran another scenario file than"), err.toString());
    assertEquals(2, faultbed("merge", one.toString(), shard(tmp.resolve("reseeded"), scenario, 7, 1, 3).toString(),
        "--out", tmp.resolve("z").toString()));
    assertTrue(err.toString().contains("expected shards run with one seed"), err.toString());
    for (String[] bad : new String[][] {{"merge", one.toString(), "--out", tmp.resolve("w").toString()},
        {"run", scenario.toString(), "--shard", "3/2"}, {"run", scenario.toString(), "--shard", "x"},
        {"run", scenario.toString(), "--shard", "1/9"}}) {
      err.getBuffer().setLength(0);
      assertEquals(2, faultbed(bad), String.join(" ", bad) + ": " + err);
      assertEquals(1, err.toString().lines().count(), err.toString());
    }
    assertTrue(err.toString().contains("--shard: expected at most 4 shards (one per block), got 1/9"), err.toString());
  }
}
