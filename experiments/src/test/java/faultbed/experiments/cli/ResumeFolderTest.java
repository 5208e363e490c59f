package faultbed.experiments.cli;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import faultbed.results.RecordStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which folders {@code run --resume} continues, starts or refuses: one command serves every sitting of
 * a long suite, and nothing recorded is ever run over by another scenario.
 */
class ResumeFolderTest {
  private static final String SCENARIO = """
      { "name": "r", "workload": { "type": "sort", "size": "1MB" }, "runs": 3, "seed": 1 }
      """;

  @Test
  void aFolderWithoutRecordsIsStartedAndOneWithAnotherScenariosRecordsIsRefused(@TempDir Path tmp) throws IOException {
    Path scenario = Files.writeString(tmp.resolve("r.json"), SCENARIO);
    Path other = Files.writeString(tmp.resolve("other.json"), SCENARIO.replace("\"runs\": 3", "\"runs\": 4"));
    assertNull(FaultbedCli.Run.resumeRefusal(tmp.resolve("missing"), scenario));
    assertNull(FaultbedCli.Run.resumeRefusal(Files.createDirectories(tmp.resolve("empty")), scenario));

    Path started = Files.createDirectories(tmp.resolve("started"));
    Files.copy(other, started.resolve(RecordStore.SCENARIO_COPY));
    assertNull(FaultbedCli.Run.resumeRefusal(started, scenario), "a scenario copy alone holds no run to lose");
    assertNull(FaultbedCli.Run.newFolderRefusal(started));

    Files.writeString(started.resolve("other-000.json"), "{}");
    assertNotNull(FaultbedCli.Run.resumeRefusal(started, scenario));
    assertNull(FaultbedCli.Run.resumeRefusal(started, other));
    assertNotNull(FaultbedCli.Run.newFolderRefusal(started));
  }
}
