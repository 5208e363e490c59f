package faultbed.harness.containers;

import faultbed.faults.DockerEngine;
import faultbed.faults.Ledger;
import faultbed.faults.NodeContainer;
import faultbed.faults.NodeNetwork;
import faultbed.faults.PreconditionFailed;
import faultbed.harness.AbstractCluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.HarnessException;
import faultbed.harness.containers.ContainerNode.Generation;
import faultbed.harness.daemons.HarnessDaemons;
import faultbed.harness.timeline.FaultContext;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.utility.DockerImageName;

/**
 * The containers backend: every worker node a Docker container of its own (the node process, a
 * DataNode and a NodeManager in one JVM, with its YARN containers as children) with its own
 * address on a Docker network of the harness's in 198.18.0.0/15. The NameNode, ResourceManager
 * and JobHistory server stay in the harness JVM, bound to the network's gateway. The harness's
 * classpath and working folder are mounted at the same paths, so a node runs the harness's own
 * Hadoop. Faults act through Docker and inside each container's namespace; no cgroup of the host
 * is touched, and nothing but the Docker socket is needed, save RST suppression (see
 * {@link NodeContainer}).
 */
public final class ContainerCluster extends AbstractCluster<ContainerNode> {
  /** The image nodes run in: a JRE 17, iproute2 and procps; {@value #IMAGE_PROPERTY} names another. */
  public static final String IMAGE_PROPERTY = "faultbed.node.image";
  private static final String DEFAULT_IMAGE = "faultbed-tools/jre:17";

  private final Network network;
  private final String gateway;
  private final HarnessDaemons daemons;
  private final List<GenericContainer<?>> containers = new ArrayList<>();
  private final List<ContainerNode> nodes = new ArrayList<>();
  private final String user;

  private ContainerCluster(ClusterSpec spec, Ledger ledger, Path workDir) throws IOException {
    super(spec, ledger, workDir);
    String subnet = NodeNetwork.freeSubnet();
    gateway = subnet + ".1";
    String networkName = "faultbed-" + ledger.owner();
    ledger.record(DockerEngine.network(networkName));
    network = Network.builder().driver("bridge").createNetworkCmdModifier(cmd -> cmd.withName(networkName)
        .withLabels(Map.of(DockerEngine.OWNER_LABEL, ledger.owner()))
        .withIpam(new com.github.dockerjava.api.model.Network.Ipam().withConfig(
            new com.github.dockerjava.api.model.Network.Ipam.Config().withSubnet(subnet + ".0/24").withGateway(gateway))))
        .build();
    network.getId();
    daemons = new HarnessDaemons(spec, workDir, gateway);
    resourceManagerUp(daemons.resourceManager());
    user = owner(workDir);

    List<ContainerNode> starting = new ArrayList<>();
    for (int i = 0; i < spec.nodes(); i++) {
      ContainerNode node = new ContainerNode(i, startContainer(i));
      node.begin(launch(node, 0));
      starting.add(node);
    }
    for (ContainerNode node : starting) {
      awaitServing(node);
      nodes.add(node);
    }
  }

  /**
   * Starts a cluster. Before anything else it heals what dead faultbed processes left on this
   * machine (containers, networks, folders) and reports each item to {@code log}.
   */
  public static ContainerCluster start(ClusterSpec spec, Consumer<String> log) {
    DockerEngine.unavailable().ifPresent(p -> {
      throw new PreconditionFailed("cluster.backend \"containers\": " + p);
    });
    if (spec.network().isToxiproxy()) {
      throw new PreconditionFailed("cluster.network: the containers backend makes network faults inside each"
          + " node's container; \"toxiproxy\" goes with the mini backend");
    }
    return start("containers", log, (ledger, work) -> new ContainerCluster(spec, ledger, work), ledger -> { });
  }

  /** uid:gid of the working folder: node processes write there as the harness does. */
  private static String owner(Path dir) throws IOException {
    return Files.getAttribute(dir, "unix:uid") + ":" + Files.getAttribute(dir, "unix:gid");
  }

