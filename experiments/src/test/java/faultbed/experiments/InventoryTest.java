package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import faultbed.experiments.scenario.InventoryParser;
import faultbed.experiments.scenario.ScenarioException;
import faultbed.faults.remote.Become;
import faultbed.faults.remote.SshTarget;
import faultbed.harness.Inventory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Inventory files of the remote backend: what each field means once read (paths against the
 * inventory's folder, SSH settings inherited field by field), one line naming the field for each
 * mistake, and the published schema ({@code schema/inventory.schema.json}) refusing the same shapes
 * (that it is a valid schema at all, {@link ScenarioSchemaTest} checks).
 */
class InventoryTest {
  private static final Path SCHEMA = Path.of("..", "schema", "inventory.schema.json");
  private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
  private static Schema schema;

  @TempDir
  Path dir;

  @BeforeAll
  static void load() throws IOException {
    schema = REGISTRY.getSchema(Files.readString(SCHEMA), InputFormat.JSON);
  }

  @BeforeEach
  void clientConfig() throws IOException {
    Files.createDirectories(dir.resolve("conf"));
    Files.writeString(dir.resolve("conf/yarn-site.xml"), "<configuration/>\n");
  }

  private Inventory read(String json) throws IOException {
    return InventoryParser.parse(Files.writeString(dir.resolve("lab.json"), json));
  }

  @Test
  void aWorkersSshOverridesTheInventorysFieldByField() throws IOException {
    String json = """
        { "name": "lab", "clientConfig": "conf", "resourceManager": "master:8032", "jobHistory": "master:19888",
          "ssh": { "user": "ops", "key": "keys/id", "knownHosts": "~/lab_known_hosts", "become": { "helper": "/usr/local/sbin/faultbed-host" } },
          "workers": [
            { "name": "w1", "address": "198.18.7.11" },
            { "name": "w2", "address": "198.18.7.12", "ssh": { "port": 2222, "become": "sudo" } } ] }
        """;
    assertTrue(schema.validate(json, InputFormat.JSON).isEmpty(), () -> schema.validate(json, InputFormat.JSON).toString());
    Inventory inv = read(json);
    assertEquals("lab", inv.name());
    assertEquals(dir.resolve("conf").toAbsolutePath(), inv.clientConfig());
    assertEquals("master:8032", inv.resourceManager());
    assertEquals("master:19888", inv.jobHistory());
    Path home = Path.of(System.getProperty("user.home"));
    assertEquals(new SshTarget("w1", "198.18.7.11", 22, "ops", dir.resolve("keys/id").toAbsolutePath(),
        home.resolve("lab_known_hosts"), new Become.Helper("/usr/local/sbin/faultbed-host")), inv.workers().get(0));
    SshTarget w2 = inv.worker("w2").orElseThrow();
    assertEquals(2222, w2.port());
    assertEquals("ops", w2.user());
    assertEquals(new Become.Sudo(), w2.become());
  }

  @Test
  void withoutSshSettingsTheRunningUserLogsInWithTheDefaultKey() throws IOException {
    Inventory inv = read("{ \"clientConfig\": \"conf\", \"workers\": [ { \"name\": \"w1\", \"address\": \"w1.lab\" } ] }");
    assertEquals("lab", inv.name(), "the file's name");
    assertEquals(null, inv.resourceManager(), "the configuration's");
    SshTarget w1 = inv.workers().get(0);
    Path home = Path.of(System.getProperty("user.home"));
    String user = System.getProperty("user.name");
    assertEquals(new SshTarget("w1", "w1.lab", 22, user, home.resolve(".ssh/id_ed25519"),
        home.resolve(".ssh/known_hosts"), user.equals("root") ? new Become.Root() : new Become.Sudo()), w1);
    assertInstanceOf(Become.class, w1.become());
  }

  /**
   * A scenario names its inventory relative to itself; its workers become the nodes; a fault kind
   * the remote backend does not make is one line naming the field, before anything starts.
   */
  @Test
  void aScenarioOnTheRemoteBackendReadsItsInventoryAndIsRefusedWhatTheBackendCannotDo() throws IOException {
    read("{ \"clientConfig\": \"conf\", \"workers\": [ { \"name\": \"w1\", \"address\": \"a\" },"
        + " { \"name\": \"w2\", \"address\": \"b\" } ] }");
    String cluster = "\"cluster\": { \"nodes\": 4, \"backend\": \"remote\", \"inventory\": \"lab.json\"";
    String workload = "\"workload\": { \"type\": \"sort\", \"size\": \"1MB\" }";
    var ok = faultbed.experiments.scenario.ScenarioParser.parse(Files.writeString(dir.resolve("ok.json"),
        "{ " + cluster + " }, " + workload + " }"));
    assertEquals(2, ok.variants().get(0).cluster().nodes(), "the inventory's workers are the nodes");
    assertEquals("lab", ok.variants().get(0).cluster().inventory().name());
    // a time scale is for the cluster to allow (its ResourceManager's own timers), checked at start
    var scaled = faultbed.experiments.scenario.ScenarioParser.parse(Files.writeString(dir.resolve("scaled.json"),
        "{ " + cluster + ", \"timeScale\": 0.05 }, " + workload + " }"));
    assertEquals(0.05, scaled.variants().get(0).cluster().timeScale());
    ScenarioException slow = assertThrows(ScenarioException.class, () -> faultbed.experiments.scenario.ScenarioParser
        .parse(Files.writeString(dir.resolve("slow.json"), "{ " + cluster + " }, " + workload + ", \"faults\": [ {"
            + " \"kind\": \"slow-node\", \"node\": 0, \"at\": \"1s\", \"cpu\": 0.5 } ] }")));
    assertEquals("faults[0].kind", slow.field(), slow.getMessage());
    assertTrue(slow.getMessage().contains("the remote backend does not make slow-node faults yet"), slow.getMessage());
  }

  /** A worker's own start command overrides the inventory's; a worker left without one has none. */
  @Test
  void aWorkersNodeManagerStartOverridesTheInventorys() throws IOException {
    Inventory inv = read("{ \"clientConfig\": \"conf\", \"nodeManagerStart\": [\"systemctl\", \"start\", \"nm\"],"
        + " \"workers\": [ { \"name\": \"w1\", \"address\": \"a\" },"
        + " { \"name\": \"w2\", \"address\": \"b\", \"nodeManagerStart\": [\"/opt/start-nm\"] } ] }");
    assertEquals(List.of("systemctl", "start", "nm"), inv.nodeManagerStart().get("w1"));
    assertEquals(List.of("/opt/start-nm"), inv.nodeManagerStart().get("w2"));
    assertEquals(java.util.Map.of(), read("{ \"clientConfig\": \"conf\", \"workers\": [ { \"name\": \"w1\","
        + " \"address\": \"a\" } ] }").nodeManagerStart());
  }

  /** Each mistake: one line naming the field; shape mistakes the schema refuses too. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{\"workers\": [{\"name\": \"w1\", \"address\": \"a\"}]}|clientConfig|expected the folder of the cluster's Hadoop client configuration|true",
      "{\"clientConfig\": \"conf\"}|workers|expected the worker hosts|true",
      "{\"clientConfig\": \"conf\", \"workers\": []}|workers|expected a list of at least one worker host|true",
      "{\"clientConfig\": \"conf\", \"worker\": []}|worker|unknown field|true",
      "{\"clientConfig\": \"conf\", \"workers\": [{\"name\": \"w1\"}]}|workers[0].address|expected a string|true",
      "{\"clientConfig\": \"conf\", \"workers\": [{\"name\": \"w 1\", \"address\": \"a\"}]}|workers[0].name|expected a name of letters|true",
      "{\"clientConfig\": \"conf\", \"workers\": [{\"name\": \"w1\", \"address\": \"a\"}, {\"name\": \"w1\", \"address\": \"b\"}]}|workers[1].name|expected a name no other worker has, got \"w1\" again|false",
      "{\"clientConfig\": \"conf\", \"workers\": [{\"name\": \"w1\", \"address\": \"a\"}, {\"name\": \"w2\", \"address\": \"a\"}]}|workers[1].address|expected an address no other worker has|false",
      "{\"clientConfig\": \"conf\", \"resourceManager\": \"master\", \"workers\": [{\"name\": \"w1\", \"address\": \"a\"}]}|resourceManager|expected host:port, got \"master\"|true",
      "{\"clientConfig\": \"conf\", \"ssh\": {\"port\": 70000}, \"workers\": [{\"name\": \"w1\", \"address\": \"a\"}]}|ssh.port|expected a TCP port, 1 to 65535, got 70000|true",
      "{\"clientConfig\": \"conf\", \"ssh\": {\"port\": 4294967318}, \"workers\": [{\"name\": \"w1\", \"address\": \"a\"}]}|ssh.port|expected a TCP port, 1 to 65535, got 4294967318|true",
      "{\"clientConfig\": \"co\\u0000nf\", \"workers\": [{\"name\": \"w1\", \"address\": \"a\"}]}|clientConfig|expected a path, got \"co\\u0000nf\" (Nul character not allowed)|false",
      "{\"clientConfig\": \"conf\", \"ssh\": {\"user\": \"ops\", \"become\": \"root\"}, \"workers\": [{\"name\": \"w1\", \"address\": \"a\"}]}|ssh.become|\"root\" means the login is root, but the user is \"ops\"|false",
      "{\"clientConfig\": \"conf\", \"ssh\": {\"become\": \"doas\"}, \"workers\": [{\"name\": \"w1\", \"address\": \"a\"}]}|ssh.become|expected \"root\" (the login is root), \"sudo\"|true",
      "{\"clientConfig\": \"conf\", \"workers\": [{\"name\": \"w1\", \"address\": \"a\", \"ssh\": {\"become\": {\"helper\": \"faultbed-host\"}}}]}|workers[0].ssh.become.helper|expected the absolute path faultbed-host is installed at|true",
      "{\"clientConfig\": \"conf\", \"workers\": [{\"name\": \"w1\", \"address\": \"a\", \"ssh\": {\"become\": {\"sudo\": [\"iptables\"]}}}]}|workers[0].ssh.become.sudo|a list of programs for sudo is no longer read|true",
      "{\"clientConfig\": \"nowhere\", \"workers\": [{\"name\": \"w1\", \"address\": \"a\"}]}|clientConfig|expected a folder, but|false",
      "{\"clientConfig\": \"conf\", \"nodeManagerStart\": \"systemctl start nm\", \"workers\": [{\"name\": \"w1\", \"address\": \"a\"}]}|nodeManagerStart|expected a command as a list of words|true",
      "{\"clientConfig\": \"conf\", \"workers\": [{\"name\": \"w1\", \"address\": \"a\", \"nodeManagerStart\": [\"\"]}]}|workers[0].nodeManagerStart[0]|expected a word, got \"\"|true",
  })
  void aMistakeIsOneLineNamingTheField(String json, String field, String expected, boolean schemaRefuses) {
    ScenarioException e = assertThrows(ScenarioException.class, () -> read(json));
    assertEquals(field, e.field(), e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    assertEquals(schemaRefuses, !schema.validate(json, InputFormat.JSON).isEmpty(),
        () -> "schema on " + json + ": " + schema.validate(json, InputFormat.JSON));
  }

  @Test
  void aConfigurationFolderWithoutHadoopFilesIsRefused() throws IOException {
    Files.createDirectories(dir.resolve("empty"));
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> read("{\"clientConfig\": \"empty\", \"workers\": [{\"name\": \"w1\", \"address\": \"a\"}]}"));
    assertEquals("clientConfig", e.field());
    assertFalse(e.getMessage().contains("\n"));
    assertTrue(e.getMessage().contains("holds neither"), e.getMessage());
  }
}
