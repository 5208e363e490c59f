package faultbed.harness.daemons;

import faultbed.harness.HarnessException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** What a node process wrote once its DataNode and NodeManager served: ids, ports, pid. */
public record NodeStatus(Properties values) {
  public static NodeStatus read(Path file) {
    Properties p = new Properties();
    try (var in = Files.newInputStream(file)) {
      p.load(in);
    } catch (IOException e) {
      throw new HarnessException("cannot read node status " + file, e);
    }
    return new NodeStatus(p);
  }

  public int port(String key) {
    return Integer.parseInt(values.getProperty(key));
  }

  /** The node process's pid, in the pid namespace it runs in. */
  public long pid() {
    return Long.parseLong(values.getProperty("pid"));
  }

  public String nodeId() {
    return values.getProperty("nodeId");
  }

  /** The port the node's shuffle bound. */
  public int shufflePort() {
    return port("shufflePort");
  }

  /** The port reducers are told: a proxy's when one fronts the shuffle. */
  public int advertisedShufflePort() {
    return port("advertisedShufflePort");
  }

  /** Every TCP port the node serves: shuffle, container manager, NodeManager web, DataNode's three. */
  public List<Integer> ports() {
    List<Integer> ports = new ArrayList<>();
    ports.add(shufflePort());
    String id = nodeId();
    ports.add(Integer.parseInt(id.substring(id.lastIndexOf(':') + 1)));
    for (String key : List.of("nmHttpPort", "dnXferPort", "dnIpcPort", "dnHttpPort")) {
      ports.add(port(key));
    }
    return ports;
  }
}
