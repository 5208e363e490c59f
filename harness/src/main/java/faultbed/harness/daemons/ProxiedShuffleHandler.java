package faultbed.harness.daemons;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntUnaryOperator;
import org.apache.hadoop.mapred.ShuffleChannelHandlerContext;
import org.apache.hadoop.mapred.ShuffleHandler;

/**
 * Hadoop's ShuffleHandler, serving map output on its own port as usual, but telling the
 * ApplicationMaster (through its service metadata) the port of a proxy in front of it. Reducers
 * then fetch this node's map output through the proxy, where network faults act on it. The proxy's
 * port is given in the configuration where it is known beforehand (a node of its own address, its
 * proxy on a fixed port beside it), or made by a function of the harness's JVM once the handler
 * has bound (nodes in the harness, sharing its address).
 */
public class ProxiedShuffleHandler extends ShuffleHandler {
  /** Names the function (in this JVM) that fronts a bound port with a proxy and returns the proxy's port. */
  public static final String FRONTS = "faultbed.shuffle.fronts";
  /** The proxy's port, where it is fixed before the node starts. */
  public static final String ADVERTISED = "faultbed.shuffle.advertised-port";
  private static final Map<String, IntUnaryOperator> REGISTRY = new ConcurrentHashMap<>();

  private volatile int advertised = -1;
  private ShuffleChannelHandlerContext context;

  public static String register(IntUnaryOperator front) {
    String id = UUID.randomUUID().toString();
    REGISTRY.put(id, front);
    return id;
  }

  public static void unregister(String id) {
    REGISTRY.remove(id);
  }

  @Override
  protected ShuffleChannelHandlerContext createHandlerContext() {
    context = super.createHandlerContext();
    return context;
  }

  @Override
  protected void serviceStart() throws Exception {
    super.serviceStart();
    int bound = getConfig().getInt(SHUFFLE_PORT_CONFIG_KEY, -1);
    int fixed = getConfig().getInt(ADVERTISED, -1);
    IntUnaryOperator front = REGISTRY.get(getConfig().get(FRONTS, ""));
    if (fixed <= 0 && front == null) {
      throw new IllegalStateException("no proxy to advertise for shuffle port " + bound + " (neither " + ADVERTISED
          + " nor " + FRONTS + " set)");
    }
    advertised = fixed > 0 ? fixed : front.applyAsInt(bound);
    // A fetch is signed over the port its URL names, and verified against the port the handler
    // believes it serves: the proxy's, for URLs that name the proxy.
    context.port = advertised;
    LOG.info("faultbed: shuffle port " + bound + " advertised as proxy port " + advertised);
  }

  @Override
  public synchronized ByteBuffer getMetaData() {
    try {
      return serializeMetaData(advertised > 0 ? advertised : getConfig().getInt(SHUFFLE_PORT_CONFIG_KEY, -1));
    } catch (IOException e) {
      throw new IllegalStateException("cannot serialize the advertised shuffle port", e);
    }
  }
}
