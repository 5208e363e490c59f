package faultbed.harness.remote;

import com.fasterxml.jackson.databind.JsonNode;
import faultbed.faults.Ledger;
import faultbed.faults.PreconditionFailed;
import faultbed.faults.remote.RemoteHost;
import faultbed.faults.remote.HostLedgers;
import faultbed.faults.remote.RemoteNodeManager;
import faultbed.faults.TrafficControl;
import faultbed.faults.remote.SshTarget;
import faultbed.faults.remote.YarnApplications;
import faultbed.harness.AbstractCluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.HarnessException;
import faultbed.harness.Inventory;
import faultbed.harness.timeline.Fault;
import faultbed.harness.timeline.FaultContext;
import faultbed.harness.timescale.TimeCompression;
import faultbed.results.RunRecord;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;
import org.awaitility.Awaitility;

/**
 * The remote backend: a YARN cluster faultbed did not start, Jepsen-style. Jobs go in with the
 * cluster's own client configuration; node and application states come from the ResourceManager's
 * REST API; each worker the inventory lists is reached over SSH, where faults act on its
 * NodeManager's process tree and packet filter and are written to a ledger on that host first.
 * Nothing is started or stopped on the cluster but a crashed NodeManager, brought back between
 * runs with the inventory's command, and nothing is touched on a host the inventory does not list.
 *
 * <p>The cluster's daemons keep their own settings: a scenario may set what a job carries (its
 * mapreduce.* and client settings), and a daemon's setting only to the value the daemon already has.
 * So with a time scale, jobs carry the compressed timers and the time-scale agent, and the
 * ResourceManager's own timers (node and AM expiry, heartbeat) must already have their scaled values.
 * Jobs also carry the jars their containers need from faultbed, so the hosts need none of it.
 */
public final class RemoteCluster extends AbstractCluster<RemoteWorker> {
  /** Remote commands and SSH logins wait no longer than this. */
  static final Duration SSH_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration SERVING = Duration.ofSeconds(120);
  /** Settings read by the ResourceManager itself, not carried by a job. */
  private static final List<String> RM_PREFIXES = List.of("yarn.resourcemanager.", "yarn.nm.liveness-monitor.",
      "yarn.scheduler.", "yarn.am.liveness-monitor.");
  /** Settings read by a NodeManager itself. */
  private static final List<String> NM_PREFIXES = List.of("yarn.nodemanager.", "mapreduce.shuffle.");

