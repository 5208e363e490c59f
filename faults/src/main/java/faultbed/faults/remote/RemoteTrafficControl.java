package faultbed.faults.remote;

import faultbed.faults.Installed;
import faultbed.faults.PreconditionFailed;
import faultbed.faults.TcShape;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Traffic shaping on a remote host's own interface, the one that carries the worker's address: an
 * htb root qdisc (handle {@code fb:}) whose default class passes everything, and one class per
 * fault into which u32 filters send what the NodeManager's ports send, capped by htb or delayed by
 * netem. A host interface shapes what leaves it, so a fault acts on the traffic the node's ports
 * send (the map output it serves, its answers), not on what reaches them. The root replaces only a
 * kernel default (noqueue, pfifo_fast, fq_codel, fq, mq); deleting it brings that default back.
 */
public final class RemoteTrafficControl {
  /** Root qdiscs the kernel puts on an interface by itself: replacing one loses nothing of the user's. */
  private static final Set<String> DEFAULTS = Set.of("noqueue", "pfifo_fast", "fq_codel", "fq", "mq", "pfifo");

  private final RemoteHost host;
  private final RemoteLedger ledger;
  private final String address;
  private String device;
  private boolean rootInstalled;
  private int nextClass = 2;

  /** {@code address}: the worker's IP address, whose interface is shaped. */
  public RemoteTrafficControl(RemoteHost host, RemoteLedger ledger, String address) {
    this.host = host;
    this.ledger = ledger;
    this.address = address;
  }

  /** Caps what these ports send at {@code bytesPerSecond}. */
  public synchronized Installed cap(List<Integer> ports, long bytesPerSecond) {
    return shape(ports, TcShape.cap(bytesPerSecond), null);
  }

  /** Delays each packet these ports send by {@code delay} (+- {@code jitter}). */
  public synchronized Installed delay(List<Integer> ports, Duration delay, Duration jitter) {
    return shape(ports, TcShape.pass(), TcShape.netem(delay, jitter));
  }

  /** What leaves the interface from the ports: matched on its source port. */
  private Installed shape(List<Integer> ports, List<String> classSpec, List<String> leaf) {
    String dev = device();
    ensureRoot(dev);
    TcShape s = new TcShape(dev, nextClass++, classSpec, leaf, ports, List.of("sport"));
    host.check(s.addClass());
    if (s.addLeaf() != null) {
      RemoteHost.Result r = host.act(s.addLeaf());
      if (!r.ok()) {
        host.act(List.of("tc", "class", "del", "dev", dev, "classid", s.classId()));
        throw new PreconditionFailed("host " + host.target() + ": tc could not add netem (" + r.err().strip()
            + "); its kernel may lack netem (CONFIG_NET_SCH_NETEM)");
      }
    }
    s.addFilters().forEach(host::check);
    return () -> s.removal().forEach(host::act);
  }

  /** The interface the worker's address is on (ip's one-line listing), found once. */
  private String device() {
    if (device != null) {
      return device;
    }
    RemoteHost.Result r = host.probe(List.of("ip", "-o", "-4", "addr", "show"));
    for (String line : r.out().split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length > 3 && f[2].equals("inet") && f[3].startsWith(address + "/")) {
        device = f[1].replaceFirst("@.*$", "");
        return device;
      }
    }
    throw new PreconditionFailed("host " + host.target() + ": no interface has the worker's address " + address
        + " (ip -o -4 addr show)");
  }

  /** faultbed's htb root in place of the kernel's default, written to the ledger first. */
  private void ensureRoot(String dev) {
    if (rootInstalled) {
      return;
    }
    String current = host.probeAsRoot(List.of("tc", "qdisc", "show", "dev", dev, "root")).out().strip();
    String[] words = current.split("\\s+");
    String kind = words.length > 1 ? words[1] : "";
    if (current.contains(TcShape.ROOT_SHOWN)) {
      throw new PreconditionFailed("host " + host.target() + ": another faultbed harness shapes " + dev + " now; run"
          + " one at a time (the next start heals what a dead one left)");
    }
    if (!current.isEmpty() && !DEFAULTS.contains(kind)) {
      throw new PreconditionFailed("host " + host.target() + ": " + dev + " has a root qdisc faultbed did not make ("
          + current.lines().findFirst().orElse("") + "); faultbed will not replace it");
    }
    ledger.record("traffic shaping on " + dev, List.of("tc", "qdisc", "show", "dev", dev, "root"), TcShape.ROOT_SHOWN,
        List.of("tc", "qdisc", "del", "dev", dev, "root"));
    TcShape.root(dev, true).forEach(host::check);
    rootInstalled = true;
  }
}
