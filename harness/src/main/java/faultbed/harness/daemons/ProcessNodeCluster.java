package faultbed.harness.daemons;

import faultbed.faults.Ledger;
import faultbed.harness.AbstractCluster;
import faultbed.harness.ClusterSpec;
import faultbed.harness.HarnessException;
import faultbed.harness.daemons.ProcessNode.Generation;
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
 * {@link #bringDown}.
 *
 * @param <H> what the backend holds of one generation's process
 * @param <N> the backend's node
 */
public abstract class ProcessNodeCluster<H, N extends ProcessNode<H>> extends AbstractCluster<N> {
  protected final HarnessDaemons daemons;
  private final List<N> nodes = new ArrayList<>();

  /** Starts the daemons on {@code host}: the address nodes reach the harness on. */
  protected ProcessNodeCluster(ClusterSpec spec, Ledger ledger, Path workDir, String host) throws IOException {
    super(spec, ledger, workDir);
    daemons = new HarnessDaemons(spec, workDir, host);
    resourceManagerUp(daemons.resourceManager());
  }

  /** Starts every node at once, then waits until each serves. */
  protected final void startNodes(IntFunction<N> node) {
    List<N> starting = new ArrayList<>();
    for (int i = 0; i < spec.nodes(); i++) {
      N n = node.apply(i);
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

  /** Generation {@code number} of the node: its site file, then its process. */
  private Generation<H> launch(N node, int number) {
    Path home = workDir.resolve("nodes").resolve("node-" + node.index());
    Path dir = home.resolve("g" + number);
    try {
      daemons.writeNodeSite(node.address(), home, dir);
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

  @Override
  protected final void restart(N node) {
    bringDown(node);
    node.begin(launch(node, node.generation().number() + 1));
  }

  @Override
  public List<N> nodes() {
    return Collections.unmodifiableList(nodes);
  }

  @Override
  public Configuration configuration() {
    return daemons.client();
  }
}