  private final Inventory inventory;
  private final Configuration conf;
  private final RestResourceManager rm;
  private final List<RemoteWorker> workers = new ArrayList<>();
  private final List<RemoteHost> hosts = new ArrayList<>();
  private final java.util.concurrent.ScheduledExecutorService leases = java.util.concurrent.Executors
      .newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "faultbed-host-leases");
        t.setDaemon(true);
        return t;
      });
  private final Map<String, Long> lastHealth = new java.util.concurrent.ConcurrentHashMap<>();
  private final RunRecord.ClusterInfo info;
  /** The ResourceManager's resource-tracker address, as the workers reach it: the master of a partition. */
  private final String master;

  private RemoteCluster(ClusterSpec spec, Ledger ledger, Path workDir, Consumer<String> log, boolean dryRun)
      throws IOException {
    super(spec, ledger, workDir);
    this.inventory = spec.inventory();
    Configuration client = clientConfiguration(inventory);
    this.rm = new RestResourceManager(WebAppUtils.getRMWebAppURLWithScheme(client));
    List<JsonNode> nodes;
    try {
      nodes = rm.nodes();
    } catch (HarnessException e) {
      throw new PreconditionFailed("inventory " + inventory.name() + ": no ResourceManager answers at " + rm.url()
          + " (from " + inventory.clientConfig() + "): " + e.getMessage());
    }
    Configuration rmConf = rm.daemonConfiguration(rm.url());
    checkDaemonSettings(spec.hadoop(), RM_PREFIXES, rmConf, "the ResourceManager");
    this.conf = jobConfiguration(client, rmConf, spec, workDir.resolve("ship"));
    resourceManagerUp(rm);
    InetSocketAddress tracker = new YarnConfiguration(rmConf).getSocketAddr(
        YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, YarnConfiguration.DEFAULT_RM_RESOURCE_TRACKER_ADDRESS,
        YarnConfiguration.DEFAULT_RM_RESOURCE_TRACKER_PORT);
    String trackerHost = tracker.getAddress() != null ? tracker.getAddress().getHostAddress()
        : ipOf(WebAppUtils.getResolvedRMWebAppURLWithoutScheme(client).split(":")[0]);
    this.master = trackerHost;
    Set<String> live = Ledger.liveOwners();
    try {
      for (SshTarget target : inventory.workers()) {
        RemoteHost host = dryRun ? RemoteHost.dryRun(target, SSH_TIMEOUT) : RemoteHost.connect(target, SSH_TIMEOUT);
        hosts.add(host);
        List<String> start = inventory.nodeManagerStart().get(target.name());
        if (start != null) {
          host.checkMayRunAsRoot(start); // before a crash needs it, or a dead harness's crash is healed with it
        }
        for (String healed : HostLedgers.healOrphans(host, live)) {
          log.accept("healed leftover on " + target.name() + ": " + healed);
        }
      }
      // a NodeManager a dead harness left frozen or cut off is back once healed, after the RM's resync
      nodes = awaitRunning(nodes);
      for (int index = 0; index < hosts.size(); index++) {
        RemoteHost host = hosts.get(index);
        SshTarget target = host.target();
        Ledger own = HostLedgers.open(host, ledger.owner());
        RemoteNodeManager nm = new RemoteNodeManager(host, own);
        nm.pid(); // one NodeManager runs there, or one line says what was found
        JsonNode node = nodeOf(target, nodes);
        Configuration nmConf = rm.daemonConfiguration(web(node));
        checkDaemonSettings(spec.hadoop(), NM_PREFIXES, nmConf, "the NodeManager of " + target.name());
        List<Path> mirror = new ArrayList<>();
        String[] logDirs = nmConf.getTrimmedStrings(YarnConfiguration.NM_LOG_DIRS, YarnConfiguration.DEFAULT_NM_LOG_DIRS);
        for (int d = 0; d < logDirs.length; d++) {
          mirror.add(Files.createDirectories(workDir.resolve("logs").resolve("node-" + index).resolve(Integer.toString(d))));
        }
        String id = node.path("id").asText();
        String host0 = NodeId.fromString(id).getHost();
        String address = ipOf(host0);
        workers.add(new RemoteWorker(index, nm, TrafficControl.sending(own, () -> host.deviceOf(address)), id, web(node),
            host0,
            nmConf.getInt("mapreduce.shuffle.port", 13562),
            List.of(nmConf.getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS)), List.of(logDirs), mirror,
            trackerHost, tracker.getPort(), inventory.nodeManagerStart().get(target.name()),
            rm::applicationMasterWebAddresses));
        RemoteHost.ClockOffset clock = host.clockOffset(4);
        log.accept(String.format("worker %s is node %d (%s), its clock %+d ms from this machine's (round trip %.1f ms)",
            target.name(), index, id, clock.offsetMs(), clock.roundTripMs()));
      }
      JsonNode first = nodeOf(inventory.workers().get(0), nodes);
      this.info = new RunRecord.ClusterInfo("remote", workers.size(),
          first.path("usedMemoryMB").asInt() + first.path("availMemoryMB").asInt(),
          first.path("usedVirtualCores").asInt() + first.path("availableVirtualCores").asInt());
      Files.createDirectories(stateDir());
      if (!dryRun) {
        leases.scheduleWithFixedDelay(this::renewLeases, 0, HostLedgers.RENEWAL.toMillis(), TimeUnit.MILLISECONDS);
      }
      rm.patient(log); // up: a ResourceManager silent for a while no longer breaks a run
    } catch (RuntimeException | IOException e) {
      leases.shutdownNow();
      hosts.forEach(RemoteHost::close);
      throw e;
    }
  }

  /** Renews this harness's lease on every host, so a harness of another machine leaves its faults alone. */
  private void renewLeases() {
    for (RemoteHost host : hosts) {
      try {
        HostLedgers.renew(host, ledger.owner());
      } catch (RuntimeException unreachable) {
        // tried again at the next renewal, well within the lease
      }
    }
  }

  /**
   * Connects to every worker of the spec's inventory, heals what dead harnesses left on them, and
   * checks each is a NodeManager of the configuration's ResourceManager; one line says why not.
   */
  public static RemoteCluster start(ClusterSpec spec, Consumer<String> log) {
    RemoteBackend.requireInventory(spec);
    return start("remote", log, (ledger, work) -> new RemoteCluster(spec, ledger, work, log, false), ledger -> { });
  }

  /**
   * What starting this cluster and making each of {@code faults} on every worker (then healing it)
   * would run on each host, as command lines in order, by host name. Only read-only probes run
   * (finding the NodeManager, its ports, the ledgers); nothing on any host changes.
   */
  static Map<String, List<String>> dryRun(ClusterSpec spec, List<Fault> faults, Consumer<String> log) {
    RemoteBackend.requireInventory(spec);
    Map<String, List<String>> planned = new java.util.LinkedHashMap<>();
    try (RemoteCluster dry = start("remote", log, (ledger, work) -> new RemoteCluster(spec, ledger, work, log, true),
        ledger -> { })) {
      FaultContext context = dry.faultContext("dry-run");
      for (RemoteWorker w : dry.workers) {
        for (Fault f : faults) {
          try {
            f.inject(w, context).healer().heal();
          } catch (PreconditionFailed e) {
            log.accept(w.hostName() + ": " + f.kind() + " refused: " + e.getMessage());
          }
          w.serving(w.nodeId(), w.webAddress()); // a crash written down left the node as it was
        }
        w.resumeHeartbeats();
        planned.put(w.hostName(), w.host().planned());
      }
    }
    return planned;
  }

  private static Configuration clientConfiguration(Inventory inv) {
    Configuration c = new Configuration();
    for (String f : List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml")) {
      Path p = inv.clientConfig().resolve(f);
      if (Files.isRegularFile(p)) {
        c.addResource(new org.apache.hadoop.fs.Path(p.toUri()));
      }
    }
    if (inv.resourceManager() != null) {
      c.set(YarnConfiguration.RM_ADDRESS, inv.resourceManager());
    }
    if (inv.jobHistory() != null) {
      c.set("mapreduce.jobhistory.webapp.address", inv.jobHistory());
    }
    return c;
  }

  /**
   * What jobs are submitted with: the client configuration; the ResourceManager's own timers as it
   * has them (the harness waits on its expiry after a crash, and the record shows them); the
   * compressed timers a job carries, and the time-scale agent shipped with it, when time is
   * compressed; the jars containers need from faultbed; and the scenario's settings.
   *
   * <p>A compressed timer the ResourceManager reads itself cannot come with a job: the cluster must
   * already have the scaled value, or the run is refused with one line naming every one it lacks.
   */
  private static Configuration jobConfiguration(Configuration client, Configuration rmConf, ClusterSpec spec,
      Path ship) {
    JobConf c = new JobConf(client); // with mapred-default.xml, whose task and AM options the agent extends
    for (TimeCompression.Timer t : TimeCompression.TIMERS) {
      if (daemonSetting(t.key(), RM_PREFIXES)) {
        c.set(t.key(), rmConf.get(t.key(), t.value(t.defaultMs())), "the ResourceManager's /conf");
      }
    }
    TimeCompression compression = new TimeCompression(spec.timeScale());
    List<String> lacking = new ArrayList<>();
    compression.settings(spec.hadoop()).forEach((k, v) -> {
      if (!daemonSetting(k, RM_PREFIXES)) {
        c.set(k, v, "cluster.timeScale");
      } else if (!v.equals(rmConf.get(k))) {
        lacking.add(k + " " + rmConf.get(k) + " (expected " + v + ")");
      }
    });
    if (!lacking.isEmpty()) {
      throw new PreconditionFailed("cluster.timeScale " + spec.timeScale() + ": the ResourceManager's own timers are"
          + " not scaled, and a job cannot change them: " + String.join(", ", lacking)
          + "; set those values on the cluster, or run with timeScale 1");
    }
    if (compression.active()) {
      Path agent = TimeCompression.writeAgentJar(ship);
      append(c, "tmpfiles", agent.toUri().toString());
      // the job's files land in each container's working folder under their own names
      String option = " " + compression.javaAgentOption(agent.getFileName());
      for (String key : List.of("mapreduce.reduce.java.opts", "yarn.app.mapreduce.am.command-opts")) {
        c.set(key, (c.get(key, "") + option).trim(), "cluster.timeScale");
      }
    }
    append(c, "tmpjars", ShippedJars.tmpjars(ship));
    spec.hadoop().forEach((k, v) -> c.set(k, v, "scenario"));
    return c;
  }

  private static boolean daemonSetting(String key, List<String> prefixes) {
    return prefixes.stream().anyMatch(key::startsWith);
  }

  /** Adds to a comma-separated list setting, keeping what the client configuration had. */
  private static void append(Configuration c, String key, String value) {
    String had = c.getTrimmed(key, "");
    c.set(key, had.isEmpty() ? value : had + "," + value, "faultbed");
  }

  /** A daemon's own setting asked for with another value than the daemon has: refused, since a job cannot change it. */
  private static void checkDaemonSettings(Map<String, String> hadoop, List<String> prefixes, Configuration daemon,
      String who) {
    hadoop.forEach((k, v) -> {
      if (daemonSetting(k, prefixes) && !v.equals(daemon.get(k))) {
        throw new PreconditionFailed("hadoop." + k + ": " + who + " has " + (daemon.get(k) == null ? "no value"
            : "\"" + daemon.get(k) + "\"") + " and a job cannot change it; expected that value or no setting, got \""
            + v + "\"");
      }
    });
  }

  /**
   * The RM's nodes once every worker has a RUNNING one, or as they are after a bounded wait (the
   * caller then refuses the worker that has none, with one line).
   */
  private List<JsonNode> awaitRunning(List<JsonNode> nodes) {
    java.util.concurrent.atomic.AtomicReference<List<JsonNode>> now = new java.util.concurrent.atomic.AtomicReference<>(nodes);
    try {
      // a worker the RM has never heard of is refused at once; one it lists LOST may be on its way back
      Awaitility.await("every worker RUNNING").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions().until(() -> {
            now.set(rm.nodes());
            return inventory.workers().stream().allMatch(w -> !listed(w, now.get(), false) || listed(w, now.get(), true));
          });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      // nodeOf says which worker is not
    }
    return now.get();
  }

  /** Whether the RM lists a node on the worker's host (a RUNNING one, if {@code running}). */
  private static boolean listed(SshTarget target, List<JsonNode> nodes, boolean running) {
    String ip = ipOf(target.address());
    return nodes.stream().anyMatch(n -> ip.equals(ipOf(n.path("nodeHostName").asText()))
        && (!running || n.path("state").asText().equals("RUNNING")));
  }

  /** The RM's node on the worker's host; refused with one line when the RM has none there. */
  private static JsonNode nodeOf(SshTarget target, List<JsonNode> nodes) {
    String ip = ipOf(target.address());
    List<JsonNode> there = nodes.stream().filter(n -> ip.equals(ipOf(n.path("nodeHostName").asText()))).toList();
    return there.stream().filter(n -> n.path("state").asText().equals("RUNNING")).findFirst()
        .orElseThrow(() -> new PreconditionFailed("workers " + target + ": not a RUNNING NodeManager of the"
            + " ResourceManager (it lists " + (there.isEmpty() ? "no node at " + ip : there.stream()
                .map(n -> n.path("id").asText() + " " + n.path("state").asText()).toList()) + ")"));
  }

  private static String web(JsonNode node) {
    return "http://" + node.path("nodeHTTPAddress").asText();
  }

  private static String ipOf(String host) {
    try {
      return InetAddress.getByName(host).getHostAddress();
    } catch (UnknownHostException e) {
      return host;
    }
  }

  @Override
  protected String backendLabel() {
    return "remote";
  }

  @Override
  public RunRecord.ClusterInfo info() {
    return info;
  }

  @Override
  public List<RemoteWorker> nodes() {
    return workers;
  }

  @Override
  public Configuration configuration() {
    return conf;
  }

  @Override
  public FaultContext faultContext(String runId) {
    workers.forEach(w -> w.forRun(runId));
    return new FaultContext(runId, ledger, node -> ((RemoteWorker) node).network(), master, workers);
  }

  /** Containers of a shared cluster are not faultbed's to kill: the reset waits for them to end. */
  @Override
  protected void clearContainers(RemoteWorker node) {}

  /** The inventory's start command for the host, after noting the node's last health report. */
  @Override
  protected void restart(RemoteWorker node) {
    List<String> command = inventory.nodeManagerStart().get(node.hostName());
    if (command == null) {
      throw new PreconditionFailed("workers " + node.hostName() + ": its NodeManager is down and the inventory"
          + " gives no nodeManagerStart command to bring it back");
    }
    rm.nodes().stream().filter(n -> n.path("id").asText().equals(node.nodeId()))
        .forEach(n -> lastHealth.put(node.hostName(), n.path("lastHealthUpdate").asLong()));
    node.nodeManager().start(command);
  }

  /**
   * Until the host runs one NodeManager and the RM has a RUNNING node there that reported since
   * the restart (a NodeManager that keeps its port keeps its NodeId; one that does not gets a new one).
   */
  @Override
  protected void awaitServing(RemoteWorker node) {
    String ip = ipOf(node.address());
    long before = lastHealth.getOrDefault(node.hostName(), Long.MIN_VALUE);
    JsonNode[] found = new JsonNode[1];
    Awaitility.await("the NodeManager of " + node.hostName() + " back and RUNNING").atMost(SERVING)
        .pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
        .until(() -> {
          node.nodeManager().pid();
          found[0] = rm.nodes().stream().filter(n -> ip.equals(ipOf(n.path("nodeHostName").asText()))
              && n.path("state").asText().equals("RUNNING") && n.path("lastHealthUpdate").asLong() != before)
              .findFirst().orElse(null);
          return found[0] != null;
        });
    node.serving(found[0].path("id").asText(), web(found[0]));
  }

  /** No process under the NodeManager: every container of the last run has exited. */
  @Override
  protected boolean idle(RemoteWorker node) {
    return node.nodeManager().tree().size() == 1;
  }

  /**
   * Brings the application's container logs from every worker (each log folder's
   * {@code <application>} subfolder, as one tar stream) into the node's local copies, which
   * {@link RemoteWorker#logDirs()} names; what an earlier run brought is replaced.
   */
  @Override
  public void submitted(String applicationId) {
    ledger.record(YarnApplications.entry(rm.url(), applicationId, applicationId));
  }

  @Override
  public void finished(String applicationId) {
    ledger.heal(YarnApplications.entry(rm.url(), applicationId, applicationId));
  }

  /** The logs' copies on this machine go; the cluster's history, the user's, stays. */
  @Override
  protected void forget(String applicationId) {
    forgetLogs(applicationId);
  }

  @Override
  public void gatherLogs(String applicationId) {
    if (!applicationId.matches("application_\\d+_\\d+")) {
      throw new IllegalArgumentException("not an application id: " + applicationId);
    }
    for (RemoteWorker w : workers) {
      for (int d = 0; d < w.remoteLogDirs().size(); d++) {
        String dir = w.remoteLogDirs().get(d);
        Path into = w.mirror().get(d);
        if (!w.host().probeAsRoot(List.of("has-logs", dir, applicationId)).ok()) {
          continue;
        }
        byte[] tar = w.host().readAsRoot(List.of("logs", dir, applicationId));
        try {
          untar(tar, into, applicationId);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot unpack the logs of " + applicationId + " from " + w.hostName(), e);
        }
      }
    }
  }

  private static void untar(byte[] tar, Path into, String applicationId) throws IOException {
    Path app = into.resolve(applicationId);
    if (Files.exists(app)) {
      try (var old = Files.walk(app)) {
        for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    try (InputStream in = new ByteArrayInputStream(tar); TarArchiveInputStream entries = new TarArchiveInputStream(in)) {
      TarArchiveEntry e;
      while ((e = entries.getNextEntry()) != null) {
        Path to = into.resolve(e.getName()).normalize();
        if (!to.startsWith(app)) {
          throw new IOException("an entry outside " + applicationId + ": " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(to);
        } else if (e.isFile()) {
          Files.createDirectories(to.getParent());
          Files.copy(entries, to, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  /** Heals what this harness put on every host (its ledger there), then closes the SSH sessions. */
  @Override
  protected void stop() {
    leases.shutdownNow();
    try {
      // a renewal under way would make the file again after the heal removed it
      leases.awaitTermination(SSH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      for (RemoteWorker w : workers) {
        w.resumeHeartbeats();
        w.nodeManager().ledger().close();
      }
    } finally {
      hosts.forEach(RemoteHost::close);
    }
  }
}
