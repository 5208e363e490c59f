package faultbed.harness.daemons;

import faultbed.faults.Ledger;
import faultbed.faults.NetworkFaults;
import faultbed.faults.NodeClock;
import faultbed.faults.NodeDisk;
import faultbed.faults.Toxiproxy;
import faultbed.faults.ToxiproxyServer;
import faultbed.harness.AbstractCluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.HarnessException;
import faultbed.harness.daemons.ProcessNode.Generation;
import faultbed.harness.timeline.FaultContext;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.hadoop.conf.Configuration;

/**
 * A cluster whose worker nodes are processes of their own ({@link ProcessNode}) and whose
 * NameNode, ResourceManager and JobHistory server stay in the harness ({@link HarnessDaemons}).
 * A backend says where a node's process runs: {@link #startProcess}, {@link #alive},
 * {@link #bringDown}; and how its network is faulted: on its own link ({@link #linkFaults}), or,
 * on toxiproxy networks, by a Toxiproxy server inside the node's network ({@link #startToxiproxy})
 * whose proxy, on the node's address, fronts its shuffle.
 *
 * @param <H> what the backend holds of one generation's process
 * @param <N> the backend's node
 */
public abstract class ProcessNodeCluster<H, N extends ProcessNode<H>> extends AbstractCluster<N> {
  protected final HarnessDaemons daemons;
  private final List<N> nodes = new ArrayList<>();
  private final boolean proxied;
  private final List<Toxiproxy> proxies = new ArrayList<>();
  private final String host;

  /** Starts the daemons on {@code host}: the address nodes reach the harness on. */
  protected ProcessNodeCluster(ClusterSpec spec, Ledger ledger, Path workDir, String host) throws IOException {
    super(spec, ledger, workDir);
    this.host = host;
    daemons = new HarnessDaemons(spec, workDir, host);
    resourceManagerUp(daemons.resourceManager());
    proxied = spec.network().isToxiproxy();
  }

  @Override
  public faultbed.harness.observe.SlowReportWatcher.Reports slowReports() {
    return daemons.slowReports();
  }

  /** How many DataNodes the cluster's NameNode counts live now. */
  public int liveDataNodes() {
    return daemons.liveDataNodes();
  }

  /** Starts every node at once, then waits until each serves. */
  protected final void startNodes(IntFunction<N> node) {
    List<N> starting = new ArrayList<>();
    for (int i = 0; i < spec.nodes(); i++) {
      N n = node.apply(i);
      if (proxied) {
        try {
          Toxiproxy p = new Toxiproxy(startToxiproxy(n), ledger);
          proxies.add(p);
          n.frontedBy(p);
        } catch (IOException e) {
          throw new HarnessException("cannot start the Toxiproxy server of node " + i, e);
        }
        frontShuffle(n);
      }
      n.begin(launch(n, 0));
      starting.add(n);
    }
    for (N n : starting) {
      awaitServing(n);
      nodes.add(n);
    }
  }

  /** Starts the node process of {@code dir} (see {@link HarnessDaemons#nodeCommand}) where the node lives. */
  protected abstract H startProcess(N node, Path dir) throws IOException;

  /** Whether the node's process of this generation still runs. */
  protected abstract boolean alive(N node, H process);

  /** How it ended, for the message when it ended before serving. */
  protected abstract String exit(N node, H process);

  /** Kills whatever is left of the node's dead generation and undoes what cut it off. */
  protected abstract void bringDown(N node);

  /** A Toxiproxy server inside the node's network, its proxies listening on the node's address. */
  protected abstract ToxiproxyServer startToxiproxy(N node) throws IOException;

  /** Network faults on the node's own link, where no proxy is in front of it. */
  protected abstract NetworkFaults linkFaults(N node);

  /** Stops the nodes, the daemons and what holds the nodes' network, after the nodes' proxies. */
  protected abstract void stopNodes();

