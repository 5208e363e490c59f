package faultbed.experiments.scenario;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import faultbed.faults.remote.Become;
import faultbed.faults.remote.SshTarget;
import faultbed.harness.Inventory;
import faultbed.results.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads an inventory file (schema/inventory.schema.json) into an {@link Inventory}: every error
 * names the field ({@code workers[1].ssh.key}) and what was expected there, and unknown fields are
 * errors. Paths are taken relative to the inventory's folder, {@code ~} as the user's home. What
 * a worker's {@code ssh} leaves out comes from the top-level {@code ssh}, then from defaults: the
 * running user, port 22, {@code ~/.ssh/id_ed25519}, {@code ~/.ssh/known_hosts}, and root either by
 * login (user root) or by {@code sudo -n}.
 */
public final class InventoryParser {
  // the fields each object takes and the port's bounds are the published schema's
  private static final Schema SCHEMA = Schema.load("/faultbed/schema/inventory.schema.json");
  private static final Set<String> TOP = SCHEMA.at("").fields();
  private static final Schema.Shape SSH = SCHEMA.at("/$defs/ssh");
  private static final Schema.Shape WORKER = SCHEMA.at("/properties/workers/items");
  private static final java.util.regex.Pattern HOST_PORT = SCHEMA.at("").pattern("resourceManager");
  private static final java.util.regex.Pattern HELPER_PATH =
      SCHEMA.pattern("/$defs/ssh/properties/become/oneOf/1/properties/helper/pattern");

  private InventoryParser() {}

