package faultbed.experiments.cli;

import faultbed.results.compare.BaselineFile;
import faultbed.results.compare.SampleSet;
import faultbed.results.compare.VariantSample;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Freezes a suite's completion times into a file to commit and later pass to 'faultbed compare'. */
@Command(name = "baseline", mixinStandardHelpOptions = true, description = {
    "Writes a baseline file to commit, for 'faultbed compare' (no cluster needed).",
    "It holds per variant the raw completion times and failed runs, which the tests need, plus a "
        + "summary."})
final class BaselineCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "folder of run records")
  Path dir;

  @Option(names = "--out", paramLabel = "FILE", required = true, description = "baseline file to write, e.g. baselines/mine.json")
  Path out;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (!RecordsFolder.exists(dir, err)) {
      return FaultbedCli.BAD_INPUT;
    }
    SampleSet samples;
    try {
      samples = SampleSet.read(dir);
    } catch (SampleSet.InvalidSampleSource e) {
      err.println("faultbed: DIR: " + e.getMessage());
      return FaultbedCli.BAD_INPUT;
    }
    if (Files.isDirectory(out)) {
      err.println("faultbed: --out: expected a file, got the folder " + out);
      return FaultbedCli.BAD_INPUT;
    }
    try {
      BaselineFile.of(samples).write(out);
    } catch (UncheckedIOException e) {
      err.println("faultbed: --out: cannot write " + out + ": " + e.getCause().getMessage());
      return FaultbedCli.BAD_INPUT;
    }
    PrintWriter o = spec.commandLine().getOut();
    for (VariantSample v : samples.variants()) {
      o.printf("%-18s %4d runs %4d failed%n", v.variant(), v.runs().size(), v.failed());
    }
    o.println("baseline: " + out);
    o.flush();
    return 0;
  }
}