  /** A proxy on the node's address in front of its shuffle, on the port the node will advertise. */
  private void frontShuffle(N node) {
    node.proxies().front(HarnessDaemons.SHUFFLE_PORT, HarnessDaemons.SHUFFLE_PROXY_PORT);
  }

  /** Generation {@code number} of the node: its site file, then its process. */
  private Generation<H> launch(N node, int number) {
    Path home = workDir.resolve("nodes").resolve("node-" + node.index());
    Path dir = home.resolve("g" + number);
    try {
      if (number == 0 && spec.disks() != null) {
        List<NodeDisk> disks = new ArrayList<>();
        for (int i = 0; i < spec.disks().count(); i++) {
          disks.add(NodeDisk.make(ledger, home.resolve("disk-" + i + ".img"), home.resolve("disk-" + i),
              spec.disks().bytes()));
        }
        node.giveDisks(disks);
      }
      if (number == 0 && spec.clocks()) {
        node.giveClock(NodeClock.make(home.resolve("clock")));
      }
      Generation<H> g = new Generation<>(number, dir, null, null);
      List<Path> data = node.disks().isEmpty() ? List.of(home.resolve("data"))
          : node.disks().stream().map(d -> d.mount().resolve("data")).toList();
      node.giveDataDirs(data);
      daemons.writeNodeSite(node.address(), data, ProcessNode.dirs(g, node.disks(), "local"),
          ProcessNode.dirs(g, node.disks(), "logs"), dir, proxied, node.ownClock());
      return new Generation<>(number, dir, startProcess(node, dir), null);
    } catch (IOException e) {
      throw new HarnessException("cannot start node " + node.index(), e);
    }
  }

  @Override
  protected final void awaitServing(N node) {
    Generation<H> g = node.generation();
    NodeStatus status = daemons.awaitServing("node " + node.index(), g.dir(), () -> alive(node, g.process()),
        () -> exit(node, g.process()));
    node.begin(g.serving(status));
  }

  /** Its node process ended though the harness never took it down (the OOM killer took it, say). */
  @Override
  protected final boolean diedOnItsOwn(N node) {
    return node.generation() != null && !alive(node, node.generation().process());
  }

  /** A fresh generation; the dead one's proxy, refusing since the crash, is made anew. */
  @Override
  protected final void restart(N node) {
    bringDown(node);
    if (node.proxies() != null) {
      node.proxies().unfront(HarnessDaemons.SHUFFLE_PORT);
      frontShuffle(node);
    }
    node.begin(launch(node, node.generation().number() + 1));
  }

  @Override
  @SuppressWarnings("unchecked")
  public final FaultContext faultContext(String runId) {
    return new FaultContext(runId, ledger, node -> {
      N n = (N) node;
      return n.proxies() != null ? n.proxies() : linkFaults(n);
    }, host, nodes);
  }

  @Override
  public java.util.Optional<String> partStopped() {
    // each node's own server, in a group of its own: a crash of the node leaves it answering
    for (Toxiproxy p : proxies) {
      java.util.Optional<String> stopped = p.server().stopped();
      if (stopped.isPresent()) {
        return stopped;
      }
    }
    return java.util.Optional.empty();
  }

  @Override
  protected String backendLabel() {
    return proxied ? backendName() + "+toxiproxy" : backendName();
  }

  /** The backend's name in messages and records. */
  protected abstract String backendName();

  /** The nodes' proxies and their servers go first (a server lives in its node's network), then the rest. */
  @Override
  protected final void stop() {
    try {
      proxies.parallelStream().forEach(Toxiproxy::close);
    } finally {
      stopNodes();
    }
  }

  @Override
  public List<N> nodes() {
    return Collections.unmodifiableList(nodes);
  }

  @Override
  public Configuration configuration() {
    return daemons.client();
  }

  @Override
  protected void checkpointNameNode() {
    daemons.checkpointNameNode();
  }
}
