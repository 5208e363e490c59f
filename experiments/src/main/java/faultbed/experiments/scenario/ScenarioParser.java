package faultbed.experiments.scenario;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import faultbed.harness.ClusterSpec;
import faultbed.harness.Pin;
import faultbed.harness.NetworkBackend;
import faultbed.harness.Backend;
import faultbed.harness.Backends;
import faultbed.harness.Speculation;
import faultbed.schedulers.placement.PlacementPolicy;
import faultbed.schedulers.stealing.StealingPolicy;
import faultbed.schedulers.policies.Policies;
import faultbed.harness.timeline.Fault;
import faultbed.harness.timeline.FaultKind;
import faultbed.harness.timeline.FaultParams;
import faultbed.harness.timeline.JobEvent;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.timeline.Trigger;
import faultbed.harness.workload.Slowdown;
import faultbed.harness.workload.Workload;
import faultbed.harness.workload.Workloads;
import faultbed.results.Expectation;
import faultbed.results.ScenarioFormat;
import faultbed.results.Schema.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a scenario file and checks all of it before anything starts. Every problem is reported as
 * the path of the field (e.g. {@code faults[0].at.uniform}) and what was expected there; unknown
 * fields are errors, since a misspelt field silently ignored would change the experiment.
 */
public final class ScenarioParser {
  /** Jackson's own checks: a repeated key or anything after the scenario object is an error, not a guess. */
  static final ObjectMapper JSON = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();
  /** Runs of one variant; beyond this a suite is a typo, not an experiment (the Dinu-Ng suite has 200). */
  static final int MAX_RUNS = (int) ScenarioFormat.number("/$defs/runs/maximum");
  private static final Pattern DURATION = Pattern.compile("^(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|min|h)$");
  // What fields each object takes and their bounds are the published schema's (ScenarioFormat);
  // what this class adds is what a schema cannot say and what each value means.
  private static final Shape TOP = ScenarioFormat.TOP;
  private static final Shape CLUSTER = ScenarioFormat.CLUSTER;
  private static final Shape FAULT = ScenarioFormat.at("/$defs/fault");
  private static final List<String> FAULT_KINDS = FaultKind.names();
  private static final List<String> WORKLOAD_TYPES = ScenarioFormat.at("/$defs/workload").names("type");
  private static final Pattern VARIANT_NAME = ScenarioFormat.pattern("/properties/variants/propertyNames/pattern");

  private ScenarioParser() {}