  public static Inventory parse(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new ScenarioException("inventory", "file " + file + " does not exist");
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new ScenarioException("inventory", "expected JSON text in UTF-8, but " + file + " holds bytes that are not");
    } catch (IOException e) {
      throw new ScenarioException("inventory", Files.isDirectory(file) ? "expected an inventory file, but " + file
          + " is a folder" : "cannot read " + file + ": " + e.getMessage());
    }
    Path folder = file.toAbsolutePath().getParent();
    return parse(text, folder, file.getFileName().toString().replaceFirst("\\.json$", ""));
  }

  static Inventory parse(String text, Path folder, String fallbackName) {
    JsonNode root;
    try {
      root = ScenarioParser.JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new ScenarioException("inventory", "expected valid JSON, but " + ScenarioParser.where(e)
          + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new ScenarioException("inventory", "expected a JSON object at the top level");
    }
    ScenarioParser.onlyKnown(root, "", TOP);
    String name = root.has("name") ? ScenarioParser.text(root.get("name"), "name") : fallbackName;
    if (!root.has("clientConfig")) {
      throw new ScenarioException("clientConfig", "expected the folder of the cluster's Hadoop client configuration"
          + " (core-site.xml, yarn-site.xml, ...), relative to the inventory");
    }
    Path conf = path(root.get("clientConfig"), "clientConfig", folder);
    if (!Files.isDirectory(conf)) {
      throw new ScenarioException("clientConfig", "expected a folder, but " + conf + " is none");
    }
    if (!Files.isRegularFile(conf.resolve("yarn-site.xml")) && !Files.isRegularFile(conf.resolve("core-site.xml"))) {
      throw new ScenarioException("clientConfig", "expected a Hadoop configuration folder (yarn-site.xml or"
          + " core-site.xml), but " + conf + " holds neither");
    }
    String rm = root.has("resourceManager") ? hostPort(root.get("resourceManager"), "resourceManager") : null;
    String jhs = root.has("jobHistory") ? hostPort(root.get("jobHistory"), "jobHistory") : null;
    Ssh defaults = ssh(root.get("ssh"), "ssh", Ssh.DEFAULT, folder);
    List<String> start = root.has("nodeManagerStart") ? command(root.get("nodeManagerStart"), "nodeManagerStart") : null;
    java.util.Map<String, List<String>> starts = new java.util.LinkedHashMap<>();

    if (!root.has("workers")) {
      throw new ScenarioException("workers", "expected the worker hosts, e.g. [{\"name\": \"w1\", \"address\":"
          + " \"w1.example\"}]");
    }
    JsonNode ws = root.get("workers");
    if (!ws.isArray() || ws.isEmpty()) {
      throw new ScenarioException("workers", "expected a list of at least one worker host");
    }
    List<SshTarget> workers = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Set<String> addresses = new HashSet<>();
    for (int i = 0; i < ws.size(); i++) {
      String at = "workers[" + i + "]";
      JsonNode w = ScenarioParser.object(ws.get(i), at);
      ScenarioParser.onlyKnown(w, at + ".", WORKER.fields());
      String wname = ScenarioParser.text(w.get("name"), at + ".name");
      if (!WORKER.pattern("name").matcher(wname).matches()) {
        throw new ScenarioException(at + ".name", "expected a name of letters, digits, '.', '_' or '-', got \""
            + wname + "\"");
      }
      if (!names.add(wname)) {
        throw new ScenarioException(at + ".name", "expected a name no other worker has, got \"" + wname + "\" again");
      }
      String address = ScenarioParser.text(w.get("address"), at + ".address");
      if (!WORKER.pattern("address").matcher(address).matches()) {
        throw new ScenarioException(at + ".address", "expected a host name or IP address, got \"" + address + "\"");
      }
      Ssh s = ssh(w.get("ssh"), at + ".ssh", defaults, folder);
      if (!addresses.add(address + ":" + s.port)) {
        throw new ScenarioException(at + ".address", "expected an address no other worker has, got \"" + address
            + "\" (port " + s.port + ") again");
      }
      workers.add(new SshTarget(wname, address, s.port, s.user, s.key, s.knownHosts, s.become));
      List<String> own = w.has("nodeManagerStart") ? command(w.get("nodeManagerStart"), at + ".nodeManagerStart") : start;
      if (own != null) {
        starts.put(wname, own);
      }
    }
    return new Inventory(name, conf, rm, jhs, workers, starts);
  }

  /** SSH settings as far as given; each level fills what it leaves out from the level above. */
  private record Ssh(String user, int port, Path key, Path knownHosts, Become become) {
    static final Ssh DEFAULT = new Ssh(System.getProperty("user.name"), 22,
        home().resolve(".ssh/id_ed25519"), home().resolve(".ssh/known_hosts"), null);
  }

  private static Ssh ssh(JsonNode n, String at, Ssh above, Path folder) {
    if (n == null) {
      return withBecome(above);
    }
    ScenarioParser.object(n, at);
    ScenarioParser.onlyKnown(n, at + ".", SSH.fields());
    String user = n.has("user") ? ScenarioParser.text(n.get("user"), at + ".user") : above.user;
    if (user.isBlank()) {
      throw new ScenarioException(at + ".user", "expected a login name, got \"\"");
    }
    long port = n.has("port") ? ScenarioParser.integer(n.get("port"), at + ".port", SSH.minimum("port")) : above.port;
    if (port > SSH.maximum("port")) {
      throw new ScenarioException(at + ".port", "expected a TCP port, " + SSH.minimum("port") + " to "
          + SSH.maximum("port") + ", got " + port);
    }
    Path key = n.has("key") ? path(n.get("key"), at + ".key", folder) : above.key;
    Path known = n.has("knownHosts") ? path(n.get("knownHosts"), at + ".knownHosts", folder) : above.knownHosts;
    Become become = n.has("become") ? become(n.get("become"), at + ".become", user) : above.become;
    return withBecome(new Ssh(user, (int) port, key, known, become));
  }

  /** Root by login when the user is root, else sudo for every program, unless the file said otherwise. */
  private static Ssh withBecome(Ssh s) {
    return s.become != null ? s : new Ssh(s.user, s.port, s.key, s.knownHosts,
        s.user.equals("root") ? new Become.Root() : new Become.Sudo());
  }

  private static Become become(JsonNode n, String at, String user) {
    if (n.isTextual() && n.asText().equals("root")) {
      if (!user.equals("root")) {
        throw new ScenarioException(at, "\"root\" means the login is root, but the user is \"" + user
            + "\"; expected \"sudo\" or {\"helper\": \"/usr/local/sbin/faultbed-host\"}");
      }
      return new Become.Root();
    }
    if (n.isTextual() && n.asText().equals("sudo")) {
      return new Become.Sudo();
    }
    if (n.isObject() && n.size() == 1 && n.has("helper")) {
      String path = ScenarioParser.text(n.get("helper"), at + ".helper");
      if (!HELPER_PATH.matcher(path).matches() || path.contains("/../") || path.endsWith("/..")) {
        throw new ScenarioException(at + ".helper", "expected the absolute path faultbed-host is installed at, such as"
            + " \"/usr/local/sbin/faultbed-host\", got \"" + path + "\"");
      }
      return new Become.Helper(path);
    }
    if (n.isObject() && n.has("sudo")) {
      throw new ScenarioException(at + ".sudo", "a list of programs for sudo is no longer read (sudo of find, tar or"
          + " setsid is a root shell); expected {\"helper\": \"/usr/local/sbin/faultbed-host\"} with the sudo rule"
          + " docs/backends.md gives, or \"sudo\"");
    }
    throw new ScenarioException(at, "expected \"root\" (the login is root), \"sudo\" (sudo -n for every command) or"
        + " {\"helper\": \"/usr/local/sbin/faultbed-host\"} (sudo -n of faultbed's host helper and the"
        + " NodeManager start command only), got " + n);
  }

  /** A command as its words, e.g. ["systemctl", "start", "hadoop-yarn-nodemanager"]. */
  private static List<String> command(JsonNode n, String at) {
    if (!n.isArray() || n.isEmpty()) {
      throw new ScenarioException(at, "expected a command as a list of words, e.g. [\"systemctl\", \"start\","
          + " \"hadoop-yarn-nodemanager\"], got " + n);
    }
    List<String> words = new ArrayList<>();
    for (int i = 0; i < n.size(); i++) {
      String w = ScenarioParser.text(n.get(i), at + "[" + i + "]");
      if (w.isEmpty()) {
        throw new ScenarioException(at + "[" + i + "]", "expected a word, got \"\"");
      }
      words.add(w);
    }
    return List.copyOf(words);
  }

  private static String hostPort(JsonNode n, String at) {
    String v = ScenarioParser.text(n, at);
    if (!HOST_PORT.matcher(v).matches()) {
      throw new ScenarioException(at, "expected host:port, got \"" + v + "\"");
    }
    return v;
  }

  private static Path path(JsonNode n, String at, Path folder) {
    String v = ScenarioParser.text(n, at);
    if (v.isBlank()) {
      throw new ScenarioException(at, "expected a path, got \"\"");
    }
    Path p = v.equals("~") ? home() : v.startsWith("~/") ? home().resolve(ScenarioParser.path(v.substring(2), at))
        : ScenarioParser.path(v, at);
    return folder.resolve(p).normalize();
  }

  private static Path home() {
    return Path.of(System.getProperty("user.home"));
  }
}
