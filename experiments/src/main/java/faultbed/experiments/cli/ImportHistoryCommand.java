package faultbed.experiments.cli;

import faultbed.harness.observe.HistoryImport;
import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Reads a real cluster's job history files into a folder of run records, so report, compare,
 * classify and sim-model work on a user's own jobs as on faultbed's runs. Writes nothing until every
 * file has been read.
 */
@Command(name = "import-history", mixinStandardHelpOptions = true,
    description = "Reads a real cluster's job history files (.jhist, with their _conf.xml beside them) into run records.")
final class ImportHistoryCommand implements Callable<Integer> {

  @Parameters(paramLabel = "FILE_OR_DIR", arity = "1..*", description = ".jhist files, or folders searched for them"
      + " (a history server's done folder, copied out of HDFS)")
  List<Path> inputs;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "the folder the records go to")
  Path out;

  @Option(names = "--variant", defaultValue = "history", paramLabel = "NAME", description = "the variant the jobs"
      + " are (e.g. 'before' and 'after' a change, imported into one folder), default: ${DEFAULT-VALUE}")
  String variant;

  @Option(names = "--scenario", paramLabel = "NAME", description = "what the records call their suite"
      + " (default: the --out folder's name)")
  String scenario;

  @Option(names = "--workload", paramLabel = "TYPE", description = "which workload the jobs are like (wordcount,"
      + " sort, synthetic), for jobs faultbed cannot tell by name (its own and Hadoop's WordCount and Sort examples)")
  String workload;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (workload != null && !HistoryImport.WORKLOADS.contains(workload)) {
      err.println("faultbed: --workload: expected one of " + HistoryImport.WORKLOADS + ", got \"" + workload + "\"");
      return FaultbedCli.BAD_INPUT;
    }
    List<Path> files = new ArrayList<>();
    for (Path input : inputs) {
      if (Files.isDirectory(input)) {
        try (Stream<Path> walk = Files.walk(input)) {
          walk.filter(p -> p.getFileName().toString().endsWith(".jhist")).sorted().forEach(files::add);
        } catch (IOException e) {
          err.println("faultbed: FILE_OR_DIR: cannot read the folder " + input + ": " + e.getMessage());
          return FaultbedCli.BAD_INPUT;
        }
      } else if (Files.isRegularFile(input)) {
        files.add(input);
      } else {
        err.println("faultbed: FILE_OR_DIR: expected a .jhist file or a folder, got " + input + " (not found)");
        return FaultbedCli.BAD_INPUT;
      }
    }
    if (files.isEmpty()) {
      err.println("faultbed: FILE_OR_DIR: expected job history files (.jhist), got none under " + inputs);
      return FaultbedCli.BAD_INPUT;
    }
    String suite = scenario != null ? scenario : out.toAbsolutePath().getFileName().toString();
    RecordStore store = new RecordStore(out);
    int firstIndex = Files.isDirectory(out) ? (int) store.readAll().stream().filter(r -> r.variant().equals(variant)).count() : 0;
    List<RunRecord> records = new ArrayList<>();
    for (Path file : files) {
      try {
        records.add(HistoryImport.read(file, suite, variant, firstIndex + records.size(), workload));
      } catch (IllegalArgumentException e) {
        err.println("faultbed: FILE_OR_DIR: " + e.getMessage());
        return FaultbedCli.BAD_INPUT;
      }
    }
    PrintWriter o = spec.commandLine().getOut();
    for (RunRecord r : records) {
      store.write(r);
      o.printf("%s: %s %s, %d maps, %d reduces on %d nodes, %s%n", r.runId(), r.workload().type(), r.job().state(),
          r.job().maps(), r.job().reduces(), r.cluster().nodes(),
          r.job().finishedMs() == null ? "no end" : String.format("%.1f s", r.job().finishedMs() / 1000.0));
    }
    o.printf("%d jobs imported into %s as variant \"%s\"%n", records.size(), out, variant);
    return 0;
  }
}
