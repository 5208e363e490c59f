package faultbed.harness;

/**
 * Where a cluster's network faults are made: {@code kernel} (iptables and tc on loopback, every
 * port of a node) or {@code toxiproxy} (each node's shuffle served through a Toxiproxy proxy:
 * the server at {@code toxiproxyUrl}, or one in a container where Docker runs when it is null).
 */
public record NetworkBackend(String name, String toxiproxyUrl) {
  public static final NetworkBackend KERNEL = new NetworkBackend("kernel", null);

  public NetworkBackend {
    if (!"kernel".equals(name) && !"toxiproxy".equals(name)) {
      throw new IllegalArgumentException("cluster.network: expected \"kernel\" or \"toxiproxy\", got \"" + name + "\"");
    }
    if (toxiproxyUrl != null && !"toxiproxy".equals(name)) {
      throw new IllegalArgumentException("cluster.network: a server address goes with \"toxiproxy\" only");
    }
    if (toxiproxyUrl != null && !toxiproxyUrl.matches("https?://[^/:]+:\\d+/?")) {
      throw new IllegalArgumentException("cluster.network.toxiproxy: expected an API address like"
          + " http://127.0.0.1:8474, got \"" + toxiproxyUrl + "\"");
    }
  }

  public static NetworkBackend toxiproxy() {
    return new NetworkBackend("toxiproxy", null);
  }

  public static NetworkBackend toxiproxy(String url) {
    return new NetworkBackend("toxiproxy", url);
  }

  public boolean isToxiproxy() {
    return "toxiproxy".equals(name);
  }
}
