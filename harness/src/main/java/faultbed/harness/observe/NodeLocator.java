package faultbed.harness.observe;

import faultbed.harness.Node;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which node an address Hadoop reports (a map output URL, an attempt's host and port) belongs to.
 * Nodes with addresses of their own are found by host, whatever port they use; nodes sharing the
 * host's address (in-process) by port, since each NodeManager there binds its own.
 */
final class NodeLocator {
  private final Map<String, Integer> byHost = new HashMap<>();
  private final Map<Integer, Integer> byPort = new HashMap<>();
  /** Exact {@code host:port} addresses, for nodes known only from what a history file names. */
  private final Map<String, Integer> byAddress = new HashMap<>();

  private NodeLocator() {}

  /** Nodes known by the {@code host:port} addresses that name them (several per node). */
  static NodeLocator ofAddresses(Map<String, Integer> addresses) {
    NodeLocator locator = new NodeLocator();
    locator.byAddress.putAll(addresses);
    return locator;
  }

  NodeLocator(List<? extends Node> nodes) {
    for (Node n : nodes) {
      if (n.address() != null) {
        byHost.put(n.address(), n.index());
      }
      byPort.put(n.shufflePort(), n.index());
      byPort.put(n.advertisedShufflePort(), n.index()); // map output URLs name it
      byPort.put(Integer.parseInt(n.nodeId().substring(n.nodeId().lastIndexOf(':') + 1)), n.index());
    }
  }

  /** The node at {@code host:port}, or null if none of this run's nodes. */
  Integer find(String host, int port) {
    if (!byAddress.isEmpty()) {
      return byAddress.get(host + ":" + port);
    }
    Integer node = host == null ? null : byHost.get(host);
    if (node == null && byHost.isEmpty()) {
      node = byPort.get(port);
    }
    return node;
  }

  /** The node a URL such as {@code http://host:port/} names. */
  Integer findUrl(String url) {
    java.net.URI uri = java.net.URI.create(url);
    return find(uri.getHost(), uri.getPort());
  }
}
