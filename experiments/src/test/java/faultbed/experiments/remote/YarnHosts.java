package faultbed.experiments.remote;

import faultbed.faults.Cgroup;
import faultbed.faults.Ledger;
import faultbed.faults.LedgerEntry;
import faultbed.faults.NodeNetwork;
import faultbed.faults.SshdHost;
import faultbed.faults.remote.SshTarget;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.awaitility.Awaitility;

/**
 * A real multi-host YARN cluster for the remote backend's tests, which faultbed's code neither
 * starts nor controls: hosts are network namespaces with addresses of their own, each running
 * OpenSSH's sshd, and Hadoop's daemons run as separate JVMs from the Maven classpath the way
 * Hadoop's scripts start them ({@code java -Dproc_<daemon> -cp <conf>:<classpath> <main class>}):
 * the NameNode, ResourceManager and JobHistory server on the master, a DataNode and a NodeManager
 * on each worker, each host with its own configuration folder. Every process runs in a faultbed
 * cgroup recorded in the ledger, so a killed test JVM leaves nothing the next start does not heal.
 */
public final class YarnHosts implements AutoCloseable {
  private static final Duration START = Duration.ofMinutes(3);
  private static final String NODE_MANAGER = "org.apache.hadoop.yarn.server.nodemanager.NodeManager";
  /**
   * The hosts' Hadoop: this JVM's classpath without faultbed's own classes and jars (its build
   * folders and its Maven group) and Byte Buddy, which Hadoop does not ship, so jobs find what they
   * need from faultbed only if they carry it, as on a cluster that has never seen faultbed.
   */
  static final List<String> HADOOP_CLASSPATH = java.util.Arrays.stream(
          System.getProperty("java.class.path").split(java.io.File.pathSeparator))
      .filter(e -> !e.contains("/target/") && !e.contains("/dev/faultbed/") && !e.contains("byte-buddy"))
      .toList();
  private static final List<String> OPENS = List.of("java.lang", "java.util", "java.util.concurrent",
      "java.net", "java.io", "sun.nio.ch", "java.lang.reflect");

  /**
   * One host: its network namespace (and address), the prefix that runs a command on it (in that
   * network namespace and in the host's own process space), its sshd, the group holding its
   * processes, its folders.
   */
  public record Host(String name, NodeNetwork.NodeNamespace ns, List<String> enter, SshdHost sshd, Cgroup daemons,
      Path dir) {
    public String address() {
      return ns.address();
    }

    Path conf() {
      return dir.resolve("conf");
    }
  }

  private final Path dir;
  private final Ledger ledger;
  private final NodeNetwork net;
  private final Path clientKey;
  private final List<Host> hosts = new ArrayList<>();
  private final Map<String, String> yarnSettings = new LinkedHashMap<>();
  /** The folder in root's home faultbed keeps its remote ledgers in, each host's made its own. */
  private static final Path FAULTBED_HOME = Path.of(System.getProperty("user.home"), ".faultbed");
  private boolean madeFaultbedHome;

  private YarnHosts(Path dir) {
    this.dir = dir;
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.clientKey = SshdHost.keyPair(dir.resolve("client_key"));
    this.ledger = Ledger.open();
    // the harness's own group first, so healing removes it after the hosts' groups made in it
    ledger.record(LedgerEntry.cgroup(Cgroup.of(ledger.owner()).create(), "yarn-hosts"));
    this.net = NodeNetwork.create(ledger);
  }

  /** Empty when the cluster can be made here; otherwise what is missing, one line each. */
  public static List<String> problems() {
    return SshdHost.problems();
  }

  /**
   * For a test class: {@link #start(Path, int, Map)} in a fresh temporary folder named {@code name},
   * its inventory written to {@link #inventoryFile()}; the test is skipped (with what is missing)
   * where no cluster of hosts can be made.
   */
  public static YarnHosts forTest(String name, int workers, Map<String, String> yarn) throws IOException {
    List<String> problems = problems();
    org.junit.jupiter.api.Assumptions.assumeTrue(problems.isEmpty(), () -> "no test cluster of hosts here: " + problems);
    YarnHosts c = start(Files.createTempDirectory(name).resolve("hosts"), workers, yarn);
    c.writeInventory(c.inventoryFile());
    return c;
  }

