package faultbed.harness.containers;

import faultbed.faults.DockerEngine;
import faultbed.faults.Ledger;
import faultbed.faults.NetworkFaults;
import faultbed.faults.NodeContainer;
import faultbed.faults.NodeNetwork;
import faultbed.faults.PreconditionFailed;
import faultbed.faults.ToxiproxyServer;
import faultbed.harness.ClusterSpec;
import faultbed.harness.daemons.HarnessDaemons;
import faultbed.harness.daemons.ProcessNodeCluster;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;

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
public final class ContainerCluster extends ProcessNodeCluster<String, ContainerNode> {
  private final Network network;
  private final String gateway;
  private final List<GenericContainer<?>> containers = new ArrayList<>();
  private final String user;
  /** How long a stopping cluster waits for an engine that does not answer (a restart takes seconds). */
  private static final java.time.Duration ENGINE_BACK = java.time.Duration.ofMinutes(2);

  private ContainerCluster(ClusterSpec spec, Ledger ledger, Path workDir, Network network, String gateway)
      throws IOException {
    super(spec, ledger, workDir, gateway);
    this.network = network;
    this.gateway = gateway;
    this.user = owner(workDir);
    startNodes(i -> new ContainerNode(i, startContainer(i)));
  }

  /** The harness's own Docker network on a free /24 of 198.18.0.0/15, in the ledger before it exists. */
  private static ContainerCluster assemble(ClusterSpec spec, Ledger ledger, Path workDir) throws IOException {
    String name = "faultbed-" + ledger.owner();
    ledger.record(DockerEngine.network(name));
    // the engine puts the gateway's address on its bridge as it creates the network
    OwnNetwork own = NodeNetwork.claimFreeSubnet(subnet -> {
      String gateway = subnet + ".1";
      Network n = Network.builder().driver("bridge").createNetworkCmdModifier(cmd -> cmd.withName(name)
          .withLabels(Map.of(DockerEngine.OWNER_LABEL, ledger.owner()))
          .withIpam(new com.github.dockerjava.api.model.Network.Ipam().withConfig(
              new com.github.dockerjava.api.model.Network.Ipam.Config().withSubnet(subnet + ".0/24").withGateway(gateway))))
          .build();
      n.getId();
      return new OwnNetwork(n, gateway);
    });
    return new ContainerCluster(spec, ledger, workDir, own.network(), own.gateway());
  }

  /** The harness's Docker network and the host's address on it. */
  private record OwnNetwork(Network network, String gateway) {
  }

  /**
   * Starts a cluster. Before anything else it heals what dead faultbed processes left on this
   * machine (containers, networks, folders) and reports each item to {@code log}.
   * {@link faultbed.harness.Clusters#start} has checked what it needs of the host.
   */
  static ContainerCluster start(ClusterSpec spec, Consumer<String> log) {
    return start("containers", log, (ledger, work) -> assemble(spec, ledger, work), ledger -> { });
  }

  /** uid:gid of the working folder: node processes write there as the harness does. */
  private static String owner(Path dir) throws IOException {
    return Files.getAttribute(dir, "unix:uid") + ":" + Files.getAttribute(dir, "unix:gid");
  }

  /** A node's container: it only sleeps; node processes are started in it by {@link #launch}. */
  private NodeContainer startContainer(int index) {
    String name = "faultbed-" + ledger.owner() + "-node-" + index;
    ledger.record(DockerEngine.container(name));
    GenericContainer<?> c = NodeImage.container()
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

  /** A Docker exec in the node's container, as the harness's user, with the image's Java. */
  @Override
  protected String startProcess(ContainerNode node, Path dir) {
    // containers launched by the NodeManager find Java through JAVA_HOME
    return node.container().start(List.of("sh", "-c",
        "JAVA_HOME=$(dirname $(dirname $(readlink -f $(command -v java)))) && export JAVA_HOME && "
            + HarnessDaemons.nodeCommand("java", dir, node.ownClock()).get(2)),
        user, Map.of("HADOOP_USER_NAME", System.getProperty("user.name")));
  }

  @Override
  protected boolean alive(ContainerNode node, String exec) {
    return node.container().exitCode(exec) == null;
  }

  @Override
  protected String exit(ContainerNode node, String exec) {
    return " with " + node.container().exitCode(exec);
  }

  /** Everything in the container but the sleeper killed, its link up and its route to the harness back. */
  @Override
  protected void bringDown(ContainerNode node) {
    node.container().killAll();
    node.container().plug();
  }

  /** In a container of its own that shares the node container's network, and nothing else. */
  @Override
  protected ToxiproxyServer startToxiproxy(ContainerNode node) {
    return ToxiproxyServer.besideContainer(node.container(), ledger);
  }

  /**
   * A node's container that stopped or was started again, before the Toxiproxy servers beside them
   * (which an engine's restart stops too): the node's processes went with it, so nothing measured
   * after is the scenario's doing.
   */
  @Override
  public java.util.Optional<String> partStopped() {
    for (ContainerNode n : nodes()) {
      java.util.Optional<String> stopped = n.container().stopped();
      if (stopped.isPresent()) {
        return java.util.Optional.of("node " + n.index() + ": " + stopped.get() + ", and every process of the node"
            + " with it (the Docker engine stopped or restarted, or the container was stopped from outside)");
      }
    }
    return super.partStopped();
  }

  @Override
  protected NetworkFaults linkFaults(ContainerNode node) {
    return node.container().networkFaults();
  }

  @Override
  protected String backendName() {
    return "containers";
  }

  /** Every process of the container but the sleeper and the node process. */
  @Override
  protected void clearContainers(ContainerNode node) {
    long self = node.pid();
    node.container().exec(List.of("sh", "-c", "for p in $(ps -e -o pid=); do [ $p -ne 1 ] && [ $p -ne " + self
        + " ] && [ $p -ne $$ ] && kill -9 $p 2>/dev/null; done; true"));
  }

  @Override
  protected boolean idle(ContainerNode node) {
    return node.processes().size() == 1;
  }

  /**
   * Every node container removed at once (nothing of a run survives), then the daemons, then the
   * network. An engine being restarted (a run may have ended because it was) is waited for, up
   * to {@link #ENGINE_BACK}: what is on it can be removed only once it answers again.
   */
  @Override
  protected void stopNodes() {
    try {
      DockerEngine.awaitAnswering(ENGINE_BACK);
      containers.parallelStream().forEach(GenericContainer::stop);
    } finally {
      try {
        daemons.stop();
      } finally {
        network.close();
      }
    }
  }
}
