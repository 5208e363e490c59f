package faultbed.faults;

import java.time.Duration;
import java.util.List;

/**
 * Where network faults are made: in the kernel (iptables and tc on loopback) or in a Toxiproxy
 * server the node's traffic passes through. Faults name a node's ports; each backend acts on those
 * it can reach and says which.
 */
public interface NetworkFaults {
  /** "kernel" or "toxiproxy", for the record. */
  String name();

  /** The ports among these that this backend's faults act on: all of them, where a packet filter acts. */
  default List<Integer> reach(List<Integer> ports) {
    return List.copyOf(ports);
  }

  /** Traffic from and to these ports limited to {@code bytesPerSecond} in each direction. */
  Installed cap(String runId, List<Integer> ports, long bytesPerSecond);

  /** Traffic from and to these ports delayed by {@code delay} (+- {@code jitter}) each way. */
  Installed delay(String runId, List<Integer> ports, Duration delay, Duration jitter);

  /**
   * The same, a share {@code reorder} of the packets sent at once instead, ahead of delayed ones
   * sent before them (netem's reorder). Where nothing can reorder packets, only 0 is made.
   */
  default Installed delay(String runId, List<Integer> ports, Duration delay, Duration jitter, double reorder) {
    if (reorder == 0) {
      return delay(runId, ports, delay, jitter);
    }
    throw new UnsupportedOperationException(name() + " networks do not reorder packets");
  }

  /** Nothing to or from these ports gets through. */
  Installed dropAll(String runId, List<Integer> ports);

  /** Peers of these ports wait for a timeout where they would have been refused. */
  Installed dropRst(String runId, List<Integer> ports);

  /**
   * Each TCP packet to or from these ports dropped with {@code probability}, as a lossy link drops
   * it: TCP sends it again after its retransmission timeout. Only a packet filter can: a proxy sees
   * a stream, and what it drops is never sent again.
   */
  Installed dropRandomly(String runId, List<Integer> ports, double probability);

  /**
   * A share of the TCP packets the node sends to {@code hosts} (the cluster's other hosts), sent
   * twice. Made only on a node's own link (namespace, containers); the scenario reader refuses it
   * where it is not.
   */
  default Installed duplicate(String runId, List<String> hosts, double probability) {
    throw new UnsupportedOperationException(name() + " networks do not duplicate packets");
  }

  /**
   * The node's TCP packets from {@code addresses} ({@code inbound}) and to them ({@code outbound})
   * dropped: a partition between the node and those hosts, by a packet filter where the node has an
   * address of its own. A proxy fronts a node's ports, not its address, so it has none.
   */
  default Installed cut(String runId, List<String> addresses, boolean inbound, boolean outbound) {
    throw new PreconditionFailed("the " + name() + " network makes no partition between addresses");
  }

  /**
   * The host behind these ports stops answering, as a dead machine does: peers wait for timeouts
   * where a killed process on a live host would have them refused. Installed before a crash.
   */
  default Installed silence(String runId, List<Integer> ports) {
    return dropRst(runId, ports);
  }

  /** The kernel backend: every port reachable, iptables for drops, tc for shaping. */
  static NetworkFaults kernel(Iptables iptables, TrafficControl trafficControl) {
    return kernel("kernel", iptables, trafficControl);
  }

  /** The same, named for where its rules and qdiscs are (a remote host's, say). */
  static NetworkFaults kernel(String name, Iptables iptables, TrafficControl trafficControl) {
    return new NetworkFaults() {
      @Override
      public String name() {
        return name;
      }


      @Override
      public Installed cap(String runId, List<Integer> ports, long bytesPerSecond) {
        return trafficControl.cap(ports, bytesPerSecond);
      }

      @Override
      public Installed delay(String runId, List<Integer> ports, Duration delay, Duration jitter) {
        return trafficControl.delay(ports, delay, jitter, 0);
      }

      @Override
      public Installed delay(String runId, List<Integer> ports, Duration delay, Duration jitter, double reorder) {
        return trafficControl.delay(ports, delay, jitter, reorder);
      }

      @Override
      public Installed dropAll(String runId, List<Integer> ports) {
        return iptables.dropAll(runId, ports);
      }

      @Override
      public Installed cut(String runId, List<String> addresses, boolean inbound, boolean outbound) {
        return iptables.cut(runId, addresses, inbound, outbound);
      }

      @Override
      public Installed dropRst(String runId, List<Integer> ports) {
        return iptables.dropRst(runId, ports);
      }

      @Override
      public Installed dropRandomly(String runId, List<Integer> ports, double probability) {
        return iptables.dropRandomly(runId, ports, probability);
      }
    };
  }
}