  /** The test's folder {@link #forTest} made: the hosts' folder is in it, and the inventory beside. */
  public Path testFolder() {
    return dir.getParent();
  }

  public Path inventoryFile() {
    return testFolder().resolve("inventory.json");
  }

  /** A master and {@code workers} workers, serving (every DataNode live, every NodeManager RUNNING) when returned. */
  public static YarnHosts start(Path dir, int workers) {
    return start(dir, workers, Map.of());
  }

  /**
   * The same, with {@code yarn} added to every host's yarn-site.xml, as an administrator sets a
   * cluster up (such as a ResourceManager whose timers are scaled for compressed experiments).
   */
  public static YarnHosts start(Path dir, int workers, Map<String, String> yarn) {
    YarnHosts c = new YarnHosts(dir);
    c.yarnSettings.putAll(yarn);
    try {
      c.host("master", 0);
      for (int i = 1; i <= workers; i++) {
        c.host("w" + i, i);
      }
      for (Host h : c.hosts) {
        c.writeConfiguration(h);
      }
      Host m = c.master();
      c.format(m);
      c.daemon(m, "namenode", "org.apache.hadoop.hdfs.server.namenode.NameNode");
      c.daemon(m, "resourcemanager", "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager");
      await("the NameNode and ResourceManager of " + m.address(), () -> open(m.address(), 9000) && open(m.address(), 8032));
      for (Host w : c.workers()) {
        c.daemon(w, "datanode", "org.apache.hadoop.hdfs.server.datanode.DataNode");
        c.daemon(w, "nodemanager", NODE_MANAGER);
        c.writeStartScript(w);
      }
      await(workers + " DataNodes live", () -> c.liveDataNodes() == workers);
      await(workers + " NodeManagers RUNNING", () -> c.runningNodeManagers().size() == workers);
      c.daemon(m, "historyserver", "org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer");
      await("the JobHistory server", () -> open(m.address(), 10020) && open(m.address(), 19888));
      return c;
    } catch (RuntimeException e) {
      c.close();
      throw e;
    }
  }

  public Host master() {
    return hosts.get(0);
  }

  public List<Host> workers() {
    return hosts.subList(1, hosts.size());
  }

  /** The configuration folder a client on the harness's machine submits jobs with. */
  public Path clientConfig() {
    return master().conf();
  }

  /** The key the workers' sshd lets in as root. */
  public Path clientKey() {
    return clientKey;
  }

  /** How faultbed reaches worker {@code h} over SSH. */
  public SshTarget target(Host h) {
    return h.sshd().target(h.name(), clientKey);
  }

