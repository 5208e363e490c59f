package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The published scenario schema ({@code schema/scenario.schema.json}) says what the parser says: every
 * committed scenario passes both, and scenarios the parser refuses for their shape the schema refuses
 * too. Limits that depend on the machine (nodes against memory, sizes against disk) and on the
 * classpath (speculator classes) are the parser's alone.
 */
class ScenarioSchemaTest {
  private static final Path SCHEMA = Path.of("..", "schema", "scenario.schema.json");
  private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
  private static Schema schema;

  @BeforeAll
  static void load() throws IOException {
    schema = REGISTRY.getSchema(Files.readString(SCHEMA), InputFormat.JSON);
  }

  static List<Error> errors(String scenario) {
    return schema.validate(scenario, InputFormat.JSON);
  }

  /** Every published schema, this one and the inventory's, is a valid draft 2020-12 schema. */
  @Test
  void everyPublishedSchemaIsAValidDraft202012Schema() throws IOException {
    Schema meta = REGISTRY.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
    List<Path> schemas;
    try (Stream<Path> s = Files.list(SCHEMA.getParent())) {
      schemas = s.filter(p -> p.toString().endsWith(".schema.json")).sorted().toList();
    }
    assertEquals(List.of("inventory.schema.json", "scenario.schema.json"),
        schemas.stream().map(p -> p.getFileName().toString()).toList());
    for (Path schemaFile : schemas) {
      List<Error> problems = meta.validate(Files.readString(schemaFile), InputFormat.JSON);
      assertTrue(problems.isEmpty(), () -> schemaFile + ": " + problems);
      // a versioned identifier, so a file or an editor can name the format version it follows
      String kind = schemaFile.getFileName().toString().replace(".schema.json", "");
      String id = new com.fasterxml.jackson.databind.ObjectMapper().readTree(schemaFile.toFile()).path("$id").asText();
      assertTrue(id.matches("https://faultbed\\.dev/schema/" + kind + "/[0-9]+\\.json"), schemaFile + ": $id " + id);
    }
  }

