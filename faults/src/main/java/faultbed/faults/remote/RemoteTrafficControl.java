package faultbed.faults.remote;

import faultbed.faults.Installed;
import faultbed.faults.PreconditionFailed;
import java.time.Duration;
import java.util.ArrayList;
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
  private static final String ROOT = "fb:";
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
    if (bytesPerSecond <= 0) {
      throw new IllegalArgumentException("rate: expected a positive rate, got " + bytesPerSecond);
    }
    String rate = (bytesPerSecond * 8) + "bit";
    return shape(ports, List.of("htb", "rate", rate, "ceil", rate), null);
  }

  /** Delays each packet these ports send by {@code delay} (+- {@code jitter}). */
  public synchronized Installed delay(List<Integer> ports, Duration delay, Duration jitter) {
    List<String> netem = new ArrayList<>(List.of("netem", "delay", delay.toMillis() + "ms"));
    if (!jitter.isZero()) {
      netem.add(jitter.toMillis() + "ms");
    }
    return shape(ports, List.of("htb", "rate", "100gbit", "quantum", "200000"), netem);
  }

  private Installed shape(List<Integer> ports, List<String> classSpec, List<String> leaf) {
    String dev = device();
    ensureRoot(dev);
    int id = nextClass++;
    String classId = ROOT + Integer.toHexString(id);
    String prio = Integer.toString(id);
    List<String> addClass = new ArrayList<>(List.of("tc", "class", "add", "dev", dev, "parent", ROOT, "classid", classId));
    addClass.addAll(classSpec);
    host.check(addClass);
    if (leaf != null) {
      List<String> addLeaf = new ArrayList<>(List.of("tc", "qdisc", "add", "dev", dev, "parent", classId,
          "handle", Integer.toHexString(0x100 + id) + ":"));
      addLeaf.addAll(leaf);
      RemoteHost.Result r = host.act(addLeaf);
      if (!r.ok()) {
        host.act(List.of("tc", "class", "del", "dev", dev, "classid", classId));
        throw new PreconditionFailed("host " + host.target() + ": tc could not add netem (" + r.err().strip()
            + "); its kernel may lack netem (CONFIG_NET_SCH_NETEM)");
      }
    }
    for (int port : ports) {
      host.check(List.of("tc", "filter", "add", "dev", dev, "parent", ROOT, "protocol", "ip", "prio", prio,
          "u32", "match", "ip", "sport", Integer.toString(port), "0xffff", "flowid", classId));
    }
    return () -> {
      host.act(List.of("tc", "filter", "del", "dev", dev, "parent", ROOT, "prio", prio));
      if (leaf != null) {
        host.act(List.of("tc", "qdisc", "del", "dev", dev, "parent", classId));
      }
      host.act(List.of("tc", "class", "del", "dev", dev, "classid", classId));
    };
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
    if (current.contains("htb " + ROOT + " root")) {
      throw new PreconditionFailed("host " + host.target() + ": another faultbed harness shapes " + dev + " now; run"
          + " one at a time (the next start heals what a dead one left)");
    }
    if (!current.isEmpty() && !DEFAULTS.contains(kind)) {
      throw new PreconditionFailed("host " + host.target() + ": " + dev + " has a root qdisc faultbed did not make ("
          + current.lines().findFirst().orElse("") + "); faultbed will not replace it");
    }
    ledger.record("traffic shaping on " + dev, List.of("tc", "qdisc", "show", "dev", dev, "root"),
        "htb " + ROOT + " root", List.of("tc", "qdisc", "del", "dev", dev, "root"));
    host.check(List.of("tc", "qdisc", "replace", "dev", dev, "root", "handle", ROOT, "htb", "default", "1"));
    host.check(List.of("tc", "class", "add", "dev", dev, "parent", ROOT, "classid", ROOT + "1", "htb", "rate",
        "100gbit", "quantum", "200000"));
    rootInstalled = true;
  }
}