  /** A node's container: it only sleeps; node processes are started in it by {@link #launch}. */
  private NodeContainer startContainer(int index) {
    String name = "faultbed-" + ledger.owner() + "-node-" + index;
    ledger.record(DockerEngine.container(name));
    GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(System.getProperty(IMAGE_PROPERTY, DEFAULT_IMAGE)))
        .withNetwork(network)
        .withCommand("sleep", "infinity")
        .withLabel(DockerEngine.OWNER_LABEL, ledger.owner())
        .withCreateContainerCmdModifier(cmd -> {
          cmd.withName(name).withHostName("node-" + index);
          cmd.getHostConfig().withCapAdd(com.github.dockerjava.api.model.Capability.NET_ADMIN);
        })
        .withFileSystemBind(workDir.toString(), workDir.toString(), BindMode.READ_WRITE);
    for (String root : classpathRoots()) {
      c.withFileSystemBind(root, root, BindMode.READ_ONLY);
    }
    c.start();
    containers.add(c);
    String address = c.getContainerInfo().getNetworkSettings().getNetworks().values().iterator().next().getIpAddress();
    NodeContainer node = new NodeContainer(c.getContainerId(), name, address, gateway);
    // Hadoop names a NodeManager by the reverse lookup of its address, which Docker answers (its
    // /etc/hosts and its DNS) with the container's name, unknown to the harness. The name goes to
    // a loopback address and names are looked up in files only, so the node is known by its
    // address, as on the namespace backend.
    node.exec(List.of("sh", "-c", "printf '127.0.0.1 localhost\\n127.0.1.1 %s\\n' \"$(hostname)\" > /etc/hosts"
        + " && sed -i 's/^hosts:.*/hosts: files/' /etc/nsswitch.conf"));
    return node;
  }

  /**
   * The folders to mount so every classpath entry is at its own path in a node: per top-level
   * pair of path components (a Maven repository, a checkout), the entries' common ancestor.
   */
  static List<String> classpathRoots() {
    Map<String, Path> roots = new java.util.TreeMap<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(entry).toAbsolutePath().normalize();
      Path dir = Files.isDirectory(p) ? p : p.getParent();
      if (dir == null || dir.getNameCount() < 2) {
        continue;
      }
      String key = dir.subpath(0, 2).toString();
      roots.merge(key, dir, ContainerCluster::commonAncestor);
    }
    return new ArrayList<>(new TreeSet<>(roots.values().stream().map(Path::toString).toList()));
  }

  private static Path commonAncestor(Path a, Path b) {
    Path x = a;
    while (x != null && !b.startsWith(x)) {
      x = x.getParent();
    }
    return x == null ? a.getRoot() : x;
  }

  /** Starts a node process in the node's container, from a site file of its own. */
  private Generation launch(ContainerNode node, int number) {
    int i = node.index();
    Path home = workDir.resolve("nodes").resolve("node-" + i);
    Path dir = home.resolve("g" + number);
    try {
      daemons.writeNodeSite(node.address(), home, dir);
    } catch (IOException e) {
      throw new HarnessException("cannot start node " + i, e);
    }
    // the image's Java, and containers launched by the NodeManager find it through JAVA_HOME
    String exec = node.container().start(List.of("sh", "-c",
        "JAVA_HOME=$(dirname $(dirname $(readlink -f $(command -v java)))) && export JAVA_HOME && "
            + HarnessDaemons.nodeCommand("java", dir).get(2)),
        user, Map.of("HADOOP_USER_NAME", System.getProperty("user.name")));
    return new Generation(number, dir, exec, null);
  }

  @Override
  protected void awaitServing(ContainerNode node) {
    Generation g = node.generation();
    var status = daemons.awaitServing("node " + node.index(), g.dir(),
        () -> node.container().exitCode(g.exec()) == null, () -> " with " + node.container().exitCode(g.exec()));
    node.begin(new Generation(g.number(), g.dir(), g.exec(), status));
  }

  @Override
  public List<ContainerNode> nodes() {
    return Collections.unmodifiableList(nodes);
  }

  @Override
  public Configuration configuration() {
    return daemons.client();
  }

  @Override
  public FaultContext faultContext(String runId) {
    return new FaultContext(runId, ledger, node -> ((ContainerNode) node).container().networkFaults());
  }

  @Override
  protected String backendLabel() {
    return "containers";
  }

  /** Every process of the container but the sleeper and the node process. */
  @Override
  protected void clearContainers(ContainerNode node) {
    long self = node.generation().status().pid();
    node.container().exec(List.of("sh", "-c", "for p in $(ps -e -o pid=); do [ $p -ne 1 ] && [ $p -ne " + self
        + " ] && [ $p -ne $$ ] && kill -9 $p 2>/dev/null; done; true"));
  }

  /** A new node process in the same container, its link up and its route to the harness back. */
  @Override
  protected void restart(ContainerNode node) {
    Generation g = node.generation();
    NodeContainer c = node.container();
    c.killAll();
    c.plug();
    node.begin(launch(node, g.number() + 1));
  }

  @Override
  protected boolean idle(ContainerNode node) {
    return node.processes().size() == 1;
  }

  /** Every node container removed at once (nothing of a run survives), then the daemons, then the network. */
  @Override
  protected void stop() {
    try {
      containers.parallelStream().forEach(GenericContainer::stop);
      daemons.stop();
    } finally {
      network.close();
    }
  }
}