  @Test
  void everyCommittedScenarioPassesTheParserAndTheSchema() throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path dir : List.of(Path.of("scenarios"), Path.of("..", "ci", "scenarios"), Path.of("..", "ci", "cases"),
        Path.of("..", "ci", "sim"))) {
      try (Stream<Path> s = Files.list(dir)) {
        s.filter(p -> p.toString().endsWith(".json")).forEach(files::add);
      }
    }
    try (Stream<Path> s = Files.walk(Path.of("published"))) {
      s.filter(p -> p.getFileName().toString().equals("scenario.json.txt")).forEach(files::add);
    }
    assertTrue(files.size() >= 15, "committed scenarios found: " + files);
    for (Path f : files) {
      String text = Files.readString(f);
      ScenarioParser.parse(text, "x");
      assertEquals(List.of(), errors(text), f.toString());
    }
  }

  private static final String WORKLOAD = "\"workload\": { \"type\": \"sort\", \"size\": \"64MB\" }";

  /** Scenarios both must accept: every shape the format allows appears at least once. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      synthetic times         | { "workload": { "type": "synthetic", "maps": 2, "reduces": 0, "mapTimes": ["1s", "2.5s"], "reduceTime": "500ms", "recordsPerMap": 10 } }
      slowdowns and expect    | { "workload": { "type": "synthetic", "maps": 2, "slowdowns": [ { "map": 1, "attempt": 0, "profile": [ { "from": 0, "factor": 2 }, { "from": 0.5, "factor": 10.5 } ] } ] }, "expect": { "state": "SUCCEEDED", "failedMaps": 0 }, "variants": { "a": { "expect": { "speculated": true, "backedUp": { "map 0": true, "reduce 1": false } }, "workload": { "slowdowns": [ { "map": 0, "profile": [ { "from": 0.4, "factor": 1.2 } ] } ] } } } }
      every fault kind        | { WL, "faults": [ { "kind": "crash", "node": "random", "spareAm": true, "suppressRst": true, "at": "1s" }, { "kind": "stop", "node": 1, "at": "2s" }, { "kind": "rst-suppression", "node": "same", "at": "3s", "for": "4s" }, { "kind": "blackhole", "node": "idle", "at": "3s" }, { "kind": "bandwidth-cap", "node": "most-maps", "at": "1s", "rate": "1.5MB/s" }, { "kind": "latency", "node": 0, "at": "1s", "delay": "20ms", "jitter": "5ms" }, { "kind": "packet-loss", "node": 2, "at": "1s", "probability": 0.05 }, { "kind": "packet-loss", "node": 3, "at": "1s", "for": "5s", "probability": "0.5%" }, { "kind": "disk-load", "node": 0, "at": "1s", "writers": 2, "block": "1MB", "file": 1048576, "direct": false }, { "kind": "cpu-hog", "node": "running-reducer", "at": "1s", "spinners": 2 }, { "kind": "slow-node", "node": "holding-map-outputs", "at": "0s", "readRate": "10MB/s" }, { "kind": "freeze", "node": "application-master", "at": "1s", "for": "2m" } ] }
      every trigger           | { WL, "faults": [ { "kind": "stop", "node": 0, "at": { "uniform": ["1s", "38s"], "strata": 6 } }, { "kind": "stop", "node": 1, "at": { "event": "maps-completed", "count": 8 } }, { "kind": "stop", "node": 2, "at": { "event": "reducer-in-shuffle" } } ] }
      cluster and network     | { "$schema": "../schema/scenario.schema.json", "name": "n", WL, "cluster": { "nodes": 2, "nodeMemoryMb": 2048, "nodeVcores": 2, "containerMemoryMb": 512, "timeScale": 0.05, "backend": "namespace", "network": "kernel" }, "hadoop": { "mapreduce.job.reduce.slowstart.completedmaps": 0.5, "yarn.resourcemanager.am.max-attempts": 2, "mapreduce.map.speculative": true } }
      proxy address           | { WL, "cluster": { "network": { "toxiproxy": "http://127.0.0.1:8474" } } }
      speculation shapes      | { WL, "speculation": "hadoop3/exponential", "reference": "b.2", "variants": { "a": { "speculation": { "policy": "late", "params": { "slowTaskThreshold": 25 } } }, "b.2": { "speculation": "off", "runs": 3 }, "c_3": { "speculation": { "speculator": "org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator" } } } }
      variant changes         | { WL, "faults": [ { "kind": "crash", "node": 0, "at": "5s" } ], "seed": -4, "warmup": 0, "runs": 2, "variants": { "more": { "description": "d", "workload": { "reduces": 8, "concurrentJobs": 2 }, "faults+": [ { "kind": "cpu-hog", "node": 1, "at": "1s" } ], "cluster": { "timeScale": 1 } }, "none": { "faults": [] } } }
      """)
  void shapesTheParserAcceptsTheSchemaAccepts(String what, String scenario) {
    String text = scenario.replace("WL", WORKLOAD);
    ScenarioParser.parse(text, "x");
    assertEquals(List.of(), errors(text), what);
  }

  /** Scenarios both must refuse for their shape. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      no workload             | { "name": "t" }
      unknown top field       | { WL, "run": 3 }
      misspelt cluster field  | { WL, "cluster": { "nodez": 4 } }
      unknown fault kind      | { WL, "faults": [ { "kind": "explode", "node": 0, "at": "5s" } ] }
      field of another kind   | { WL, "faults": [ { "kind": "cpu-hog", "node": 0, "at": "5s", "rate": "1MB/s" } ] }
      fault without a node    | { WL, "faults": [ { "kind": "crash", "at": "5s" } ] }
      fractional node         | { WL, "faults": [ { "kind": "crash", "node": 1.5, "at": "5s" } ] }
      unknown node role       | { WL, "faults": [ { "kind": "crash", "node": "slowest", "at": "5s" } ] }
      duration without unit   | { WL, "faults": [ { "kind": "crash", "node": 0, "at": "5" } ] }
      negative duration       | { WL, "faults": [ { "kind": "crash", "node": 0, "at": { "uniform": ["-5s", "30s"] } } ] }
      unknown event           | { WL, "faults": [ { "kind": "crash", "node": 0, "at": { "event": "lunch" } } ] }
      event without count     | { WL, "faults": [ { "kind": "crash", "node": 0, "at": { "event": "maps-completed" } } ] }
      crash with duration     | { WL, "faults": [ { "kind": "crash", "node": 0, "at": "5s", "for": "10s" } ] }
      zero duration           | { WL, "faults": [ { "kind": "blackhole", "node": 0, "at": "5s", "for": "0s" } ] }
      freeze without duration | { WL, "faults": [ { "kind": "freeze", "node": 1, "at": "5s" } ] }
      latency without delay   | { WL, "faults": [ { "kind": "latency", "node": 0, "at": "5s" } ] }
      loss without probability | { WL, "faults": [ { "kind": "packet-loss", "node": 0, "at": "5s" } ] }
      loss of all packets     | { WL, "faults": [ { "kind": "packet-loss", "node": 0, "at": "5s", "probability": 1 } ] }
      loss of none            | { WL, "faults": [ { "kind": "packet-loss", "node": 0, "at": "5s", "probability": 0 } ] }
      loss of 100 percent     | { WL, "faults": [ { "kind": "packet-loss", "node": 0, "at": "5s", "probability": "100%" } ] }
      loss of 0 percent       | { WL, "faults": [ { "kind": "packet-loss", "node": 0, "at": "5s", "probability": "0%" } ] }
      loss without percent    | { WL, "faults": [ { "kind": "packet-loss", "node": 0, "at": "5s", "probability": "5" } ] }
      negative loss           | { WL, "faults": [ { "kind": "packet-loss", "node": 0, "at": "5s", "probability": -0.1 } ] }
      rate without unit       | { WL, "faults": [ { "kind": "bandwidth-cap", "node": 1, "at": "5s", "rate": "1000" } ] }
      empty slow node         | { WL, "faults": [ { "kind": "slow-node", "node": 0, "at": "0s" } ] }
      zero cores              | { WL, "faults": [ { "kind": "slow-node", "node": 0, "at": "0s", "cpu": 0 } ] }
      unknown workload        | { "workload": { "type": "terasort", "size": "1GB" } }
      sort without size       | { "workload": { "type": "sort" } }
      bad size                | { "workload": { "type": "sort", "size": "lots" } }
      fractional maps         | { "workload": { "type": "sort", "size": "1MB", "maps": 2.5 } }
      zero maps               | { "workload": { "type": "sort", "size": "1MB", "maps": 0 } }
      zero concurrent jobs    | { "workload": { "type": "sort", "size": "1MB", "concurrentJobs": 0 } }
      size on synthetic       | { "workload": { "type": "synthetic", "size": "1MB" } }
      slowdown without profile | { "workload": { "type": "synthetic", "maps": 2, "slowdowns": [ { "map": 0 } ] } }
      slowdown factor below 1 | { "workload": { "type": "synthetic", "maps": 2, "slowdowns": [ { "map": 0, "profile": [ { "from": 0.1, "factor": 0.5 } ] } ] } }
      slowdown at progress 1  | { "workload": { "type": "synthetic", "maps": 2, "slowdowns": [ { "map": 0, "profile": [ { "from": 1, "factor": 2 } ] } ] } }
      unknown expectation     | { WL, "expect": { "speculates": true } }
      expected state unknown  | { WL, "variants": { "a": { "expect": { "state": "DONE" } } } }
      speculated not boolean  | { WL, "expect": { "speculated": "yes" } }
      backup of no task       | { WL, "expect": { "backedUp": { "task 0": true } } }
      zero time scale         | { WL, "cluster": { "timeScale": 0 } }
      unknown network         | { WL, "cluster": { "network": "docker" } }
      unknown backend         | { WL, "cluster": { "backend": "kubernetes" } }
      zero runs               | { WL, "runs": 0 }
      too many runs           | { WL, "runs": 1000000000 }
      runs in exponent form   | { WL, "runs": 1e9 }
      empty name              | { "name": " ", WL }
      unknown policy          | { WL, "speculation": "fastest" }
      policy and speculator   | { WL, "speculation": { "policy": "late", "speculator": "x.Y" } }
      nested hadoop value     | { WL, "hadoop": { "a.b": { "c": 1 } } }
      no variants             | { WL, "variants": {} }
      bad variant name        | { WL, "variants": { "a b": { "runs": 1 } } }
      unknown variant field   | { WL, "variants": { "a": { "seed": 1 } } }
      replace and add faults  | { WL, "variants": { "a": { "faults": [], "faults+": [] } } }
      reference not a string  | { WL, "reference": 1 }
      """)
  void shapesTheParserRefusesTheSchemaRefuses(String what, String scenario) {
    String text = scenario.replace("WL", WORKLOAD);
    assertThrows(ScenarioException.class, () -> ScenarioParser.parse(text, "x"), what);
    assertFalse(errors(text).isEmpty(), what + ": the schema accepted " + text);
  }
}