  public static Scenario parse(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new ScenarioException("scenario", "file " + file + " does not exist");
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new ScenarioException("scenario", "expected JSON text in UTF-8, but " + file + " holds bytes that are not");
    } catch (IOException e) {
      throw new ScenarioException("scenario", Files.isDirectory(file) ? "expected a scenario file, but " + file
          + " is a folder" : "cannot read " + file + ": " + e.getMessage());
    }
    String fallbackName = file.getFileName().toString().replaceFirst("\\.json$", "");
    return parse(text, fallbackName, file.toAbsolutePath().getParent());
  }

  /** A scenario's text, its inventory (if any) not read: what report and compare read from a suite's copy. */
  public static Scenario parse(String text, String fallbackName) {
    return parse(text, fallbackName, null);
  }

  /** {@code folder}: where the scenario's file is, for its inventory's path; null not to read the inventory. */
  static Scenario parse(String text, String fallbackName, Path folder) {
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new ScenarioException("scenario", "expected valid JSON, but " + where(e) + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new ScenarioException("scenario", "expected a JSON object at the top level");
    }
    onlyKnown(root, "", TOP.fields());
    if (root.has("$schema")) {
      text(root.get("$schema"), "$schema");
    }
    String name = root.has("name") ? text(root.get("name"), "name") : fallbackName;
    if (name.isBlank()) {
      throw new ScenarioException("name", "expected a name of at least one character, got \"" + name + "\"");
    }
    String description = root.has("description") ? text(root.get("description"), "description") : "";
    long seed = root.has("seed") ? integer(root.get("seed"), "seed", Long.MIN_VALUE) : 1L;
    int runs = root.has("runs") ? runs(root.get("runs"), "runs") : 1;
    int warmup = root.has("warmup") ? wholeInt(root.get("warmup"), "warmup", TOP.minimum("warmup")) : 0;
    ClusterSpec cluster = cluster(root.get("cluster"), "cluster", ClusterSpec.defaults(), folder);
    cluster = cluster.withHadoop(hadoop(root.get("hadoop"), "hadoop"));
    if (!root.has("workload")) {
      throw new ScenarioException("workload", "expected a workload, e.g. {\"type\": \"sort\", \"size\": \"64MB\"}");
    }
    ObjectNode workloadNode = object(root.get("workload"), "workload");
    Workload workload = workload(workloadNode, "workload", cluster.backend().boundedByThisHost());
    List<Timeline.Step> faults = faults(root.get("faults"), "faults", cluster.nodes());
    Speculation speculation = speculation(root.get("speculation"), "speculation", Speculation.off());
    StealingPolicy stealing = stealing(root.get("stealing"), "stealing", null);
    PlacementPolicy placement = placement(root.get("placement"), "placement", null);
    Duration jobLimit = root.has("jobLimit") ? positive(duration(root.get("jobLimit"), "jobLimit"), "jobLimit") : null;
    Set<Pin> pinned = root.has("pin") ? pinned(root.get("pin"), "pin") : Set.of();

    List<Variant> variants = new ArrayList<>();
    JsonNode vs = root.get("variants");
    if (vs == null) {
      variants.add(new Variant("default", cluster, workload, new Timeline(faults), runs, speculation, jobLimit,
          pinned, stealing, placement));
      checkNetwork(variants.get(0), "");
    } else {
      object(vs, "variants");
      if (vs.isEmpty()) {
        throw new ScenarioException("variants", "expected at least one variant, or no \"variants\" field");
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = vs.fields(); it.hasNext(); ) {
        var e = it.next();
        String vname = e.getKey();
        String at = "variants." + name(vname);
        if (!VARIANT_NAME.matcher(vname).matches()) {
          throw new ScenarioException(at, "expected a variant name of letters, digits, '.', '_' or '-'");
        }
        JsonNode v = object(e.getValue(), at);
        onlyKnown(v, at + ".", ScenarioFormat.VARIANT.fields());
        ClusterSpec vc = cluster(v.get("cluster"), at + ".cluster", cluster, folder).withHadoop(hadoop(v.get("hadoop"), at + ".hadoop"));
        Workload vw = workload;
        if (v.has("workload")) {
          ObjectNode merged = workloadNode.deepCopy();
          merged.setAll(object(v.get("workload"), at + ".workload"));
          vw = workload(merged, at + ".workload", vc.backend().boundedByThisHost());
        }
        if (v.has("faults") && v.has("faults+")) {
          throw new ScenarioException(at, "expected \"faults\" (replace) or \"faults+\" (add), not both");
        }
        List<Timeline.Step> vf = v.has("faults") ? faults(v.get("faults"), at + ".faults", vc.nodes())
            : new ArrayList<>(faults);
        if (v.has("faults+")) {
          vf.addAll(faults(v.get("faults+"), at + ".faults+", vc.nodes()));
        }
        int vr = v.has("runs") ? runs(v.get("runs"), at + ".runs") : runs;
        Speculation vs2 = speculation(v.get("speculation"), at + ".speculation", speculation);
        Duration vl = v.has("jobLimit") ? positive(duration(v.get("jobLimit"), at + ".jobLimit"), at + ".jobLimit") : jobLimit;
        Set<Pin> vp = v.has("pin") ? pinned(v.get("pin"), at + ".pin") : pinned;
        StealingPolicy vst = v.has("stealing") ? stealing(v.get("stealing"), at + ".stealing", stealing) : stealing;
        PlacementPolicy vpl = v.has("placement") ? placement(v.get("placement"), at + ".placement", placement) : placement;
        variants.add(new Variant(vname, vc, vw, new Timeline(vf), vr, vs2, vl, vp, vst, vpl));
        checkNetwork(variants.get(variants.size() - 1), at + ".");
      }
    }
    if (root.has("reference")) {
      // report and compare read it from the suite's copy of this file
      String reference = text(root.get("reference"), "reference");
      List<String> names = variants.stream().map(Variant::name).toList();
      if (!names.contains(reference)) {
        throw new ScenarioException("reference", "expected one of the variants " + names + ", got \"" + reference + "\"");
      }
    }
    try {
      // checked here so a wrong one starts nothing; verify reads the expectations from the suite's copy of
      // this file, and run (which stops by it) and compare read the sequential design from there too
      Expectation.ofScenario(root);
      faultbed.results.compare.SequentialSuite.ofScenario(root,
          variants.stream().mapToInt(Variant::runs).max().orElse(0), variants.stream().map(Variant::name).toList());
    } catch (faultbed.results.InvalidField e) {
      throw new ScenarioException(e.field(), e.expected());
    }
    return new Scenario(name, description, seed, warmup, variants);
  }

  private static ClusterSpec cluster(JsonNode n, String at, ClusterSpec base, Path folder) {
    if (n == null) {
      return base;
    }
    object(n, at);
    onlyKnown(n, at + ".", CLUSTER.fields());
    ClusterSpec c = base;
    if (n.has("backend")) {
      c = c.withBackend(backend(n.get("backend").isTextual() ? n.get("backend").asText() : n.get("backend").toString(),
          at + ".backend"));
    }
    if (n.has("nodes")) {
      long nodes = integer(n.get("nodes"), at + ".nodes", CLUSTER.minimum("nodes"));
      // this machine's memory bounds nodes that run on it; a backend whose nodes do not says its own limit
      c = c.withNodes(c.backend().boundedByThisHost() ? nodes(nodes, at + ".nodes")
          : wholeInt(n.get("nodes"), at + ".nodes", CLUSTER.minimum("nodes")));
    }
    try {
      if (n.has("nodeMemoryMb")) {
        c = c.withNodeMemoryMb(whole(CLUSTER, n, "nodeMemoryMb", at));
      }
      if (n.has("nodeVcores")) {
        c = c.withNodeVcores(whole(CLUSTER, n, "nodeVcores", at));
      }
      if (n.has("containerMemoryMb")) {
        c = c.withContainerMemoryMb(whole(CLUSTER, n, "containerMemoryMb", at));
      }
    } catch (IllegalArgumentException e) {
      // the cluster's own check ("cluster.containerMemoryMb: expected at most nodeMemoryMb ..."), at this cluster's path
      throw field(at, new IllegalArgumentException(e.getMessage().replaceFirst("^cluster\\.", "")));
    }
    if (n.has("timeScale")) {
      JsonNode t = n.get("timeScale");
      if (!t.isNumber() || !(t.asDouble() > 0 && t.asDouble() <= 1)) {
        throw new ScenarioException(at + ".timeScale", "expected a number in (0, 1], e.g. 0.1, got " + t);
      }
      c = c.withTimeScale(t.asDouble());
    }
    if (n.has("network")) {
      c = c.withNetwork(network(n.get("network"), at + ".network"));
    }
    if (n.has("inventory")) {
      String file = text(n.get("inventory"), at + ".inventory");
      if (!c.backend().usesExistingCluster()) {
        throw new ScenarioException(at + ".inventory", "an inventory names a cluster faultbed did not start; expected"
            + " backend \"" + Backends.forInventory().name() + "\" with it, got backend \"" + c.backend().name() + "\"");
      }
      if (folder != null) {
        try {
          c = c.withInventory(InventoryParser.parse(folder.resolve(path(file, at + ".inventory"))));
        } catch (ScenarioException e) {
          throw new ScenarioException(at + ".inventory", file + ": " + e.getMessage());
        }
      }
    }
    if (n.has("disks") || n.has("diskSize")) {
      if (!n.has("disks") && c.disks() == null) {
        throw new ScenarioException(at + ".diskSize", "expected with \"disks\" (how many disks each node has), got"
            + " a size alone");
      }
      long count = n.has("disks") ? integer(n.get("disks"), at + ".disks", 0) : c.disks().count();
      if (count > ClusterSpec.Disks.MOST) {
        throw new ScenarioException(at + ".disks", "expected at most " + ClusterSpec.Disks.MOST + " disks per node, got "
            + count);
      }
      long size = n.has("diskSize") ? bytes(n.get("diskSize"), at + ".diskSize", false)
          : c.disks() != null ? c.disks().bytes() : ClusterSpec.Disks.DEFAULT_BYTES;
      if (size < 256L << 20) {
        throw new ScenarioException(at + ".diskSize", "expected at least 256MB per disk, got " + n.get("diskSize"));
      }
      c = c.withDisks(count == 0 ? null : new ClusterSpec.Disks((int) count, size));
    }
    if (c.disks() != null) {
      java.util.Optional<String> refused = c.backend().refuses(faultbed.harness.Backend.Mechanism.NODE_DISK);
      if (refused.isPresent()) {
        throw new ScenarioException(at + (n.has("disks") ? ".disks" : ".backend"), refused.get());
      }
    }
    if (n.has("clocks")) {
      c = c.withClocks(bool(n.get("clocks"), at + ".clocks"));
    }
    if (c.clocks()) {
      java.util.Optional<String> refused = c.backend().refuses(faultbed.harness.Backend.Mechanism.NODE_CLOCK);
      if (refused.isPresent()) {
        throw new ScenarioException(at + (n.has("clocks") ? ".clocks" : ".backend"), refused.get());
      }
    }
    return c;
  }

  /** The parts of a job pinned per run: a list of distinct names from {@link Pin}. */
  private static java.util.Set<Pin> pinned(JsonNode n, String at) {
    String names = String.join(", ", java.util.Arrays.stream(Pin.values()).map(p -> "\"" + p.scenarioName() + "\"").toList());
    if (!n.isArray()) {
      throw new ScenarioException(at, "expected a list of parts to pin, e.g. [\"am\", \"reduces\"], got " + n);
    }
    java.util.Set<Pin> parts = java.util.EnumSet.noneOf(Pin.class);
    for (int i = 0; i < n.size(); i++) {
      JsonNode e = n.get(i);
      Pin p = e.isTextual() ? Pin.named(e.asText()).orElse(null) : null;
      if (p == null) {
        throw new ScenarioException(at + "[" + i + "]", "expected one of " + names + ", got " + e);
      }
      if (!parts.add(p)) {
        throw new ScenarioException(at + "[" + i + "]", "expected each part once, got " + e + " again");
      }
    }
    return parts;
  }

  /** "kernel", "toxiproxy" (a container where Docker runs), or {"toxiproxy": "http://host:port"}. */
  /** A node count this machine can hold (at least 1). */
  public static int nodes(long nodes, String at) {
    if (nodes < 1) {
      throw new ScenarioException(at, "expected at least 1, got " + nodes);
    }
    long most = HostLimits.nodes();
    if (nodes > most) {
      throw new ScenarioException(at, "expected at most " + most + " nodes: each needs about "
          + HostLimits.MB_PER_NODE + " MB and this machine has " + HostLimits.memoryMb() + " MB, got " + nodes);
    }
    return (int) nodes;
  }

  private static NetworkBackend network(JsonNode n, String at) {
    String expected = "expected \"kernel\", \"toxiproxy\" or {\"toxiproxy\": \"http://127.0.0.1:8474\"}";
    if (n.isTextual() && (n.asText().equals("kernel") || n.asText().equals("toxiproxy"))) {
      return new NetworkBackend(n.asText(), null);
    }
    if (n.isObject() && n.size() == 1 && n.has("toxiproxy")) {
      JsonNode url = n.get("toxiproxy");
      try {
        return NetworkBackend.toxiproxy(url.isTextual() ? url.asText() : url.toString());
      } catch (IllegalArgumentException e) {
        throw new ScenarioException(at + ".toxiproxy", "expected an API address like http://127.0.0.1:8474, got " + url);
      }
    }
    throw new ScenarioException(at, expected + ", got " + n);
  }

  /** A registered backend's name: "mini", "namespace", "containers", "remote". */
  public static Backend backend(String name, String at) {
    try {
      return Backends.named(name, at);
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(at, e.getMessage().substring(at.length() + 2));
    }
  }

  /** Faults a variant's node or network backend cannot make are rejected before anything starts. */
  public static void checkNetwork(Variant v, String at) {
    v.cluster().backend().refusesNetwork(v.cluster().network()).ifPresent(why -> {
      throw new ScenarioException(at + "cluster.network.toxiproxy", why);
    });
    List<Timeline.Step> steps = v.timeline().steps();
    for (int i = 0; i < steps.size(); i++) {
      int index = i;
      steps.get(i).fault().unsupported(v.cluster()).ifPresent(u -> {
        throw new ScenarioException(at + "faults[" + index + "]." + u.field(), u.why());
      });
    }
    if (!v.pinned().isEmpty()) {
      v.cluster().backend().refusesPinning().ifPresent(why -> {
        throw new ScenarioException(at + "pin", why);
      });
      if (v.pinned().size() > v.cluster().nodes()) {
        throw new ScenarioException(at + "pin", "each pinned part takes nodes of its own (a YARN node carries one"
            + " label); expected at least " + v.pinned().size() + " nodes, got " + v.cluster().nodes());
      }
    }
    if (v.stealing() != null) {
      v.cluster().backend().refusesStealing().ifPresent(why -> {
        throw new ScenarioException(at + "stealing", why);
      });
    }
    if (v.placement() != null) {
      v.cluster().backend().refusesPlacement().ifPresent(why -> {
        throw new ScenarioException(at + "placement", why);
      });
    }
    v.cluster().backend().refusesRun(v.cluster(), v.workload(), v.timeline(), v.speculation()).ifPresent(u -> {
      throw new ScenarioException(at + u.field(), u.why());
    });
  }

  /** "off" (null: Hadoop's default executor), or a {@link StealingPolicy} by its name. */
  private static StealingPolicy stealing(JsonNode n, String at, StealingPolicy base) {
    if (n == null) {
      return base;
    }
    String name = text(n, at);
    if (name.equals("off")) {
      return null;
    }
    try {
      return StealingPolicy.named(name);
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(at, "expected off or " + e.getMessage().substring("expected ".length()));
    }
  }

  /** A {@link PlacementPolicy} by its name ("stock": Hadoop's own choice). */
  private static PlacementPolicy placement(JsonNode n, String at, PlacementPolicy base) {
    if (n == null) {
      return base;
    }
    String name = text(n, at);
    try {
      PlacementPolicy p = PlacementPolicy.named(name);
      return p == PlacementPolicy.STOCK ? null : p;
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(at, e.getMessage());
    }
  }

  /**
   * "off", "hadoop3" (legacy estimator), "hadoop3/&lt;estimator or class&gt;", a policy name ("late"...),
   * or an object: {"policy": name-or-class, "params": {...}} or {"speculator": class}.
   */
  private static Speculation speculation(JsonNode n, String at, Speculation base) {
    if (n == null) {
      return base;
    }
    String expected = "expected \"off\", \"hadoop3\", \"hadoop3/<estimator>\", a policy name ("
        + String.join(", ", Policies.names()) + ") or {\"policy\": ..., \"params\": {...}} or {\"speculator\": class}";
    try {
      if (n.isTextual()) {
        String t = n.asText().trim();
        if (t.equals("off")) {
          return Speculation.off();
        }
        if (t.equals("hadoop3")) {
          return Speculation.hadoop3("legacy");
        }
        if (t.startsWith("hadoop3/")) {
          return Speculation.hadoop3(t.substring("hadoop3/".length()));
        }
        if (Policies.names().contains(t)) {
          return Speculation.policy(t);
        }
        throw new ScenarioException(at, expected + ", got \"" + t + "\"");
      }
      object(n, at);
      onlyKnown(n, at + ".", ScenarioFormat.SPECULATION.fields());
      if (n.has("speculator")) {
        if (n.has("policy") || n.has("params")) {
          throw new ScenarioException(at, "expected either \"speculator\" or \"policy\", not both");
        }
        return Speculation.speculator(text(n.get("speculator"), at + ".speculator"));
      }
      if (!n.has("policy")) {
        throw new ScenarioException(at, expected);
      }
      return Speculation.policy(text(n.get("policy"), at + ".policy"), hadoop(n.get("params"), at + ".params"));
    } catch (IllegalArgumentException e) {
      // a parameter's own message ("params.slowTaskThreshold: expected a number ...") names its field
      Matcher param = Pattern.compile("^params\\.([^:]+): (.*)$", Pattern.DOTALL).matcher(e.getMessage());
      if (param.matches()) {
        throw new ScenarioException(at + ".params." + name(param.group(1)), param.group(2));
      }
      throw new ScenarioException(at, e.getMessage());
    }
  }

  private static Map<String, String> hadoop(JsonNode n, String at) {
    Map<String, String> out = new LinkedHashMap<>();
    if (n == null) {
      return out;
    }
    object(n, at);
    n.fields().forEachRemaining(e -> {
      JsonNode v = e.getValue();
      if (!v.isValueNode() || v.isNull()) {
        throw new ScenarioException(at + "." + name(e.getKey()), "expected a string, number or boolean");
      }
      out.put(e.getKey(), v.asText());
    });
    return out;
  }

  /** A workload object; {@code "concurrentJobs": n} runs n copies at once (seed 003's Figure 5). */
  /** A workload; {@code onThisHost}: its input is kept on this machine, whose free disk bounds its size. */
  private static Workload workload(JsonNode n, String at, boolean onThisHost) {
    if (n.has("concurrentJobs")) {
      int jobs = whole(ScenarioFormat.FILE_WORKLOAD, n, "concurrentJobs", at);
      ObjectNode single = ((ObjectNode) n).deepCopy();
      single.remove("concurrentJobs");
      return workloadOfType(single, at, onThisHost).withConcurrentJobs(jobs);
    }
    return workloadOfType(n, at, onThisHost);
  }

  private static Workload workloadOfType(JsonNode n, String at, boolean onThisHost) {
    if (!n.has("type")) {
      throw new ScenarioException(at + ".type", "expected one of " + WORKLOAD_TYPES);
    }
    String type = text(n.get("type"), at + ".type");
    try {
      switch (type) {
        case "sort", "wordcount" -> {
          onlyKnown(n, at + ".", ScenarioFormat.FILE_WORKLOAD.fields());
          if (!n.has("size")) {
            throw new ScenarioException(at + ".size", "expected an input size such as \"64MB\"");
          }
          long bytes = bytes(n.get("size"), at + ".size", onThisHost);
          int maps = n.has("maps") ? whole(ScenarioFormat.FILE_WORKLOAD, n, "maps", at) : Workloads.DEFAULT_MAPS;
          int reduces = n.has("reduces") ? whole(ScenarioFormat.FILE_WORKLOAD, n, "reduces", at)
              : Workloads.DEFAULT_REDUCES;
          return type.equals("sort") ? Workloads.sort(bytes).withMaps(maps).withReduces(reduces)
              : Workloads.wordcount(bytes).withMaps(maps).withReduces(reduces);
        }
        case "synthetic" -> {
          onlyKnown(n, at + ".", ScenarioFormat.SYNTHETIC_WORKLOAD.fields());
          int maps = n.has("maps") ? whole(ScenarioFormat.FILE_WORKLOAD, n, "maps", at) : Workloads.DEFAULT_MAPS;
          int reduces = n.has("reduces") ? whole(ScenarioFormat.FILE_WORKLOAD, n, "reduces", at)
              : Workloads.DEFAULT_REDUCES;
          var w = Workloads.synthetic(maps, reduces);
          if (n.has("mapTime")) {
            w = w.withMapMillis(duration(n.get("mapTime"), at + ".mapTime").toMillis());
          }
          if (n.has("reduceTime")) {
            w = w.withReduceMillis(duration(n.get("reduceTime"), at + ".reduceTime").toMillis());
          }
          if (n.has("mapTimes")) {
            JsonNode list = n.get("mapTimes");
            if (!list.isArray() || list.size() != maps) {
              throw new ScenarioException(at + ".mapTimes", "expected a list of " + maps + " durations (one per map)");
            }
            List<Long> ms = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
              ms.add(duration(list.get(i), at + ".mapTimes[" + i + "]").toMillis());
            }
            w = w.withMapMillisList(ms);
          }
          if (n.has("recordsPerMap")) {
            w = w.withRecordsPerMap(whole(ScenarioFormat.SYNTHETIC_WORKLOAD, n, "recordsPerMap", at));
          }
          if (n.has("slowdowns")) {
            w = w.withSlowdowns(slowdowns(n.get("slowdowns"), at + ".slowdowns", maps));
          }
          return w;
        }
        case "elastic" -> {
          onlyKnown(n, at + ".", ScenarioFormat.ELASTIC_WORKLOAD.fields());
          var w = Workloads.elastic(n.has("maps") ? whole(ScenarioFormat.ELASTIC_WORKLOAD, n, "maps", at)
              : Workloads.DEFAULT_MAPS);
          if (n.has("reduces")) {
            w = w.withReduces(whole(ScenarioFormat.ELASTIC_WORKLOAD, n, "reduces", at));
          }
          if (n.has("units")) {
            w = w.withUnits(whole(ScenarioFormat.ELASTIC_WORKLOAD, n, "units", at));
          }
          if (n.has("unitWork")) {
            w = w.withUnitWork(whole(ScenarioFormat.ELASTIC_WORKLOAD, n, "unitWork", at));
          }
          return w;
        }
        default -> throw new ScenarioException(at + ".type", "expected one of " + WORKLOAD_TYPES + ", got \"" + type + "\"");
      }
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(at, e.getMessage());
    }
  }

  /** {@code [{"map": 0, "attempt": 0, "profile": [{"from": 0.4, "factor": 1.2}]}]}: map attempts slowed by progress. */
  private static List<Slowdown> slowdowns(JsonNode n, String at, int maps) {
    if (!n.isArray() || n.isEmpty()) {
      throw new ScenarioException(at, "expected a list of {\"map\": i, \"attempt\": a, \"profile\": [{\"from\": "
          + "progress, \"factor\": x}, ...]}");
    }
    List<Slowdown> out = new ArrayList<>();
    for (int i = 0; i < n.size(); i++) {
      String si = at + "[" + i + "]";
      JsonNode e = object(n.get(i), si);
      onlyKnown(e, si + ".", ScenarioFormat.SLOWDOWN.fields());
      int map = wholeInt(e.get("map"), si + ".map", ScenarioFormat.SLOWDOWN.minimum("map"));
      if (map >= maps) {
        throw new ScenarioException(si + ".map", "expected a map index below " + maps + " (the workload's maps), got " + map);
      }
      int attempt = e.has("attempt") ? whole(ScenarioFormat.SLOWDOWN, e, "attempt", si) : 0;
      JsonNode profile = e.get("profile");
      if (profile == null || !profile.isArray() || profile.isEmpty()) {
        throw new ScenarioException(si + ".profile", "expected a list of {\"from\": progress, \"factor\": x}");
      }
      List<Slowdown.Step> steps = new ArrayList<>();
      for (int j = 0; j < profile.size(); j++) {
        String sj = si + ".profile[" + j + "]";
        JsonNode step = object(profile.get(j), sj);
        onlyKnown(step, sj + ".", ScenarioFormat.SLOWDOWN_STEP.fields());
        try {
          steps.add(new Slowdown.Step(number(step.get("from"), sj + ".from"), number(step.get("factor"), sj + ".factor")));
        } catch (IllegalArgumentException x) {
          throw field(sj, x);
        }
      }
      try {
        out.add(new Slowdown(map, attempt, steps));
      } catch (IllegalArgumentException x) {
        throw field(si, x);
      }
      for (int k = 0; k < i; k++) {
        if (out.get(k).map() == map && out.get(k).attempt() == attempt) {
          throw new ScenarioException(si, "map " + map + " attempt " + attempt + " already has a profile (" + at + "[" + k + "])");
        }
      }
    }
    return out;
  }

  /** A value's refusal ("field: expected ...") as the scenario's field under {@code at}. */
  private static ScenarioException field(String at, IllegalArgumentException x) {
    String m = x.getMessage();
    int colon = m.indexOf(": ");
    return colon < 0 ? new ScenarioException(at, m) : new ScenarioException(at + "." + m.substring(0, colon), m.substring(colon + 2));
  }

  private static double number(JsonNode n, String at) {
    if (n == null || !n.isNumber()) {
      throw new ScenarioException(at, "expected a number");
    }
    return n.asDouble();
  }

  private static List<Timeline.Step> faults(JsonNode n, String at, int nodes) {
    List<Timeline.Step> steps = new ArrayList<>();
    if (n == null) {
      return steps;
    }
    if (!n.isArray()) {
      throw new ScenarioException(at, "expected a list of faults");
    }
    for (int i = 0; i < n.size(); i++) {
      String f = at + "[" + i + "]";
      JsonNode fault = object(n.get(i), f);
      Fault value = fault(fault, f, nodes, i, true);
      if (!fault.has("at")) {
        throw new ScenarioException(f + ".at", "expected when the fault fires: \"10s\", {\"uniform\": [\"1s\", \"40s\"]} or {\"event\": \"maps-completed\", \"count\": 4}");
      }
      steps.add(new Timeline.Step(trigger(fault.get("at"), f + ".at"), value));
    }
    return steps;
  }

  /**
   * A fault for a cluster that is up ({@code faultbed cluster fault}): the scenario's fault format,
   * fired at once, so without {@code at}; its node an index or a role the cluster shows by itself
   * ("random", "application-master", "running-reducer"), since no watched job says which node
   * holds map outputs.
   */
  public static Fault liveFault(String text, int nodes) {
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new ScenarioException("fault", "expected a JSON object such as {\"kind\": \"crash\", \"node\": 1}, but "
          + where(e).replaceFirst("^line 1 ", "") + e.getOriginalMessage());
    }
    ObjectNode fault = object(root, "fault");
    if (fault.has("at")) {
      throw new ScenarioException("fault.at", "a fault on a running cluster fires at once; remove \"at\"");
    }
    Fault value = fault(fault, "fault", nodes, 0, false);
    Target t = value.target() instanceof Target.SparingAm s ? s.choice() : value.target();
    if (t == Target.Role.MOST_MAPS || t == Target.Role.HOLDING_MAP_OUTPUTS || t == Target.Role.IDLE) {
      throw new ScenarioException("fault.node", "expected a node index, \"random\", \"application-master\" or"
          + " \"running-reducer\" (a running cluster shows no job's map outputs), got \"" + fault.get("node").asText() + "\"");
    }
    return value;
  }

  /** One fault's kind, node and parameters; {@code at} is the caller's. */
  private static Fault fault(JsonNode fault, String f, int nodes, int position, boolean scheduled) {
    if (!fault.has("kind")) {
      throw new ScenarioException(f + ".kind", "expected one of " + FAULT_KINDS);
    }
    String name = text(fault.get("kind"), f + ".kind");
    FaultKind kind = FaultKind.named(name).orElseThrow(() ->
        new ScenarioException(f + ".kind", "expected one of " + FAULT_KINDS + ", got \"" + name + "\""));
    Set<String> allowed = new java.util.TreeSet<>(FAULT.fieldsWhere("kind", name));
    allowed.add("for"); // on a kind that lasts until the end: a line of its own below, not "unknown field"
    if (!scheduled) {
      allowed.remove("at");
    }
    onlyKnown(fault, f + ".", allowed);
    Target target = target(fault.get("node"), f + ".node", nodes, scheduled ? position : 0);
    if (fault.has("spareAm") && bool(fault.get("spareAm"), f + ".spareAm")) {
      try {
        target = target.sparingApplicationMaster();
      } catch (IllegalArgumentException e) {
        throw new ScenarioException(f + ".spareAm", "applies to \"random\", \"most-maps\", \"running-reducer\" and \"holding-map-outputs\", not to a node index, \"application-master\", \"idle\" or \"same\"");
      }
    }
    if (fault.has("spareReducers") && bool(fault.get("spareReducers"), f + ".spareReducers")) {
      try {
        target = target.sparingReducers();
      } catch (IllegalArgumentException e) {
        throw new ScenarioException(f + ".spareReducers", "applies to \"random\", \"most-maps\" and \"holding-map-outputs\", not to a node index, \"running-reducer\", \"application-master\", \"idle\" or \"same\"");
      }
    }
    Duration lasts = fault.has("for") ? positive(duration(fault.get("for"), f + ".for"), f + ".for") : null;
    if (kind.permanent() && lasts != null) {
      throw new ScenarioException(f + ".for", "a " + name + " lasts until the " + (scheduled ? "run ends" : "cluster is healed")
          + "; remove \"for\"");
    }
    return kind.make(target, lasts, params(fault, f));
  }

  /** A fault's own fields, read with the scenario's forms and messages. */
  private static FaultParams params(JsonNode n, String f) {
    return new FaultParams() {
      private <T> java.util.Optional<T> read(String field, java.util.function.BiFunction<JsonNode, String, T> reader) {
        return n.has(field) ? java.util.Optional.of(reader.apply(n.get(field), f + "." + field)) : java.util.Optional.empty();
      }

      @Override
      public java.util.Optional<Boolean> flag(String field) {
        return read(field, ScenarioParser::bool);
      }

      @Override
      public java.util.Optional<Integer> count(String field, int least) {
        return read(field, (x, at) -> wholeInt(x, at, least));
      }

      @Override
      public java.util.Optional<Long> bytes(String field) {
        return read(field, (x, at) -> ScenarioParser.bytes(x, at, true));
      }

      @Override
      public java.util.Optional<Long> rate(String field) {
        return read(field, ScenarioParser::rate);
      }

      @Override
      public java.util.Optional<Double> cores(String field) {
        return read(field, ScenarioParser::cores);
      }

      @Override
      public java.util.Optional<Duration> duration(String field) {
        return read(field, ScenarioParser::duration);
      }

      @Override
      public java.util.Optional<Duration> offset(String field) {
        return read(field, ScenarioParser::offset);
      }

      @Override
      public java.util.Optional<Double> factor(String field) {
        return read(field, (x, at) -> {
          if (x == null || !x.isNumber() || !(x.asDouble() > 0) || x.asDouble() == 1) {
            throw new ScenarioException(at, "expected a number above 0 other than 1, such as 2 or 0.5, got " + x);
          }
          return x.asDouble();
        });
      }

      @Override
      public java.util.Optional<Double> probability(String field) {
        return read(field, ScenarioParser::probability);
      }

      @Override
      public java.util.Optional<List<Integer>> indices(String field) {
        return read(field, (x, at) -> {
          String expected = "expected indices, at least one, none twice, such as [2, 3]";
          if (!x.isArray() || x.isEmpty()) {
            throw new ScenarioException(at, expected + ", got " + x);
          }
          List<Integer> out = new ArrayList<>();
          for (JsonNode i : x) {
            if (!i.canConvertToInt() || !i.isIntegralNumber() || i.asInt() < 0) {
              // the element itself is wrong: named, as a number beyond its field is
              throw new ScenarioException(at + "[" + out.size() + "]", "expected an index, a whole number 0 or more,"
                  + " got " + i);
            }
            if (out.contains(i.asInt())) {
              throw new ScenarioException(at, expected + ", got " + x);
            }
            out.add(i.asInt());
          }
          return List.copyOf(out);
        });
      }

      @Override
      public java.util.Optional<String> choice(String field, List<String> values) {
        return read(field, (x, at) -> {
          if (x.isTextual() && values.contains(x.asText())) {
            return x.asText();
          }
          throw new ScenarioException(at, "expected one of " + values.stream().map(v -> "\"" + v + "\"")
              .collect(java.util.stream.Collectors.joining(", ")) + ", got " + x);
        });
      }

      @Override
      public RuntimeException invalid(String field, String expected) {
        return new ScenarioException(field == null ? f : f + "." + field, "expected " + expected);
      }
    };
  }

  private static final Pattern RATE = Pattern.compile("^(\\d+(?:\\.\\d+)?)\\s*(B|KB|MB|GB)/s$", Pattern.CASE_INSENSITIVE);

  /** A rate such as "1MB/s" (binary units, as sizes) in bytes per second. */
  static long rate(JsonNode n, String at) {
    String expected = "expected a positive rate such as \"1MB/s\" or \"500KB/s\"";
    if (n == null || !n.isTextual()) {
      throw new ScenarioException(at, expected);
    }
    Matcher m = RATE.matcher(n.asText().trim());
    if (!m.matches()) {
      throw new ScenarioException(at, expected + ", got \"" + n.asText() + "\"");
    }
    double v = Double.parseDouble(m.group(1));
    long unit = switch (m.group(2).toUpperCase()) {
      case "KB" -> 1L << 10;
      case "MB" -> 1L << 20;
      case "GB" -> 1L << 30;
      default -> 1L;
    };
    long r = Math.round(v * unit);
    if (r <= 0) {
      throw new ScenarioException(at, expected + ", got \"" + n.asText() + "\"");
    }
    return r;
  }

  /** A share written as a percentage: above 0 and below 100, as the schema's pattern says. */
  private static final Pattern PERCENT = Pattern.compile("^([1-9][0-9]?(?:\\.[0-9]+)?|0?\\.[0-9]*[1-9][0-9]*)%$");

  /** A probability above 0 and below 1: a number (0.05) or a percentage ("5%"). */
  static double probability(JsonNode n, String at) {
    String expected = "expected " + faultbed.harness.timeline.PacketLoss.PROBABILITY;
    if (n != null && n.isNumber() && n.asDouble() > 0 && n.asDouble() < 1) {
      return n.asDouble();
    }
    if (n != null && n.isTextual()) {
      Matcher m = PERCENT.matcher(n.asText());
      if (m.matches()) {
        return Double.parseDouble(m.group(1)) / 100;
      }
    }
    throw new ScenarioException(at, expected + ", got " + n);
  }

  private static double cores(JsonNode n, String at) {
    if (n == null || !n.isNumber() || n.asDouble() <= 0) {
      throw new ScenarioException(at, "expected a positive number of cores, e.g. 0.25");
    }
    int here = Runtime.getRuntime().availableProcessors();
    if (n.asDouble() > here) {
      throw new ScenarioException(at, "expected at most " + here + " cores (this machine's), got " + n.asText());
    }
    return n.asDouble();
  }

  private static boolean bool(JsonNode n, String at) {
    if (!n.isBoolean()) {
      throw new ScenarioException(at, "expected true or false");
    }
    return n.asBoolean();
  }

  private static Duration positive(Duration d, String at) {
    if (d.isZero()) {
      throw new ScenarioException(at, "expected a duration above zero");
    }
    return d;
  }

  private static final String TARGET_NAMES = String.join(", ",
      ScenarioFormat.TARGET.names(null).stream().map(t -> "\"" + t + "\"").toList());

  private static Target target(JsonNode n, String at, int nodes, int position) {
    if (n == null) {
      throw new ScenarioException(at, "expected a node index or one of " + TARGET_NAMES);
    }
    if (!n.isIntegralNumber() && !n.isTextual()) {
      throw new ScenarioException(at, "expected a node index (an integer) or one of " + TARGET_NAMES + ", got " + n);
    }
    if (n.isIntegralNumber()) {
      // as a long: 4294967296 read as an int would be node 0
      long i = n.canConvertToLong() ? n.asLong() : -1;
      if (i < 0 || i >= nodes) {
        throw new ScenarioException(at, "expected a node index in 0.." + (nodes - 1) + ", got " + n.asText());
      }
      return Target.node((int) i);
    }
    String s = text(n, at);
    return switch (s) {
      case "random" -> Target.randomNode();
      case "running-reducer" -> Target.runningReducer();
      case "holding-map-outputs" -> Target.holdingMapOutputs();
      case "most-maps" -> Target.mostMaps();
      case "application-master" -> Target.applicationMaster();
      case "idle" -> Target.idle();
      case "same" -> {
        if (position == 0) {
          throw new ScenarioException(at, "\"same\" means the node of the previous fault, but this is the first fault");
        }
        yield Target.same();
      }
      default -> throw new ScenarioException(at, "expected a node index or one of " + TARGET_NAMES + "; got \"" + s + "\"");
    };
  }

  private static Trigger trigger(JsonNode n, String at) {
    if (n.isTextual()) {
      return Trigger.at(duration(n, at));
    }
    JsonNode o = object(n, at);
    if (o.has("uniform")) {
      onlyKnown(o, at + ".", ScenarioFormat.TRIGGER.fieldsWith("uniform"));
      JsonNode range = o.get("uniform");
      if (!range.isArray() || range.size() != 2) {
        throw new ScenarioException(at + ".uniform", "expected [from, to], e.g. [\"1s\", \"40s\"]");
      }
      Duration from = duration(range.get(0), at + ".uniform[0]");
      Duration to = duration(range.get(1), at + ".uniform[1]");
      if (to.compareTo(from) < 0) {
        throw new ScenarioException(at + ".uniform", "expected from <= to, got [" + range.get(0).asText()
            + ", " + range.get(1).asText() + "]");
      }
      int strata = o.has("strata") ? whole(ScenarioFormat.TRIGGER, o, "strata", at) : 1;
      return Trigger.stratified(from, to, strata);
    }
    if (o.has("event")) {
      String event = text(o.get("event"), at + ".event");
      switch (event) {
        case "maps-completed" -> {
          return Trigger.on(JobEvent.mapsCompleted(mapCount(o, at, "have completed")));
        }
        case "maps-running" -> {
          return Trigger.on(JobEvent.mapsRunning(mapCount(o, at, "run at once")));
        }
        case "reducer-in-shuffle" -> {
          onlyKnown(o, at + ".", ScenarioFormat.TRIGGER.fieldsWhere("event", event));
          return Trigger.on(JobEvent.reducerInShuffle());
        }
        default -> throw new ScenarioException(at + ".event",
            "expected " + choice(ScenarioFormat.TRIGGER.names("event")) + ", got \"" + event + "\"");
      }
    }
    throw new ScenarioException(at, "expected \"10s\", {\"uniform\": [from, to]} or {\"event\": ...}");
  }

  /** A map-counting event's {@code count}: how many maps must {@code what}. */
  private static int mapCount(JsonNode o, String at, String what) {
    Set<String> fields = ScenarioFormat.TRIGGER.fieldsWhere("event", o.get("event").asText());
    onlyKnown(o, at + ".", fields);
    if (!o.has("count")) {
      throw new ScenarioException(at + ".count", "expected how many maps must " + what);
    }
    return wholeInt(o.get("count"), at + ".count", ScenarioFormat.TRIGGER.minimum("count"));
  }

  /** A signed duration other than zero: "+15m", "-90s". */
  static Duration offset(JsonNode n, String at) {
    String expected = "expected a signed duration such as \"+15m\" or \"-90s\"";
    if (n == null || !n.isTextual()) {
      throw new ScenarioException(at, expected + ", got " + n);
    }
    String s = n.asText().trim();
    if (s.length() < 2 || (s.charAt(0) != '+' && s.charAt(0) != '-') || !DURATION.matcher(s.substring(1).trim()).matches()) {
      throw new ScenarioException(at, expected + ", got \"" + s + "\"");
    }
    Duration d = duration(JSON.getNodeFactory().textNode(s.substring(1).trim()), at);
    if (d.isZero()) {
      throw new ScenarioException(at, expected + " other than zero, got \"" + s + "\"");
    }
    return s.charAt(0) == '-' ? d.negated() : d;
  }

  static Duration duration(JsonNode n, String at) {
    if (n == null || !n.isTextual()) {
      throw new ScenarioException(at, "expected a duration such as \"500ms\", \"10s\" or \"2m\"");
    }
    String s = n.asText().trim();
    if (s.startsWith("-")) {
      throw new ScenarioException(at, "expected a non-negative duration, got \"" + s + "\"");
    }
    Matcher m = DURATION.matcher(s);
    if (!m.matches()) {
      throw new ScenarioException(at, "expected a duration such as \"500ms\", \"10s\" or \"2m\", got \"" + s + "\"");
    }
    double v = Double.parseDouble(m.group(1));
    double ms = switch (m.group(2)) {
      case "ms" -> v;
      case "s" -> v * 1000;
      case "m", "min" -> v * 60_000;
      default -> v * 3_600_000;
    };
    return Duration.ofMillis(Math.round(ms));
  }

  private static long bytes(JsonNode n, String at, boolean onThisHost) {
    if (!n.isTextual() && !n.isIntegralNumber()) {
      throw new ScenarioException(at, "expected a size such as \"64MB\"");
    }
    try {
      long b = Workloads.parseBytes(n.asText());
      if (b <= 0) {
        throw new ScenarioException(at, "expected a positive size, got \"" + n.asText() + "\"");
      }
      long most = onThisHost ? HostLimits.inputBytes() : Long.MAX_VALUE;
      if (b > most) {
        throw new ScenarioException(at, "expected at most " + (most >> 20) + "MB (a quarter of the free space where"
            + " the nodes keep their data: input, map outputs and output), got \"" + n.asText() + "\"");
      }
      return b;
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(at, "expected a size such as \"64MB\", got \"" + n.asText() + "\"");
    }
  }

  private static int runs(JsonNode n, String at) {
    long v = integer(n, at, ScenarioFormat.number("/$defs/runs/minimum"));
    if (v > MAX_RUNS) {
      throw new ScenarioException(at, "expected at most " + MAX_RUNS + " runs per variant, got " + v);
    }
    return (int) v;
  }

  /** An integer field of an object, at least the least value the schema gives it. */
  private static int whole(Shape shape, JsonNode object, String field, String at) {
    return wholeInt(object.get(field), at + "." + field, shape.minimum(field));
  }

  /** "\"a\", \"b\" or \"c\"". */
  private static String choice(List<String> names) {
    List<String> q = names.stream().map(x -> "\"" + x + "\"").toList();
    return q.size() == 1 ? q.get(0) : String.join(", ", q.subList(0, q.size() - 1)) + " or " + q.get(q.size() - 1);
  }

  static long integer(JsonNode n, String at, long min) {
    if (n == null || !n.isNumber()) {
      throw new ScenarioException(at, "expected an integer");
    }
    if (!n.isIntegralNumber()) {
      throw new ScenarioException(at, "expected an integer, got " + n.asText());
    }
    if (!n.canConvertToLong()) {
      throw new ScenarioException(at, "expected an integer from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE
          + ", got " + n.asText());
    }
    long v = n.asLong();
    if (v < min) {
      throw new ScenarioException(at, "expected at least " + min + ", got " + v);
    }
    return v;
  }

  /** An integer kept as an int: beyond one it would wrap around into another number (4294967297 maps as 1). */
  static int wholeInt(JsonNode n, String at, long min) {
    long v = integer(n, at, min);
    if (v > Integer.MAX_VALUE) {
      throw new ScenarioException(at, "expected at most " + Integer.MAX_VALUE + ", got " + v);
    }
    return (int) v;
  }

  static String text(JsonNode n, String at) {
    if (n == null || !n.isTextual()) {
      throw new ScenarioException(at, "expected a string");
    }
    return n.asText();
  }

  static ObjectNode object(JsonNode n, String at) {
    if (n == null || !n.isObject()) {
      throw new ScenarioException(at, "expected an object {...}");
    }
    return (ObjectNode) n;
  }

  static void onlyKnown(JsonNode n, String prefix, Set<String> known) {
    n.fieldNames().forEachRemaining(f -> {
      if (!known.contains(f)) {
        throw new ScenarioException(prefix + name(f), "unknown field; expected one of " + new java.util.TreeSet<>(known));
      }
    });
  }

  /** A path a file names; one no file can have (a NUL in it) is refused here rather than by the OS later. */
  static Path path(String text, String at) {
    try {
      return Path.of(text);
    } catch (java.nio.file.InvalidPathException e) {
      throw new ScenarioException(at, "expected a path, got \"" + text + "\" (" + e.getReason() + ")");
    }
  }

  /** A field's name as a path shows it: quoted as JSON when empty or with spaces or odd characters, so that it shows. */
  static String name(String field) {
    if (field.matches("[A-Za-z0-9_$+.-]+")) {
      return field;
    }
    try {
      return JSON.writeValueAsString(field);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** "line L column C: " where the parser stopped; nothing for a limit it stopped at (depth, length) with no place. */
  static String where(JsonProcessingException e) {
    var loc = e.getLocation();
    return loc == null || loc.getLineNr() < 1 ? "" : "line " + loc.getLineNr() + " column " + loc.getColumnNr() + ": ";
  }
}
