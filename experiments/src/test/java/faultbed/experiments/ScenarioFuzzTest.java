package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import faultbed.experiments.cli.FaultbedCli;
import faultbed.experiments.scenario.ScenarioException;
import faultbed.experiments.scenario.ScenarioParser;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Generated bad input for what faultbed reads before it starts anything: the committed scenarios
 * mutated (values of another type, numbers out of range, unknown and deleted fields, duplicated
 * keys, parts of other files in the wrong place, truncated text, random bytes, deep nesting, huge
 * and unicode strings), inventories mutated the same way, and argument lists for the commands that
 * read files and start nothing. Each must give exit 0, or exit 2 with one line naming the field (or
 * argument) and no stack trace; never an internal error.
 *
 * <p>The test command runs a bounded number of tries per property with a fixed seed; the long run
 * is {@code -Dfaultbed.fuzz.tries=100000} (tries per property: name one with -Dtest to run only it).
 */
@AddLifecycleHook(value = ScenarioFuzzTest.TriesFromSystemProperty.class,
    propagateTo = PropagationMode.DIRECT_DESCENDANTS)
class ScenarioFuzzTest {
  /** Fixed, so the bounded run is the same inputs every time; jqwik prints it with any failure. */
  private static final String SEED = "20261128";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path[] SCENARIO_FOLDERS = {Path.of("scenarios"), Path.of("..", "ci", "scenarios"),
      Path.of("..", "ci", "sim")};
  private static final Path RECORDS = Path.of("..", "results", "src", "test", "resources", "records", "quickstart");
  /** A scenario's top-level fields: an exit-2 line names one of them (or the file as a whole, "scenario"). */
  private static final Set<String> TOP_FIELDS = Stream.concat(Stream.of("scenario"),
      faultbed.results.ScenarioFormat.TOP.fields().stream()).collect(java.util.stream.Collectors.toSet());
  /** How long an exit-2 line may be beyond the file's name: one line a person reads, even for a huge value. */
  private static final int MOST_CHARACTERS = 1_000;

  private static List<Named> scenarios;
  /** Every fault of the committed scenarios, without its "at": what 'cluster fault' is asked to inject. */
  private static List<Named> faults;
  private static List<Named> records;
  private static Path work;

  /** A committed file's name and its JSON. */
  record Named(String name, JsonNode json) {
    @Override
    public String toString() {
      return name;
    }
  }

  record Result(int code, String out, String err) {}

