package faultbed.experiments.cli;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.SuiteSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Joins the folders of a suite's shards into one folder that report, classify and compare read as
 * if one machine had run the suite. Refuses folders that are not shards of one suite: another
 * scenario file, another seed, or a run recorded twice.
 */
@Command(name = "merge", mixinStandardHelpOptions = true, description = "Joins the folders of a suite's shards ('run --shard I/N') into one suite folder.")
final class MergeCommand implements Callable<Integer> {

  @Parameters(paramLabel = "SHARD_DIR", arity = "2..*", description = "the shards' folders of run records")
  List<Path> shards;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "a new or empty folder for the merged suite")
  Path out;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    try {
      return merge(err);
    } catch (IOException e) {
      err.println("faultbed: merge: " + e.getMessage());
      return FaultbedCli.BAD_INPUT;
    }
  }

  private int merge(PrintWriter err) throws IOException {
    if (Files.isDirectory(out)) {
      try (var s = Files.list(out)) {
        if (s.findAny().isPresent()) {
          err.println("faultbed: --out: expected a new or empty folder, got " + out + " (it holds files)");
          return FaultbedCli.BAD_INPUT;
        }
      }
    }
    String scenarioText = null;
    Path scenarioFrom = null;
    Map<String, Path> byRunId = new HashMap<>();
    Long scenarioSeed = null;
    Path seedFrom = null;
    List<RecordStore.StoredRecord> all = new ArrayList<>();
    for (Path dir : shards) {
      if (RecordsFolder.read(dir, err).isEmpty()) {
        return FaultbedCli.BAD_INPUT;
      }
      Path copy = dir.resolve(faultbed.results.RecordStore.SCENARIO_COPY);
      if (!Files.isRegularFile(copy)) {
        err.println("faultbed: SHARD_DIR: expected " + copy + " (written by 'faultbed run'), got none");
        return FaultbedCli.BAD_INPUT;
      }
      String text = Files.readString(copy);
      if (scenarioText == null) {
        scenarioText = text;
        scenarioFrom = dir;
      } else if (!scenarioText.equals(text)) {
        err.println("faultbed: SHARD_DIR: expected shards of one suite, but " + dir + " ran another scenario file than "
            + scenarioFrom);
        return FaultbedCli.BAD_INPUT;
      }
      for (RecordStore.StoredRecord stored : new RecordStore(dir).list()) {
        RunRecord r = stored.record();
        Path earlier = byRunId.putIfAbsent(r.runId(), stored.file());
        if (earlier != null) {
          err.println("faultbed: SHARD_DIR: expected each run once, but " + r.runId() + " is in " + earlier
              + " and " + stored.file() + " (the same shard twice, or overlapping --shard values)");
          return FaultbedCli.BAD_INPUT;
        }
        // the scenario seed: every run's fault draw and input derive from it
        Long seed = r.workload() == null ? null : r.workload().dataSeed();
        if (seed != null && scenarioSeed != null && !seed.equals(scenarioSeed)) {
          err.println("faultbed: SHARD_DIR: expected shards run with one seed, but " + stored.file() + " has seed "
              + seed + " where " + seedFrom + " has " + scenarioSeed + " (was --seed given to one shard only?)");
          return FaultbedCli.BAD_INPUT;
        }
        if (scenarioSeed == null && seed != null) {
          scenarioSeed = seed;
          seedFrom = stored.file();
        }
        all.add(stored);
      }
    }
    Files.createDirectories(out);
    Files.writeString(out.resolve(faultbed.results.RecordStore.SCENARIO_COPY), scenarioText);
    List<RunRecord> records = new ArrayList<>();
    for (RecordStore.StoredRecord stored : all) {
      // byte for byte: the merged suite is the shards' records, not a re-serialisation of them
      Files.copy(stored.file(), out.resolve(stored.file().getFileName()));
      records.add(stored.record());
    }
    SuiteSummary summary = SuiteSummary.of(records);
    new RecordStore(out).writeSummary(summary);
    PrintWriter o = spec.commandLine().getOut();
    o.printf("merged %d runs from %d shards into %s%n", records.size(), shards.size(), out);
    o.print(summary.table());
    o.flush();
    return 0;
  }
}