  /**
   * An inventory file naming this cluster: its client configuration, and each worker with its
   * address, the client key, its own known-hosts file, and root by login.
   */
  public Path writeInventory(Path file) {
    String workers = workers().stream().map(w -> String.format(
        "    { \"name\": \"%s\", \"address\": \"%s\", \"ssh\": { \"knownHosts\": \"%s\" },"
            + " \"nodeManagerStart\": [\"%s\"] }",
        w.name(), w.address(), w.sshd().knownHosts(), startScript(w))).collect(Collectors.joining(",\n"));
    String json = "{\n  \"name\": \"yarn-hosts\",\n  \"clientConfig\": \"" + clientConfig() + "\",\n"
        + "  \"ssh\": { \"user\": \"root\", \"key\": \"" + clientKey + "\", \"become\": \"root\" },\n"

        + "  \"workers\": [\n" + workers + "\n  ]\n}\n";
    try {
      return Files.writeString(file, json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A login that is not root, for a least-privilege inventory: its home (each host's own, bind-mounted
   * at one path in each host's mount namespace, as on separate machines) and the host helper it may
   * sudo, installed root-owned.
   */
  public record Login(String user, Path home, Path helper) {}

  private Login login;

  /**
   * The login whose sudo rule is exactly the one docs/backends.md gives: faultbed's host helper, and
   * each worker's NodeManager start command, nothing else. Made once; null where this machine has no
   * sudo or useradd. The user and the rule are recorded in the ledger before they are made.
   */
  public Login helperLogin() {
    if (login != null || !onPath("sudo") || !onPath("useradd") || !onPath("visudo")) {
      return login;
    }
    String user = "fbops" + ProcessHandle.current().pid();
    Path sudoers = Path.of("/etc/sudoers.d/faultbed-test-" + user);
    ledger.record(faultbed.faults.Undo.entry("user " + user, "yarn-hosts", List.of("id", "-u", user), null,
        List.of("userdel", "-f", user)));
    ledger.record(faultbed.faults.Undo.entry("sudo rule " + sudoers, "yarn-hosts", List.of("test", "-e",
        sudoers.toString()), null, List.of("rm", "-f", sudoers.toString())));
    try {
      // the login reaches its home, the helper and sshd's key file through these folders
      for (Path p = dir; p != null; p = p.getParent()) {
        java.util.Set<java.nio.file.attribute.PosixFilePermission> perms = Files.getPosixFilePermissions(p);
        if (perms.add(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)) {
          if (!p.equals(dir) && !p.equals(dir.getParent())) {
            return null; // a folder not the test's own: left as it is, and the harness logs in as root
          }
          Files.setPosixFilePermissions(p, perms);
        }
      }
      Path home = opsHome();
      run(List.of("useradd", "-M", "-N", "-d", home.toString(), "-s", "/bin/sh", "-p", "*", user));
      for (Host w : workers()) {
        run(List.of("chown", user, w.dir().resolve("ops-home").toString())); // what each host shows at home
      }
      Path helper = Files.write(Files.createDirectories(dir.resolve("bin")).resolve("faultbed-host"),
          faultbed.faults.remote.RemoteHost.HELPER);
      Files.setPosixFilePermissions(helper, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
      String starts = workers().stream().map(w -> startScript(w).toString()).collect(Collectors.joining(", "));
      Path rule = Files.writeString(dir.resolve("sudo-rule"), user + " ALL=(root) NOPASSWD: " + helper + ", " + starts
          + "\n");
      run(List.of("visudo", "-c", "-q", "-f", rule.toString())); // a broken rule would break sudo itself
      run(List.of("install", "-o", "root", "-g", "root", "-m", "0440", rule.toString(), sudoers.toString()));
      login = new Login(user, home, helper);
      return login;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Path opsHome() {
    return dir.resolve("ops-home");
  }

  private static boolean onPath(String program) {
    return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":"))
        .anyMatch(d -> Files.isExecutable(Path.of(d, program)));
  }

  private static void run(List<String> command) {
    faultbed.faults.Commands.Result r = faultbed.faults.Commands.local().act(command);
    if (!r.ok()) {
      throw new IllegalStateException(String.join(" ", command) + " failed (" + r.code() + "): " + r.said());
    }
  }

  /** {@link #writeInventory(Path)} with {@code login} logging in, its sudo the helper's rule. */
  public Path writeInventory(Path file, Login login) {
    Path written = writeInventory(file);
    try {
      return Files.writeString(written, Files.readString(written).replace(
          "\"ssh\": { \"user\": \"root\", \"key\": \"" + clientKey + "\", \"become\": \"root\" }",
          "\"ssh\": { \"user\": \"" + login.user() + "\", \"key\": \"" + clientKey + "\", \"become\": { \"helper\": \""
              + login.helper() + "\" } }"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Applications the ResourceManager lists as RUNNING (its REST API). */
  public int runningApplications() throws IOException, InterruptedException {
    String body = get("http://" + master().address() + ":8088/ws/v1/cluster/apps?states=RUNNING");
    return (int) Pattern.compile("\"id\"\\s*:\\s*\"application_").matcher(body).results().count();
  }

  /** NodeManagers the ResourceManager lists as RUNNING, by host address (its REST API). */
  public List<String> runningNodeManagers() throws IOException, InterruptedException {
    String body = get("http://" + master().address() + ":8088/ws/v1/cluster/nodes?states=RUNNING");
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("\"nodeHostName\"\\s*:\\s*\"([^\"]+)\"").matcher(body);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  private int liveDataNodes() throws IOException, InterruptedException {
    String body = get("http://" + master().address() + ":9870/jmx?qry=Hadoop:service=NameNode,name=FSNamesystemState");
    Matcher m = Pattern.compile("\"NumLiveDataNodes\"\\s*:\\s*(\\d+)").matcher(body);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  /**
   * A host: a network namespace, and a process space of its own (a PID namespace with its own
   * /proc), so that on each host, as on a machine, ps shows that host's processes alone. Its first
   * process holds the space open; everything else is entered into it with nsenter.
   */
  private void host(String name, int index) {
    NodeNetwork.NodeNamespace ns = net.add(index);
    Cgroup daemons = Cgroup.of(ledger.owner() + "/" + name).create();
    ledger.record(LedgerEntry.cgroup(daemons, "yarn-hosts"));
    hosts.add(boot(name, ns, daemons));
  }

  /**
   * Brings host {@code name} up in its network namespace and group: its process space, its homes
   * (its own, from its folder, as on a machine's disk) and its sshd (keys kept from an earlier boot).
   */
  private Host boot(String name, NodeNetwork.NodeNamespace ns, Cgroup daemons) {
    Path home = dir.resolve(name);
    try {
      daemons.spawn(NodeNetwork.inside(ns, List.of("unshare", "--pid", "--fork", "--mount-proc", "sleep", "infinity")));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make host " + name, e);
    }
    long[] init = new long[1];
    Awaitility.await("the process space of " + name).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
        .until(() -> (init[0] = daemons.pids().stream().filter(p -> ProcessHandle.of(p) // the sleep, not unshare
            .flatMap(h -> h.info().command()).map(c -> c.endsWith("/sleep")).orElse(false))
            .findFirst().orElse(0L)) != 0);
    List<String> enter = List.of("nsenter", "--target", Long.toString(init[0]), "--pid", "--mount", "--net", "--");
    // faultbed's folder in root's home (its ledger) of this host's own, as on a machine; the rest of
    // the home is the machine's, where the Maven repository the daemons run from lives
    Path own = home.resolve("faultbed-home");
    List<String> mount = new ArrayList<>(enter);
    mount.addAll(List.of("mount", "--bind", own.toString(), FAULTBED_HOME.toString()));
    // and the home of the login helperLogin makes, at one path: sshd, started next, sees only what is mounted by then
    List<String> mountOps = new ArrayList<>(enter);
    mountOps.addAll(List.of("mount", "--bind", home.resolve("ops-home").toString(), opsHome().toString()));
    try {
      Files.createDirectories(own);
      Files.createDirectories(home.resolve("ops-home"));
      Files.createDirectories(opsHome());
      if (!Files.isDirectory(FAULTBED_HOME)) {
        Files.createDirectories(FAULTBED_HOME);
        madeFaultbedHome = true;
      }
      for (List<String> m : List.of(mount, mountOps)) {
        Process p = new ProcessBuilder(m).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
          throw new IllegalStateException("cannot give host " + name + " a home of its own: " + out);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    SshdHost sshd = SshdHost.start(ledger, ns, home.resolve("sshd"), clientKey, enter);
    return new Host(name, ns, enter, sshd, daemons, home);
  }

  /**
   * Reboots worker {@code w} as a machine reboots: every process of it ends at once (the first of
   * its process space is killed, and the kernel kills the rest with it: its sshd, DataNode,
   * NodeManager, task JVMs and whatever faultbed started there); what lives in the kernel's memory
   * goes (its packet filter rules and queueing disciplines); what is on its disk stays (its
   * folders, faultbed's ledger in root's home, the login's home). Then it boots: sshd, with its
   * host keys, and its DataNode and NodeManager, as its init would start them. Returns the host as
   * booted; the ResourceManager may not have its NodeManager back yet.
   */
  public Host reboot(Host w) {
    int at = hosts.indexOf(w);
    if (at < 1) {
      throw new IllegalArgumentException("not a worker of this cluster: " + w.name());
    }
    long init = Long.parseLong(w.enter().get(2));
    ProcessHandle.of(init).ifPresent(ProcessHandle::destroyForcibly);
    w.sshd().close(); // its group, empty by now or soon
    Awaitility.await("every process of " + w.name() + " gone").atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100)).until(() -> w.daemons().pids().isEmpty());
    run(NodeNetwork.inside(w.ns(), List.of("sh", "-c", "for t in filter nat mangle raw; do iptables -t $t -F"
        + " && iptables -t $t -X; done; for d in $(ls /sys/class/net); do tc qdisc del dev $d root 2>/dev/null;"
        + " done; true")));
    Host booted = boot(w.name(), w.ns(), w.daemons());
    hosts.set(at, booted);
    daemon(booted, "datanode", "org.apache.hadoop.hdfs.server.datanode.DataNode");
    daemon(booted, "nodemanager", NODE_MANAGER);
    return booted;
  }

  private void writeConfiguration(Host h) {
    String m = master().address();
    String a = h.address();
    Path d = h.dir();
    Map<String, String> core = new LinkedHashMap<>();
    core.put("fs.defaultFS", "hdfs://" + m + ":9000");
    core.put("hadoop.tmp.dir", d.resolve("tmp").toString());
    Map<String, String> hdfs = new LinkedHashMap<>();
    hdfs.put("dfs.namenode.rpc-address", m + ":9000");
    hdfs.put("dfs.namenode.http-address", m + ":9870");
    hdfs.put("dfs.namenode.name.dir", master().dir().resolve("name").toString());
    hdfs.put("dfs.namenode.safemode.extension", "0");
    hdfs.put("dfs.namenode.datanode.registration.ip-hostname-check", "false");
    hdfs.put("dfs.permissions.enabled", "false");
    hdfs.put("dfs.replication", Integer.toString(Math.min(3, hosts.size() - 1)));
    hdfs.put("dfs.datanode.data.dir", d.resolve("data").toString());
    hdfs.put("dfs.datanode.hostname", a);
    hdfs.put("dfs.datanode.address", a + ":9866");
    hdfs.put("dfs.datanode.http.address", a + ":9864");
    hdfs.put("dfs.datanode.ipc.address", a + ":9867");
    Map<String, String> yarn = new LinkedHashMap<>();
    yarn.put("yarn.resourcemanager.hostname", m);
    // the RM's node-attribute store, by default under /tmp, goes with the master's folder
    yarn.put("yarn.node-attribute.fs-store.root-dir", master().dir().resolve("node-attribute").toUri().toString());
    yarn.put("yarn.nodemanager.hostname", a);
    yarn.put("yarn.nodemanager.address", a + ":8041");
    yarn.put("yarn.nodemanager.aux-services", "mapreduce_shuffle");
    yarn.put("yarn.nodemanager.aux-services.mapreduce_shuffle.class", "org.apache.hadoop.mapred.ShuffleHandler");
    yarn.put("yarn.nodemanager.local-dirs", d.resolve("nm-local").toString());
    yarn.put("yarn.nodemanager.log-dirs", d.resolve("nm-logs").toString());
    yarn.put("yarn.nodemanager.resource.memory-mb", "2048");
    yarn.put("yarn.nodemanager.resource.cpu-vcores", "4");
    yarn.put("yarn.nodemanager.resource.detect-hardware-capabilities", "false");
    yarn.put("yarn.nodemanager.pmem-check-enabled", "false");
    yarn.put("yarn.nodemanager.vmem-check-enabled", "false");
    yarn.put("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "99.5");
    yarn.put("yarn.nodemanager.admin-env", "JAVA_HOME=" + System.getProperty("java.home"));
    yarn.put("yarn.scheduler.minimum-allocation-mb", "128");
    // a crashed NodeManager is LOST after 20 s, not Hadoop's 10 minutes
    yarn.put("yarn.nm.liveness-monitor.expiry-interval-ms", "20000");
    yarn.putAll(yarnSettings);
    Map<String, String> mapred = new LinkedHashMap<>();
    mapred.put("mapreduce.framework.name", "yarn");
    mapred.put("mapreduce.jobhistory.address", m + ":10020");
    mapred.put("mapreduce.jobhistory.webapp.address", m + ":19888");
    // the hosts' Hadoop "install" is the Maven classpath: jobs run it, not what the client has
    mapred.put("mapreduce.application.classpath", String.join(",", HADOOP_CLASSPATH));
    mapred.put("yarn.app.mapreduce.am.resource.mb", "512");
    mapred.put("yarn.app.mapreduce.am.command-opts", "-Xmx384m");
    mapred.put("mapreduce.map.memory.mb", "256");
    mapred.put("mapreduce.reduce.memory.mb", "256");
    mapred.put("mapreduce.map.java.opts", "-Xmx200m");
    mapred.put("mapreduce.reduce.java.opts", "-Xmx200m");
    try {
      Files.createDirectories(h.conf());
      site(h.conf().resolve("core-site.xml"), core);
      site(h.conf().resolve("hdfs-site.xml"), hdfs);
      site(h.conf().resolve("yarn-site.xml"), yarn);
      site(h.conf().resolve("mapred-site.xml"), mapred);
      Files.writeString(h.conf().resolve("log4j.properties"), String.join("\n",
          "log4j.rootLogger=INFO,console",
          "log4j.appender.console=org.apache.log4j.ConsoleAppender",
          "log4j.appender.console.target=System.err",
          "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
          "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n", ""));
      Files.createDirectories(d.resolve("logs"));
      Files.createDirectories(d.resolve("tmp"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A site file as Hadoop writes one. */
  private static void site(Path file, Map<String, String> settings) throws IOException {
    Configuration c = new Configuration(false);
    settings.forEach(c::set);
    try (OutputStream out = Files.newOutputStream(file)) {
      c.writeXml(out);
    }
  }

  /** The Java command Hadoop's scripts would run for {@code daemon} on host {@code h}. */
  private List<String> java(Host h, String daemon, String mainClass, String... args) {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dproc_" + daemon, "-Xmx256m", "-XX:+UseSerialGC", "-Djava.net.preferIPv4Stack=true",
        "-Dhadoop.log.dir=" + h.dir().resolve("logs"), "-Dhadoop.log.file=" + daemon + ".log",
        "-Dyarn.log.dir=" + h.dir().resolve("logs"), "-Dhadoop.home.dir=" + h.dir(), "-Dhadoop.id.str=root",
        "-Djava.io.tmpdir=" + h.dir().resolve("tmp")));
    for (String pkg : OPENS) {
      cmd.addAll(List.of("--add-opens", "java.base/" + pkg + "=ALL-UNNAMED"));
    }
    cmd.addAll(List.of("-cp", h.conf() + ":" + String.join(":", HADOOP_CLASSPATH), mainClass));
    cmd.addAll(List.of(args));
    String line = "exec " + cmd.stream().map(YarnHosts::quote).collect(Collectors.joining(" ")) + " > "
        + quote(h.dir().resolve("logs").resolve(daemon + ".out").toString()) + " 2>&1";
    List<String> onHost = new ArrayList<>(h.enter());
    onHost.addAll(List.of("sh", "-c", line));
    return onHost;
  }

  /** The script that starts a worker's NodeManager again, run on the host (over SSH), as a user's init would. */
  private static Path startScript(Host w) {
    return w.dir().resolve("start-nodemanager");
  }

  private void writeStartScript(Host w) {
    List<String> cmd = java(w, "nodemanager", NODE_MANAGER);
    String line = cmd.get(cmd.size() - 1); // what runs inside the host, without the way in
    try {
      Files.writeString(startScript(w), "#!/bin/sh\n" + line + "\n");
      startScript(w).toFile().setExecutable(true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void daemon(Host h, String daemon, String mainClass) {
    try {
      h.daemons().spawn(java(h, daemon, mainClass));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the " + daemon + " of " + h.name(), e);
    }
  }

  private void format(Host m) {
    try {
      Process p = m.daemons().spawn(java(m, "namenode-format", "org.apache.hadoop.hdfs.server.namenode.NameNode",
          "-format", "-nonInteractive", "-force"));
      if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IllegalStateException("formatting the NameNode failed; see "
            + m.dir().resolve("logs").resolve("namenode-format.out"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void await(String what, java.util.concurrent.Callable<Boolean> condition) {
    Awaitility.await(what).atMost(START).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(condition);
  }

  private static boolean open(String host, int port) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 1000);
      return true;
    }
  }

  private static String get(String url) throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
        .header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofString());
    return r.body();
  }

  private static String quote(String s) {
    return s.matches("[A-Za-z0-9_@%+=:,./-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
  }

  /** Stops every daemon and sshd, removes the namespaces, and heals the ledger. */
  @Override
  public void close() {
    for (Host h : hosts) {
      h.daemons().destroy();
      h.sshd().close();
    }
    net.close();
    ledger.close();
    if (madeFaultbedHome) {
      try {
        Files.deleteIfExists(FAULTBED_HOME); // the mount point, empty
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