  /** -Dfaultbed.fuzz.tries=N: every property here tries N inputs instead of its bounded count (the long run). */
  static final class TriesFromSystemProperty implements AroundPropertyHook {
    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
      String tries = System.getProperty("faultbed.fuzz.tries");
      if (tries != null && !tries.isBlank()) {
        context.attributes().setTries(Integer.parseInt(tries.strip()));
      }
      return property.execute();
    }
  }

  /**
   * A valid scenario that sets the fields no committed one does (slowdowns, mapTimes, expect,
   * faults+, policy parameters, every fault kind and trigger), so that changes reach their checks.
   */
  static final String EVERY_FIELD = """
      { "name": "every-field", "description": "d",
        "cluster": { "nodes": 4, "nodeMemoryMb": 2048, "nodeVcores": 2, "containerMemoryMb": 512, "timeScale": 0.5,
                     "network": "kernel", "backend": "mini" },
        "hadoop": { "mapreduce.map.speculative": true, "yarn.nm.liveness-monitor.expiry-interval-ms": 20000 },
        "workload": { "type": "synthetic", "maps": 4, "reduces": 1, "mapTime": "2s", "reduceTime": "1s",
                      "mapTimes": ["1s", "2s", "500ms", "1.5s"], "recordsPerMap": 10,
                      "slowdowns": [ { "map": 1, "attempt": 0,
                                       "profile": [ { "from": 0, "factor": 2 }, { "from": 0.5, "factor": 3.5 } ] } ] },
        "faults": [
          { "kind": "crash", "node": "most-maps", "spareAm": true, "spareReducers": true, "suppressRst": true,
            "at": { "uniform": ["1s", "4s"], "strata": 3 } },
          { "kind": "freeze", "node": "same", "for": "5s", "at": { "event": "maps-completed", "count": 2 } },
          { "kind": "latency", "node": 1, "delay": "50ms", "jitter": "10ms", "at": { "event": "reducer-in-shuffle" } },
          { "kind": "bandwidth-cap", "node": 2, "rate": "1MB/s", "for": "10s", "at": "0s" },
          { "kind": "slow-node", "node": 3, "cpu": 0.5, "readRate": "10MB/s", "writeRate": "10MB/s", "at": "0s" },
          { "kind": "cpu-hog", "node": "idle", "spinners": 1, "at": "1m" },
          { "kind": "disk-load", "node": "application-master", "writers": 1, "at": "500ms", "for": "0.5h" },
          { "kind": "blackhole", "node": "running-reducer", "for": "3s", "at": "2min" },
          { "kind": "stop", "node": "holding-map-outputs", "at": "1h" },
          { "kind": "rst-suppression", "node": "random", "at": "1s", "for": "2s" },
          { "kind": "packet-loss", "node": 0, "probability": "2.5%", "at": "1s", "for": "4s" }
        ],
        "runs": 2, "seed": -5, "warmup": 0, "jobLimit": "10m", "speculation": "hadoop3/exponential",
        "expect": { "state": "SUCCEEDED", "speculated": false, "failedMaps": 0,
                    "backedUp": { "map 1": true, "reduce 0": false } },
        "reference": "base",
        "variants": {
          "base": { "faults": [], "workload": { "concurrentJobs": 2 } },
          "late": { "speculation": { "policy": "late", "params": { "slowTaskThreshold": 0.25 } }, "faults+": [
            { "kind": "crash", "node": 0, "at": "3s" } ], "runs": 3, "jobLimit": "5m",
            "expect": { "state": "FAILED" }, "description": "v" },
          "own.1_x-y": {
            "speculation": { "speculator": "org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator" },
            "cluster": { "nodes": 3, "network": "toxiproxy" }, "hadoop": { "a.b": "c" },
            "workload": { "type": "synthetic", "maps": 2, "mapTimes": ["1s", "1s"],
                          "slowdowns": [ { "map": 0, "profile": [ { "from": 0.1, "factor": 1.5 } ] } ] },
            "faults": [ { "kind": "latency", "node": 0, "delay": "5ms", "at": "1s" } ] }
        }
      }
      """;

  @BeforeContainer
  static void load() throws IOException {
    scenarios = new ArrayList<>();
    scenarios.add(new Named("every-field", JSON.readTree(EVERY_FIELD)));
    for (Path folder : SCENARIO_FOLDERS) {
      try (Stream<Path> files = Files.list(folder)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
          scenarios.add(new Named(f.getFileName().toString(), JSON.readTree(f.toFile())));
        }
      }
    }
    faults = new ArrayList<>();
    for (Named s : scenarios) {
      List<JsonNode> lists = new ArrayList<>(s.json().findValues("faults"));
      lists.addAll(s.json().findValues("faults+"));
      for (JsonNode list : lists) {
        for (JsonNode f : list) {
          ObjectNode live = ((ObjectNode) f).deepCopy();
          live.remove("at");
          faults.add(new Named(s.name() + " fault " + faults.size(), live));
        }
      }
    }
    records = new ArrayList<>();
    try (Stream<Path> files = Files.list(RECORDS)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        records.add(new Named(f.getFileName().toString(), JSON.readTree(f.toFile())));
      }
    }
    assertFalse(scenarios.isEmpty(), "no committed scenarios: run from the experiments module");
    work = Files.createTempDirectory("scenario-fuzz");
  }

  @AfterContainer
  static void clean() throws IOException {
    delete(work);
  }

  // ---- the properties ----

  @Property(tries = 600, seed = SEED, afterFailure = AfterFailureMode.PREVIOUS_SEED,
      edgeCases = EdgeCasesMode.NONE)
  void aMutatedScenarioIsValidOrOneLineNamingTheField(@ForAll("mutatedScenarios") Mutated scenario)
      throws IOException {
    Path file = work.resolve("scenario.json");
    Files.write(file, scenario.bytes());
    assertValidOrOneNamedLine(file, cli("validate", file.toString()));
  }

  /**
   * A request to 'cluster fault' (the scenario's fault without "at", read by the live cluster as
   * {@code ScenarioParser.liveFault} reads it): accepted, or refused with one line naming a field of
   * the fault; never another exception, which the live cluster would answer as an internal error.
   */
  @Property(tries = 300, seed = SEED, afterFailure = AfterFailureMode.PREVIOUS_SEED,
      edgeCases = EdgeCasesMode.NONE)
  void aMutatedClusterFaultRequestIsTakenOrOneLineNamingTheField(@ForAll("mutatedFaults") Mutated request) {
    String text = new String(request.bytes(), StandardCharsets.UTF_8);
    try {
      ScenarioParser.liveFault(text, 4);
    } catch (ScenarioException e) {
      assertEquals(1, e.getMessage().lines().count(), e.getMessage());
      assertTrue(e.field().equals("fault") || e.field().startsWith("fault."), "names a field of the fault: " + e.getMessage());
      assertTrue(e.getMessage().length() < MOST_CHARACTERS, "too long: " + e.getMessage().length());
    }
  }

  @Provide
  Arbitrary<Mutated> mutatedFaults() {
    return mutated(Arbitraries.of(faults), faults);
  }

  @Property(tries = 150, seed = SEED, afterFailure = AfterFailureMode.PREVIOUS_SEED,
      edgeCases = EdgeCasesMode.NONE)
  void aMutatedInventoryIsValidOrOneLineNamingTheField(@ForAll("mutatedInventories") Mutated inventory,
      @ForAll("inventoryPaths") String inventoryPath) throws IOException {
    Path folder = Files.createDirectories(work.resolve("inventory"));
    Files.createDirectories(folder.resolve("conf"));
    Files.writeString(folder.resolve("conf").resolve("yarn-site.xml"), "<configuration/>\n");
    Files.write(folder.resolve("lab.json"), inventory.bytes());
    Path file = Files.writeString(folder.resolve("remote.json"), REMOTE_SCENARIO.replace("\"lab.json\"",
        quote(inventoryPath)));
    Result r = cli("validate", file.toString());
    assertValidOrOneNamedLine(file, r);
  }

  @Property(tries = 100, seed = SEED, afterFailure = AfterFailureMode.PREVIOUS_SEED,
      edgeCases = EdgeCasesMode.NONE)
  void badArgumentsAndFilesForCommandsThatStartNothingGiveOneLine(@ForAll("commandLines") CommandLineInput input)
      throws IOException {
    Path here = Files.createDirectories(work.resolve("cli"));
    try {
      String[] args = input.args(fixtures(here, input));
      Result r = cli(args);
      String line = r.err().strip();
      assertFalse(line.contains("internal error"), "internal error: " + line);
      assertNoStackTrace(line);
      assertTrue(r.code() == 0 || r.code() == 1 || r.code() == 2, "exit " + r.code() + ": " + line);
      if (r.code() == 2) {
        List<String> lines = line.lines().toList();
        // validate says one line for each bad file; the others one line in all
        // (an @FILE argument is FILE's words, as many as they are)
        boolean atFile = Stream.of(args).anyMatch(a -> a.startsWith("@"));
        int most = !input.command().equals("validate") ? 1 : atFile ? Integer.MAX_VALUE : Math.max(1, args.length - 1);
        assertTrue(lines.size() <= most, () -> "at most " + most + " line(s): " + line);
        for (String l : lines) {
          assertTrue(l.startsWith("faultbed: "), l);
          // names what was wrong: an option, a parameter's label, the argument (quoted by picocli, or a file's)
          assertTrue(Pattern.compile("--[a-z]|\\b(DIR|PILOT|BASELINE|CANDIDATE|SCENARIO|PATH|FILE)\\b|'").matcher(l).find()
              || Stream.of(args).anyMatch(a -> l.startsWith(ScenarioException.oneLine("faultbed: " + a + ": ")))
              || atFile && input.command().equals("validate"),
              "names nothing: " + l);
          assertTrue(l.length() < MOST_CHARACTERS + here.toString().length() * 3, "too long: " + l.length());
        }
      }
    } finally {
      delete(here);
    }
  }

  /**
   * A whole number beyond what its field holds is refused, naming that field: read into an int it
   * would wrap around (4294967297 maps as 1) and be accepted as another, valid number.
   */
  @Property(tries = 100, seed = SEED, afterFailure = AfterFailureMode.PREVIOUS_SEED,
      edgeCases = EdgeCasesMode.NONE)
  void aWholeNumberBeyondItsFieldIsRefusedNamingTheField(@ForAll("wholeNumbers") NumberAt number,
      @ForAll("beyondAnInt") String value) throws IOException {
    boolean isSeed = number.path().equals("seed");
    // the seed takes any long; only beyond that is it refused
    String raw = isSeed ? "9223372036854775808" : value;
    JsonNode root = number.scenario().json().deepCopy();
    replaceAt(root, number.pointer(), raw);
    Path file = work.resolve("number.json");
    Files.writeString(file, text(root, raw));
    Result r = cli("validate", file.toString());
    assertEquals(2, r.code(), () -> number + " = " + raw + ": " + r.out() + r.err());
    assertValidOrOneNamedLine(file, r);
    assertTrue(r.err().contains(": " + number.path() + ": "), () -> "names " + number.path() + ": " + r.err());
  }

  /** The files the changes start from are valid: a change is what makes them wrong. */
  @Example
  void everyFileTheChangesStartFromIsValid() throws IOException {
    for (Named s : scenarios) {
      Path file = Files.writeString(work.resolve(s.name()), JSON.writeValueAsString(s.json()));
      Result r = cli("validate", file.toString());
      assertEquals(0, r.code(), () -> s + ": " + r.err());
    }
  }

  // ---- defects the properties found, kept as examples ----

  /**
   * Jackson's own limits (1000 levels deep, 1000 digits) stop it with no place in the text: that was
   * a NullPointerException, exit 4.
   */
  @Example
  void textNestedTooDeepOrANumberTooLongIsOneLine() throws IOException {
    String deep = "[".repeat(1_001) + "]".repeat(1_001);
    for (String text : List.of("{ \"workload\": " + deep + " }", "{ \"runs\": 1" + "0".repeat(1_000) + " }")) {
      Path file = Files.writeString(work.resolve("deep.json"), text);
      Result r = cli("validate", file.toString());
      assertValidOrOneNamedLine(file, r);
      assertTrue(r.err().contains(": scenario: expected valid JSON, but "), r.err());
    }
    Path folder = Files.createDirectories(work.resolve("deep-inventory"));
    Files.writeString(folder.resolve("lab.json"), "{ \"workers\": " + deep + " }");
    Path scenario = Files.writeString(folder.resolve("remote.json"), REMOTE_SCENARIO);
    Result r = cli("validate", scenario.toString());
    assertValidOrOneNamedLine(scenario, r);
    assertTrue(r.err().contains(": cluster.inventory: lab.json: inventory: expected valid JSON, but "), r.err());
    ScenarioException live = org.junit.jupiter.api.Assertions.assertThrows(ScenarioException.class,
        () -> ScenarioParser.liveFault(deep, 4));
    assertTrue(live.getMessage().startsWith("fault: expected a JSON object such as"), live.getMessage());
  }

  /** A value of 100,000 characters echoed back made a line of 100,000 characters; it is cut in the middle. */
  @Example
  void aHugeValueIsCutInTheMiddleOfItsLine() throws IOException {
    Path file = Files.writeString(work.resolve("huge.json"), "{ \"workload\": { \"type\": \"sort\", \"size\": \"1MB\" },"
        + " \"speculation\": \"" + "a".repeat(100_000) + "\" }");
    Result r = cli("validate", file.toString());
    assertValidOrOneNamedLine(file, r);
    assertTrue(r.err().contains(": speculation: expected \"off\"") && r.err().contains(" characters ...] "), r.err());
  }

  /** Bytes not in UTF-8 said "cannot read FILE: Input length = 1"; a folder, "cannot read FILE: Is a directory". */
  @Example
  void bytesThatAreNotUtf8OrAFolderAreNamedForWhatTheyAre() throws IOException {
    Path file = Files.write(work.resolve("latin1.json"), new byte[] {'{', '"', 'n', 'a', 'm', 'e', '"', ':', '"', (byte) 0xe9,
        '"', '}'});
    Result r = cli("validate", file.toString());
    assertValidOrOneNamedLine(file, r);
    assertTrue(r.err().contains(": scenario: expected JSON text in UTF-8, but " + file + " holds bytes that are not"), r.err());
    Path folder = Files.createDirectories(work.resolve("a-folder.json"));
    Result f = cli("validate", folder.toString());
    assertValidOrOneNamedLine(folder, f);
    assertTrue(f.err().contains(": scenario: expected a scenario file, but " + folder + " is a folder"), f.err());
  }

  /**
   * Paths no file can have (a NUL, half a surrogate pair) were picocli's "InvalidPathException" in an
   * argument and an internal error in --classpath; line breaks in arguments and file names broke the line.
   */
  @Example
  void argumentsNoFileCanHaveOrWithLineBreaksGiveOneLine() throws IOException {
    Path good = Files.writeString(work.resolve("good.json"), "{ \"workload\": { \"type\": \"sort\", \"size\": \"1MB\" } }");
    List<String[]> commands = List.of(
        new String[] {"validate", "a\u0000b"},
        new String[] {"validate", "--classpath", "a\u0000b", good.toString()},
        new String[] {"validate", "--classpath", "\uD800", good.toString()},
        new String[] {"validate", "line\nbreak"},
        new String[] {"run", "line\nbreak"},
        new String[] {"plan", "line\nbreak"},
        new String[] {"compare", "line\nbreak", "line\nbreak"},
        new String[] {"report", "line\nbreak"},
        new String[] {"report", work.toString(), "extra\nargument"});
    for (String[] args : commands) {
      Result r = cli(args);
      String line = r.err().strip();
      assertEquals(2, r.code(), () -> List.of(args) + ": " + line);
      assertEquals(1, line.lines().count(), () -> List.of(args) + ": one line: " + line);
      assertTrue(line.startsWith("faultbed: "), line);
      assertNoStackTrace(line);
    }
  }

  /** An internal error whose message UTF-8 cannot encode lost its stack trace: the log could not be written. */
  @Example
  void anInternalErrorIsLoggedWhateverItsMessageHolds() throws IOException {
    StringWriter err = new StringWriter();
    picocli.CommandLine cli = FaultbedCli.commandLine(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
    cli.addSubcommand("fail", new picocli.CommandLine(new Failing()));
    assertEquals(4, cli.execute("fail"));
    String line = err.toString().strip();
    Path log = Path.of(line.substring(line.indexOf("stack trace in ") + 15, line.length() - 1));
    try {
      assertTrue(Files.readString(log).contains("half of a pair"), log.toString());
    } finally {
      Files.deleteIfExists(log);
    }
  }

  @picocli.CommandLine.Command(name = "fail")
  static final class Failing implements java.util.concurrent.Callable<Integer> {
    @Override
    public Integer call() {
      throw new IllegalStateException("half of a pair: \uD800");
    }
  }

  // ---- what an exit-2 line must look like ----

  /** Exit 0 (and nothing on stderr), or exit 2 and one line "faultbed: FILE: FIELD: what was expected". */
  static void assertValidOrOneNamedLine(Path file, Result r) {
    String err = r.err().strip();
    assertFalse(err.contains("internal error"), "internal error: " + err);
    assertNoStackTrace(err);
    if (r.code() == 0) {
      assertEquals("", err, "valid, yet a line on stderr");
      return;
    }
    if (r.code() == 3) {
      // this machine lacks something: only for a scenario that is itself valid
      ScenarioParser.parse(file);
      return;
    }
    assertEquals(2, r.code(), "exit " + r.code() + ": " + err);
    assertEquals(1, err.lines().count(), "one line: " + err);
    String prefix = "faultbed: " + file + ": ";
    assertTrue(err.startsWith(prefix), "names the file: " + err);
    String rest = err.substring(prefix.length());
    assertTrue(rest.length() <= MOST_CHARACTERS, () -> "one line a person reads, not " + rest.length()
        + " characters: " + abbreviate(rest, 300));
    Matcher m = Pattern.compile("^(?<field>\\S.*?): (?<what>\\S.{5,})$").matcher(rest);
    assertTrue(m.matches(), "FIELD: what was expected: " + rest);
    String head = m.group("field").split("[.\\[]", 2)[0];
    assertTrue(TOP_FIELDS.contains(head) || rest.contains("unknown field"), "names a field: " + rest);
  }

  private static void assertNoStackTrace(String err) {
    assertFalse(err.contains("\tat ") || err.contains("Exception"), "a Java stack trace or exception: " + err);
  }

  static Result cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code;
    try {
      code = FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    } catch (RuntimeException | Error e) {
      throw new AssertionError("thrown out of the command line: " + e, e);
    }
    return new Result(code, out.toString(), err.toString());
  }

  // ---- generated scenarios and inventories: committed files, changed ----

  /** What a change does at the node it picks. */
  enum Change { REPLACE, NUDGE, DELETE, ADD_FIELD, DUPLICATE_KEY, SPLICE, WRAP_IN_ARRAY, WRAP_IN_OBJECT }

  /** How NUDGE changes a number, or a size's, duration's or rate's: near and far from the value the file had. */
  static final List<String> NUDGES = List.of("*-1", "*0", "*0.001", "*0.5", "*2", "*3", "*10", "*1000", "*1000000",
      "*1000000000000", "+1", "-1");
  private static final Pattern NUMBER_WITH_UNIT = Pattern.compile("^(\\d+(?:\\.\\d+)?)(\\s*[A-Za-z/%]*)$");

  /** What is done to the text once written, if anything. */
  enum Damage { NONE, TRUNCATE, INSERT_BYTES, DROP_CHARACTER, RANDOM_BYTES }

  /**
   * One change: {@code node} picks the node (modulo how many there are), {@code raw} is the JSON text
   * of a new value, {@code name} a field name, {@code from} the committed file and node a splice takes.
   */
  record Mutation(Change change, int node, String raw, String name, int from, int fromNode) {
    @Override
    public String toString() {
      return change + "@" + node + switch (change) {
        case REPLACE, ADD_FIELD, DUPLICATE_KEY -> " " + (change == Change.ADD_FIELD ? quote(name) + ": " : "") + abbreviate(raw);
        case SPLICE -> " from " + from + "@" + fromNode;
        case NUDGE -> " " + NUDGES.get(fromNode % NUDGES.size());
        default -> "";
      };
    }
  }

  /** A file made from {@code base} by {@code mutations}, then {@code damage} to its text at {@code where} (0..1). */
  record Mutated(Named base, List<Named> donors, List<Mutation> mutations, Damage damage, double where,
      byte[] bytesToInsert) {
    byte[] bytes() {
      return mutate(base.json(), donors, mutations, damage, where, bytesToInsert);
    }

    @Override
    public String toString() {
      String text = new String(bytes(), StandardCharsets.UTF_8);
      return base + " " + mutations + (damage == Damage.NONE ? "" : " " + damage + "@" + where)
          + "\n--- text:\n" + abbreviate(text, 3000);
    }
  }

  @Provide
  Arbitrary<Mutated> mutatedScenarios() {
    return mutated(Arbitraries.of(scenarios), scenarios);
  }

  /** An inventory of two workers with every field set, as a lab's would be. */
  static final String INVENTORY = """
      { "$schema": "../schema/inventory.schema.json", "name": "lab", "clientConfig": "conf",
        "resourceManager": "master:8032", "jobHistory": "master:19888",
        "ssh": { "user": "ops", "port": 22, "key": "keys/id", "knownHosts": "~/lab_known_hosts",
                 "become": { "helper": "/usr/local/sbin/faultbed-host" } },
        "nodeManagerStart": ["systemctl", "start", "hadoop-yarn-nodemanager"],
        "workers": [
          { "name": "w1", "address": "198.18.7.11" },
          { "name": "w2", "address": "198.18.7.12", "ssh": { "port": 2222, "user": "root", "become": "root" },
            "nodeManagerStart": ["sudo", "-n", "systemctl", "start", "nm"] } ] }
      """;
  /** A scenario on the remote backend that reads the inventory: parsed only, nothing is contacted. */
  static final String REMOTE_SCENARIO = """
      { "cluster": { "backend": "remote", "inventory": "lab.json" },
        "workload": { "type": "sort", "size": "1MB" },
        "faults": [ { "kind": "crash", "node": 1, "at": "5s" } ] }
      """;

  @Provide
  Arbitrary<Mutated> mutatedInventories() {
    try {
      Named inventory = new Named("inventory", JSON.readTree(INVENTORY));
      return mutated(Arbitraries.just(inventory), List.of(inventory));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The scenario's path to its inventory: mostly the real one, else an odd one. */
  @Provide
  Arbitrary<String> inventoryPaths() {
    return Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.just("lab.json")), Tuple.of(2, Arbitraries.of(PATHS)));
  }

  private static Arbitrary<Mutated> mutated(Arbitrary<Named> bases, List<Named> donors) {
    Arbitrary<Mutation> mutation = Combinators.combine(
        Arbitraries.frequency(Tuple.of(5, Change.REPLACE), Tuple.of(3, Change.NUDGE), Tuple.of(2, Change.DELETE),
            Tuple.of(2, Change.ADD_FIELD),
            Tuple.of(1, Change.DUPLICATE_KEY), Tuple.of(2, Change.SPLICE), Tuple.of(1, Change.WRAP_IN_ARRAY),
            Tuple.of(1, Change.WRAP_IN_OBJECT)),
        Arbitraries.integers().between(0, 100_000), rawValues(), fieldNames(),
        Arbitraries.integers().between(0, donors.size() - 1), Arbitraries.integers().between(0, 100_000))
        .as(Mutation::new);
    return Combinators.combine(bases, mutation.list().ofMinSize(1).ofMaxSize(4),
        Arbitraries.frequency(Tuple.of(14, Damage.NONE), Tuple.of(2, Damage.TRUNCATE), Tuple.of(2, Damage.INSERT_BYTES),
            Tuple.of(1, Damage.DROP_CHARACTER), Tuple.of(1, Damage.RANDOM_BYTES)),
        Arbitraries.doubles().between(0, 1), Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(12))
        .as((base, ms, damage, where, bytes) -> new Mutated(base, donors, ms, damage, where, bytes));
  }

  /** JSON text of values a field does not expect: other types, numbers out of range, odd strings, deep nesting. */
  static Arbitrary<String> rawValues() {
    Arbitrary<String> otherTypes = Arbitraries.of("null", "true", "false", "\"\"", "\"x\"", "[]", "{}", "[1, 2]",
        "{\"a\": 1}", "[\"5s\", \"1s\"]", "[null]", "{\"\": null}");
    Arbitrary<String> numbers = Arbitraries.of("-1", "0", "-0", "1", "2", "0.5", "1.5", "-1.5", "1e0", "1E9",
        "2147483647", "2147483648", "4294967296", "4294967297", "4294967299", "-2147483648", "-2147483649",
        "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551617",
        "123456789012345678901234567890", "1e309", "-1e309", "1e-400", "4.9e-324", "1.7976931348623157e308",
        "0.1e1", "100000", "1" + "0".repeat(400), "1" + "0".repeat(1200), "0." + "0".repeat(1200) + "1");
    Arbitrary<String> randomNumbers = Arbitraries.oneOf(Arbitraries.longs().map(String::valueOf),
        Arbitraries.doubles().map(d -> Double.isFinite(d) ? String.valueOf(d) : "1e309"),
        Arbitraries.integers().between(-3, 300).map(String::valueOf));
    Arbitrary<String> nanLike = Arbitraries.of("\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"1e309\"", "\"0x10\"",
        "\"-0\"", "\"١٢٣\"", "\"½\"");
    Arbitrary<String> unitLike = Combinators.combine(
        Arbitraries.of("0", "-1", "1", "1.5", "0.0001", ".5", "5.", "1e3", "99999999999999999999", "1" + "0".repeat(400),
            "", " ", "NaN", "٣"),
        Arbitraries.of("ms", "s", "m", "min", "h", "d", "", " s", "S", "B", "KB", "MB", "GB", "TB", "PB", "EB",
            "MB/s", "B/s", "GB/s", "kb/s", "%"))
        .as((n, unit) -> quote(n + unit));
    Arbitrary<String> names = Arbitraries.of("random", "same", "most-maps", "running-reducer", "holding-map-outputs",
        "application-master", "idle", "sort", "wordcount", "synthetic", "off", "hadoop3", "hadoop3/", "hadoop3/legacy",
        "hadoop3/java.lang.String", "late", "late-history", "samr", "base", "kernel", "toxiproxy", "mini", "namespace",
        "containers", "remote", "sim", "crash", "freeze", "slow-node", "bandwidth-cap", "latency", "maps-completed",
        "maps-running", "reducer-in-shuffle", "SUCCEEDED", "map 0", "reduce -1", "java.lang.Object", "faultbed.NoSuchClass",
        "root", "sudo", "master:8032", "master:99999999", "host:", "conf", "lab.json", ".", "..", "/", "~", "~/",
        "../../../..", "/dev/null", "/proc/self", "nowhere/x.json", "scenario.json", "a b", "a\u0000b", "\u0000",
        "line\nbreak", "tab\there", "\r", "\u2028", "é", "日本語", "\uD83D\uDE00", "\uFEFF", "\\", "\"", "%n", "%s",
        "${user.home}", "http://127.0.0.1:8474", "http://127.0.0.1:0", "http://:8474", "http://[::1", "file:///etc");
    Arbitrary<String> paths = Arbitraries.of(PATHS).map(ScenarioFuzzTest::quote);
    Arbitrary<String> randomStrings = Arbitraries.strings().all().ofMaxLength(24).map(ScenarioFuzzTest::quote);
    Arbitrary<String> huge = Arbitraries.of(1_000, 70_000).map(n -> quote("a".repeat(n)));
    Arbitrary<String> deep = Arbitraries.of(50, 999, 1_001, 2_500).flatMap(depth -> Arbitraries.of(
        "[".repeat(depth) + "]".repeat(depth), "{\"a\": ".repeat(depth) + "1" + "}".repeat(depth),
        "[".repeat(depth)));
    return Arbitraries.frequencyOf(Tuple.of(3, otherTypes), Tuple.of(4, numbers), Tuple.of(2, randomNumbers),
        Tuple.of(1, nanLike), Tuple.of(3, unitLike), Tuple.of(4, names.map(ScenarioFuzzTest::quote)), Tuple.of(2, paths),
        Tuple.of(2, randomStrings), Tuple.of(1, huge), Tuple.of(1, deep));
  }

  /** Paths a file may name (an inventory, its client configuration, keys): odd ones, and ones no file can have. */
  static final List<String> PATHS = List.of("lab.json", "conf", "conf/yarn-site.xml", "", " ", ".", "..", "/", "~",
      "~/", "~user/x", "a\u0000b", "conf\u0000", "\u0000", "/dev/null", "/proc/self/root", "conf/", "lab.json/",
      "missing.json", "../../../../../..", "a".repeat(300), "a/".repeat(2000), "é/日本", "line\nbreak", "C:\\x",
      "file:///etc", "remote.json");

  /** Field names: real ones (in the wrong place, or again), and odd ones. */
  static Arbitrary<String> fieldNames() {
    return Arbitraries.oneOf(Arbitraries.of("name", "nodes", "backend", "inventory", "network", "timeScale", "type",
        "size", "maps", "reduces", "concurrentJobs", "slowdowns", "kind", "node", "at", "for", "uniform", "strata",
        "event", "count", "faults", "faults+", "runs", "seed", "warmup", "variants", "speculation", "policy",
        "params", "speculator", "expect", "state", "jobLimit", "pin", "placement", "stealing", "reference", "cpu", "rate", "delay", "probability", "spareAm",
        "workers", "ssh", "port", "become", "sudo", "helper", "address", "clientConfig", "$schema", "", " ", "line\nbreak",
        "\u0000", "é", "a: b", "__proto__"), Arbitraries.strings().all().ofMaxLength(12));
  }

  /** The base's JSON with the changes applied, written out, its text then damaged. */
  static byte[] mutate(JsonNode base, List<Named> donors, List<Mutation> mutations, Damage damage, double where,
      byte[] insert) {
    JsonNode root = base.deepCopy();
    Map<String, String> raws = new java.util.LinkedHashMap<>();
    for (Mutation m : mutations) {
      root = apply(root, m, donors, raws);
    }
    String text;
    try {
      text = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (Map.Entry<String, String> e : raws.entrySet()) {
      text = text.replace(quote(e.getKey()), e.getValue());
    }
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    int at = (int) Math.min(bytes.length, Math.floor(where * bytes.length));
    return switch (damage) {
      case NONE -> bytes;
      case TRUNCATE -> java.util.Arrays.copyOf(bytes, at);
      case INSERT_BYTES -> {
        byte[] out = new byte[bytes.length + insert.length];
        System.arraycopy(bytes, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(bytes, at, out, at + insert.length, bytes.length - at);
        yield out;
      }
      case DROP_CHARACTER -> {
        if (bytes.length == 0 || at >= bytes.length) {
          yield bytes;
        }
        byte[] out = new byte[bytes.length - 1];
        System.arraycopy(bytes, 0, out, 0, at);
        System.arraycopy(bytes, at + 1, out, at, bytes.length - at - 1);
        yield out;
      }
      case RANDOM_BYTES -> insert;
    };
  }

  /** A node of the tree and where it hangs: its parent and its field name or index (none for the root). */
  private record Place(JsonNode node, ContainerNode<?> parent, String field, int index) {}

  private static JsonNode apply(JsonNode root, Mutation m, List<Named> donors, Map<String, String> raws) {
    List<Place> places = new ArrayList<>();
    collect(root, null, null, -1, places);
    String marker = "@@fuzz-" + raws.size() + "@@";
    switch (m.change()) {
      case REPLACE -> {
        raws.put(marker, m.raw());
        return replace(root, places.get(m.node() % places.size()), TextNode.valueOf(marker));
      }
      case NUDGE -> {
        List<Place> numeric = places.stream().filter(p -> p.node().isNumber()
            || p.node().isTextual() && NUMBER_WITH_UNIT.matcher(p.node().asText()).matches()).toList();
        if (numeric.isEmpty()) {
          return root;
        }
        Place p = numeric.get(m.node() % numeric.size());
        Matcher number = NUMBER_WITH_UNIT.matcher(p.node().asText());
        String unit = p.node().isNumber() || !number.matches() ? "" : number.group(2);
        java.math.BigDecimal v = p.node().isNumber() ? p.node().decimalValue() : new java.math.BigDecimal(number.group(1));
        String nudge = NUDGES.get(m.fromNode() % NUDGES.size());
        java.math.BigDecimal by = new java.math.BigDecimal(nudge.substring(1));
        java.math.BigDecimal changed = nudge.startsWith("*") ? v.multiply(by) : v.add(by);
        String plain = changed.stripTrailingZeros().toPlainString();
        raws.put(marker, p.node().isNumber() ? plain : quote(plain + unit));
        return replace(root, p, TextNode.valueOf(marker));
      }
      case DELETE -> {
        List<Place> children = places.stream().filter(p -> p.parent() != null).toList();
        if (children.isEmpty()) {
          return root;
        }
        Place p = children.get(m.node() % children.size());
        if (p.parent() instanceof ObjectNode o) {
          o.remove(p.field());
        } else {
          ((ArrayNode) p.parent()).remove(p.index());
        }
        return root;
      }
      case ADD_FIELD, DUPLICATE_KEY -> {
        List<ObjectNode> objects = places.stream().map(Place::node).filter(JsonNode::isObject)
            .map(ObjectNode.class::cast).filter(o -> m.change() == Change.ADD_FIELD || !o.isEmpty()).toList();
        if (objects.isEmpty()) {
          return root;
        }
        ObjectNode o = objects.get(m.node() % objects.size());
        raws.put(marker, m.raw());
        if (m.change() == Change.ADD_FIELD) {
          o.set(m.name(), TextNode.valueOf(marker));
        } else {
          // a second field of the same name: only text can say it, so a marker key is swapped for it
          List<String> names = new ArrayList<>();
          o.fieldNames().forEachRemaining(names::add);
          String keyMarker = "@@fuzz-key-" + raws.size() + "@@";
          raws.put(keyMarker, quote(names.get(m.node() % names.size())));
          o.set(keyMarker, TextNode.valueOf(marker));
        }
        return root;
      }
      case SPLICE -> {
        List<Place> from = new ArrayList<>();
        collect(donors.get(m.from() % donors.size()).json(), null, null, -1, from);
        JsonNode piece = from.get(m.fromNode() % from.size()).node().deepCopy();
        return replace(root, places.get(m.node() % places.size()), piece);
      }
      case WRAP_IN_ARRAY, WRAP_IN_OBJECT -> {
        Place p = places.get(m.node() % places.size());
        JsonNode wrapped = m.change() == Change.WRAP_IN_ARRAY ? JSON.createArrayNode().add(p.node().deepCopy())
            : JSON.createObjectNode().set(p.field() != null ? p.field() : "a", p.node().deepCopy());
        return replace(root, p, wrapped);
      }
      default -> throw new IllegalStateException(m.change().name());
    }
  }

  private static JsonNode replace(JsonNode root, Place p, JsonNode with) {
    if (p.parent() == null) {
      return with;
    }
    if (p.parent() instanceof ObjectNode o) {
      o.set(p.field(), with);
    } else {
      ((ArrayNode) p.parent()).set(p.index(), with);
    }
    return root;
  }

  private static void collect(JsonNode n, ContainerNode<?> parent, String field, int index, List<Place> out) {
    out.add(new Place(n, parent, field, index));
    if (n instanceof ObjectNode o) {
      List<String> names = new ArrayList<>();
      o.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        collect(o.get(name), o, name, -1, out);
      }
    } else if (n instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        collect(a.get(i), a, null, i, out);
      }
    }
  }

  // ---- whole numbers of the committed scenarios ----

  /** A whole number in a committed scenario: where it is as a JSON pointer and as faultbed names the field. */
  record NumberAt(Named scenario, String pointer, String path) {
    @Override
    public String toString() {
      return scenario + " " + path;
    }
  }

  @Provide
  Arbitrary<NumberAt> wholeNumbers() {
    List<NumberAt> all = new ArrayList<>();
    for (Named s : scenarios) {
      numbers(s, s.json(), "", "", all);
    }
    return Arbitraries.of(all);
  }

  @Provide
  Arbitrary<String> beyondAnInt() {
    return Arbitraries.of("2147483648", "4294967296", "4294967297", "4294967300", "-2147483649", "-4294967295",
        "9223372036854775807", "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890");
  }

  private static void numbers(Named s, JsonNode n, String pointer, String path, List<NumberAt> out) {
    if (n.isIntegralNumber()) {
      out.add(new NumberAt(s, pointer, path));
    } else if (n instanceof ObjectNode o) {
      o.fieldNames().forEachRemaining(f -> {
        // Hadoop settings and policy parameters are passed on as text, whatever number they are
        if (!f.equals("hadoop") && !f.equals("params")) {
          numbers(s, o.get(f), pointer + "/" + f.replace("~", "~0").replace("/", "~1"),
              path.isEmpty() ? f : path + "." + f, out);
        }
      });
    } else if (n instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        numbers(s, a.get(i), pointer + "/" + i, path + "[" + i + "]", out);
      }
    }
  }

  private static void replaceAt(JsonNode root, String pointer, String raw) {
    int slash = pointer.lastIndexOf('/');
    JsonNode parent = root.at(pointer.substring(0, slash));
    String last = pointer.substring(slash + 1).replace("~1", "/").replace("~0", "~");
    if (parent instanceof ObjectNode o) {
      o.set(last, TextNode.valueOf("@@number@@"));
    } else {
      ((ArrayNode) parent).set(Integer.parseInt(last), TextNode.valueOf("@@number@@"));
    }
  }

  private static String text(JsonNode root, String raw) throws IOException {
    return JSON.writeValueAsString(root).replace(quote("@@number@@"), raw);
  }

  // ---- generated argument lists ----

  /** A command that reads files and starts nothing, with arguments; {@code {...}} tokens are files made for it. */
  record CommandLineInput(String command, List<String> tokens, byte[] garbage, Mutated record) {
    String[] args(Map<String, Path> files) {
      List<String> args = new ArrayList<>();
      args.add(command);
      for (String t : tokens) {
        String a = t;
        for (Map.Entry<String, Path> f : files.entrySet()) {
          a = a.replace("{" + f.getKey() + "}", f.getValue().toString());
        }
        args.add(a);
      }
      return args.toArray(String[]::new);
    }

    @Override
    public String toString() {
      return command + " " + tokens + " (garbage " + garbage.length + " bytes; a record changed by " + record.mutations()
          + (record.damage() == Damage.NONE ? "" : " " + record.damage() + "@" + record.where()) + ")";
    }
  }

  private static final Map<String, List<String>> OPTIONS = Map.of(
      "validate", List.of("--classpath"),
      "plan", List.of("--variant", "--effect", "--power", "--alpha", "--paired", "--unpaired"),
      "compare", List.of("--max-regression", "--alpha", "--variant", "--baseline-variant", "--candidate-variant",
          "--all-against", "--suites", "--html", "--json"),
      "report", List.of());

  @Provide
  Arbitrary<CommandLineInput> commandLines() {
    Arbitrary<String> files = Arbitraries.of("{records}", "{changed-records}", "{garbage-records}", "{empty-folder}",
        "{missing}", "{garbage}", "{empty}", "{scenario}", "{records}/crash-000.json", "{folder-named-json}",
        "{records}/baseline-000.json", "{html}");
    Arbitrary<String> values = Arbitraries.of("5%", "5", "0", "-1", "1e309", "NaN", "Infinity", "-Infinity", "0.5",
        "1", "0.99999", "", " ", "%", "5%%", "crash", "baseline", "nope", "crash,baseline", "baseline,crash", ",",
        "crash,", "@{garbage}", "@{missing}", "--", "-", "--nope", "-D", "é", "line\nbreak", "a\u0000b", "1/0");
    return Arbitraries.of(OPTIONS.keySet().stream().sorted().toList()).flatMap(command -> {
      List<String> options = new ArrayList<>(OPTIONS.get(command));
      options.add("--help");
      Arbitrary<String> token = Arbitraries.frequencyOf(Tuple.of(4, files), Tuple.of(3, Arbitraries.of(options)),
          Tuple.of(3, values), Tuple.of(1, Arbitraries.strings().all().ofMaxLength(8)));
      return Combinators.combine(token.list().ofMaxSize(6),
          Arbitraries.bytes().array(byte[].class).ofMaxSize(64),
          mutated(Arbitraries.of(records), records))
          .as((tokens, garbage, record) -> new CommandLineInput(command, tokens, garbage, record));
    });
  }

  /** The files an argument list may name, made afresh in {@code here}. */
  private static Map<String, Path> fixtures(Path here, CommandLineInput input) throws IOException {
    Map<String, Path> f = new java.util.LinkedHashMap<>();
    f.put("records", copyRecords(Files.createDirectories(here.resolve("records"))));
    Path changed = copyRecords(Files.createDirectories(here.resolve("changed-records")));
    Files.write(changed.resolve(input.record().base().name()), input.record().bytes());
    f.put("changed-records", changed);
    Path garbageRecords = Files.createDirectories(here.resolve("garbage-records"));
    Files.write(garbageRecords.resolve("run-000.json"), input.garbage());
    f.put("garbage-records", garbageRecords);
    f.put("empty-folder", Files.createDirectories(here.resolve("empty-folder")));
    f.put("missing", here.resolve("missing"));
    f.put("garbage", Files.write(here.resolve("garbage.json"), input.garbage()));
    f.put("empty", Files.write(here.resolve("empty.json"), new byte[0]));
    f.put("scenario", Files.writeString(here.resolve("scenario.json"),
        "{ \"workload\": { \"type\": \"sort\", \"size\": \"1MB\" } }"));
    Path folderNamedJson = Files.createDirectories(here.resolve("folder-named-json"));
    Files.createDirectories(folderNamedJson.resolve("x.json"));
    f.put("folder-named-json", folderNamedJson);
    f.put("html", here.resolve("page.html"));
    return f;
  }

  private static Path copyRecords(Path into) throws IOException {
    try (Stream<Path> files = Files.list(RECORDS)) {
      for (Path p : files.toList()) {
        Files.copy(p, into.resolve(p.getFileName()));
      }
    }
    return into;
  }

  // ---- small helpers ----

  static String quote(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String abbreviate(String s) {
    return abbreviate(s, 80);
  }

  private static String abbreviate(String s, int most) {
    return s.length() <= most ? s : s.substring(0, most) + "...(" + s.length() + " characters)";
  }

  private static void delete(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    // what an input's command left behind may go while this walks (a folder a command removed late)
    Files.walkFileTree(dir, new java.nio.file.SimpleFileVisitor<>() {
      @Override
      public java.nio.file.FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes a)
          throws IOException {
        Files.deleteIfExists(f);
        return java.nio.file.FileVisitResult.CONTINUE;
      }

      @Override
      public java.nio.file.FileVisitResult visitFileFailed(Path f, IOException gone) {
        return java.nio.file.FileVisitResult.CONTINUE;
      }

      @Override
      public java.nio.file.FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
        Files.deleteIfExists(d);
        return java.nio.file.FileVisitResult.CONTINUE;
      }
    });
  }
}
