package faultbed.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One fault's traffic shaping under faultbed's htb root qdisc (handle {@code fb:}) on a device, as
 * tc command lines: its class (capped by htb, or passing everything into a netem leaf), the u32
 * filters that send its ports' packets there (all at one priority, so they go together), and the
 * commands that take it away. The same on loopback here and on a remote host's interface; only who
 * runs the commands differs.
 *
 * @param id the class's number under the root (2 and up; 1 is the root's default class)
 * @param directions "sport", "dport" or both: which end of a packet the ports are matched on
 */
public record TcShape(String dev, int id, List<String> classSpec, List<String> leaf, List<Integer> ports,
    List<String> directions) {
  public static final String ROOT = "fb:";
  /** What {@code tc qdisc show} prints for faultbed's root. */
  public static final String ROOT_SHOWN = "htb " + ROOT + " root";

  public TcShape {
    classSpec = List.copyOf(classSpec);
    leaf = leaf == null ? null : List.copyOf(leaf);
    ports = List.copyOf(ports);
    directions = List.copyOf(directions);
  }

  /** An htb class capped at {@code bytesPerSecond}. */
  public static List<String> cap(long bytesPerSecond) {
    if (bytesPerSecond <= 0) {
      throw new IllegalArgumentException("rate: expected a positive rate, got " + bytesPerSecond);
    }
    String rate = (bytesPerSecond * 8) + "bit";
    return List.of("htb", "rate", rate, "ceil", rate);
  }

  /** A tbf qdisc capping a whole link at {@code bytesPerSecond}, with a burst of 1/50 s (16 KiB at least). */
  public static List<String> tbf(long bytesPerSecond) {
    if (bytesPerSecond <= 0) {
      throw new IllegalArgumentException("rate: expected a positive rate, got " + bytesPerSecond);
    }
    return List.of("tbf", "rate", (bytesPerSecond * 8) + "bit", "burst",
        Long.toString(Math.max(16 * 1024, bytesPerSecond / 50)), "latency", "200ms");
  }

  /** An htb class that passes everything (for a netem leaf below it, and the root's default). */
  public static List<String> pass() {
    return List.of("htb", "rate", "100gbit", "quantum", "200000");
  }

  /** A netem leaf delaying each packet by {@code delay} (+- {@code jitter}). */
  public static List<String> netem(Duration delay, Duration jitter) {
    return netem(delay, jitter, 0);
  }

  /**
   * The same, with a share {@code reorder} of the packets sent at once instead, ahead of the delayed
   * ones before them (netem's reorder; 0: none).
   */
  public static List<String> netem(Duration delay, Duration jitter, double reorder) {
    List<String> netem = new ArrayList<>(List.of("netem", "delay", delay.toMillis() + "ms"));
    if (!jitter.isZero()) {
      netem.add(jitter.toMillis() + "ms");
    }
    if (reorder > 0) {
      netem.addAll(List.of("reorder", new java.math.BigDecimal(reorder * 100).setScale(4, java.math.RoundingMode.HALF_EVEN)
          .stripTrailingZeros().toPlainString() + "%"));
    }
    return netem;
  }

  /** The root qdisc and its default class; {@code replace} takes the place of a kernel default root. */
  public static List<List<String>> root(String dev, boolean replace) {
    List<String> qdisc = new ArrayList<>(List.of("tc", "qdisc", replace ? "replace" : "add", "dev", dev, "root",
        "handle", ROOT, "htb", "default", "1"));
    List<String> defaultClass = new ArrayList<>(List.of("tc", "class", "add", "dev", dev, "parent", ROOT, "classid",
        ROOT + "1"));
    defaultClass.addAll(pass());
    return List.of(qdisc, defaultClass);
  }

  public String classId() {
    return ROOT + Integer.toHexString(id);
  }

  private String prio() {
    return Integer.toString(id);
  }

  public List<String> addClass() {
    List<String> c = new ArrayList<>(List.of("tc", "class", "add", "dev", dev, "parent", ROOT, "classid", classId()));
    c.addAll(classSpec);
    return c;
  }

  /** The netem leaf's command, or null when the class has none. */
  public List<String> addLeaf() {
    if (leaf == null) {
      return null;
    }
    List<String> c = new ArrayList<>(List.of("tc", "qdisc", "add", "dev", dev, "parent", classId(), "handle",
        Integer.toHexString(0x100 + id) + ":"));
    c.addAll(leaf);
    return c;
  }

  public List<List<String>> addFilters() {
    List<List<String>> out = new ArrayList<>();
    for (int port : ports) {
      for (String dir : directions) {
        out.add(List.of("tc", "filter", "add", "dev", dev, "parent", ROOT, "protocol", "ip", "prio", prio(), "u32",
            "match", "ip", dir, Integer.toString(port), "0xffff", "flowid", classId()));
      }
    }
    return out;
  }

  /** Filters, leaf, class: what takes this shaping away and leaves the root as it was. */
  public List<List<String>> removal() {
    List<List<String>> out = new ArrayList<>();
    out.add(List.of("tc", "filter", "del", "dev", dev, "parent", ROOT, "prio", prio()));
    if (leaf != null) {
      out.add(List.of("tc", "qdisc", "del", "dev", dev, "parent", classId()));
    }
    out.add(List.of("tc", "class", "del", "dev", dev, "classid", classId()));
    return out;
  }
}
