package faultbed.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * DROP rules in a host's packet filter: this machine's loopback, a node's own network namespace, or
 * a remote host. Every rule is TCP, goes first in OUTPUT or INPUT, and carries a comment naming the
 * harness and the run ({@code faultbed <owner> <run>}), so faultbed never deletes a rule it did not
 * make. A rule on a host is in the ledger before it is added and healing deletes exactly it; a
 * rule in a node's namespace goes with the namespace and is not recorded.
 */
public final class Iptables {
  static final String KIND = "iptables-rule";
  /** multiport's limit: a NodeManager serves five or six ports. */
  private static final int PORTS_PER_RULE = 15;

  private final Commands on;
  private final Ledger ledger; // null: rules that go with their namespace
  private final String owner;
  private final List<String> out; // what restricts OUTPUT rules to the interface faults act on
  private final List<String> in;

  private Iptables(Commands on, Ledger ledger, String owner, List<String> out, List<String> in) {
    this.on = on;
    this.ledger = ledger;
    this.owner = owner;
    this.out = out;
    this.in = in;
  }

  /** Rules on this machine's loopback, where a mini cluster's nodes talk; recorded in {@code ledger}. */
  public static Iptables loopback(Ledger ledger) {
    return new Iptables(ledger.commands(), ledger, ledger.owner(), List.of("-o", "lo"), List.of("-i", "lo"));
  }

  /** Rules on every interface of the host {@code ledger}'s commands reach; recorded in it. */
  public static Iptables host(Ledger ledger) {
    return new Iptables(ledger.commands(), ledger, ledger.owner(), List.of(), List.of());
  }

  /** Rules in a node's own network namespace, which {@code on} runs commands in: they go with it. */
  public static Iptables namespace(Commands on, String owner) {
    return new Iptables(on, null, owner, List.of(), List.of());
  }

  public static List<String> problems() {
    return Shell.exists("iptables") ? List.of()
        : List.of("iptables is missing: install the Debian package 'iptables' (apt-get install iptables)");
  }

  /** Drops the RSTs these ports send: peers see a connect timeout instead of "refused". */
  public Installed dropRst(String runId, List<Integer> ports) {
    return perPorts(ports, list -> drop(runId, "OUTPUT", with(out, "-m", "multiport", "--sports", list,
        "--tcp-flags", "RST", "RST")));
  }

  /** Drops every TCP packet to or from these ports: nothing gets through, not even a refusal. */
  public Installed dropAll(String runId, List<Integer> ports) {
    return perPorts(ports, list -> Installed.all(List.of(
        drop(runId, "OUTPUT", with(out, "-m", "multiport", "--sports", list)),
        drop(runId, "INPUT", with(in, "-m", "multiport", "--dports", list)))));
  }

  /** Drops each TCP packet to or from these ports with {@code probability}: TCP sends it again, later. */
  public Installed dropRandomly(String runId, List<Integer> ports, double probability) {
    List<String> randomly = randomly(probability);
    return perPorts(ports, list -> {
      List<String> sent = with(out, "-m", "multiport", "--sports", list);
      sent.addAll(randomly);
      List<String> received = with(in, "-m", "multiport", "--dports", list);
      received.addAll(randomly);
      return Installed.all(List.of(drop(runId, "OUTPUT", sent), drop(runId, "INPUT", received)));
    });
  }

  /**
   * A partition: TCP packets from {@code addresses} ({@code inbound}) and to them ({@code outbound})
   * dropped, one rule per address and direction. One way only is a one-way partition at the packet
   * level: a connection needs both ways, so none is made across it, and one already open stalls.
   */
  public Installed cut(String runId, List<String> addresses, boolean inbound, boolean outbound) {
    if (addresses.isEmpty() || !(inbound || outbound)) {
      throw new IllegalArgumentException("a partition cuts at least one address in at least one direction");
    }
    List<Installed> parts = new ArrayList<>();
    for (String a : addresses) {
      if (inbound) {
        parts.add(drop(runId, "INPUT", with(in, "-s", a)));
      }
      if (outbound) {
        parts.add(drop(runId, "OUTPUT", with(out, "-d", a)));
      }
    }
    return Installed.all(parts);
  }

  /**
   * Drops the TCP packets {@code chain} (OUTPUT or INPUT) sees that match {@code match}; the rule is
   * recorded first where it would outlive its namespace.
   */
  public Installed drop(String runId, String chain, List<String> match) {
    List<String> rule = new ArrayList<>(List.of("-p", "tcp"));
    rule.addAll(match);
    rule.addAll(List.of("-m", "comment", "--comment", "faultbed " + owner + " " + runId, "-j", "DROP"));
    List<String> delete = command("-D", chain, rule);
    if (ledger == null) {
      on.check(command("-I", chain, rule, "1"));
      return () -> on.act(delete); // idempotent: a rule already gone is fine
    }
    LedgerEntry entry = entry(chain, rule, runId);
    ledger.making(entry, () -> on.check(command("-I", chain, rule, "1")));
    return () -> ledger.heal(entry);
  }

  /**
   * A copy of each TCP packet leaving by POSTROUTING that matches {@code match} sent to
   * {@code gateway} as well (the TEE target, in the mangle table): where the gateway is the packet's
   * own destination, its receiver gets it twice, as from a link that duplicates. Only in a node's
   * own namespace, which takes the rule with it.
   */
  public Installed copies(String runId, List<String> match, String gateway) {
    if (ledger != null) {
      throw new UnsupportedOperationException("packet copies are made only in a node's own namespace");
    }
    List<String> rule = new ArrayList<>(List.of("-p", "tcp"));
    rule.addAll(match);
    rule.addAll(List.of("-m", "comment", "--comment", "faultbed " + owner + " " + runId, "-j", "TEE", "--gateway",
        gateway));
    List<String> add = new ArrayList<>(List.of("iptables", "-w", "-t", "mangle", "-I", "POSTROUTING", "1"));
    add.addAll(rule);
    List<String> delete = new ArrayList<>(List.of("iptables", "-w", "-t", "mangle", "-D", "POSTROUTING"));
    delete.addAll(rule);
    on.check(add);
    return () -> on.act(delete); // idempotent: a rule already gone is fine
  }

  /**
   * Each TCP packet leaving by the node's link ({@code eth0}) for one of {@code hosts} sent twice
   * with {@code probability}: a copy to its own destination, one rule per host, as a link that
   * duplicates frames. TCP takes the second copy of a segment as a duplicate (a D-SACK) and drops it.
   */
  public Installed duplicate(String runId, List<String> hosts, double probability) {
    List<Installed> parts = new ArrayList<>();
    try {
      for (String h : hosts) {
        List<String> match = new ArrayList<>(List.of("-o", "eth0", "-d", h));
        match.addAll(randomly(probability));
        parts.add(copies(runId, match, h));
      }
    } catch (RuntimeException e) {
      Installed.all(parts).heal();
      throw e;
    }
    return Installed.all(parts);
  }

  /**
   * iptables' statistic match for a share of packets, chosen at random per packet. The kernel keeps
   * the probability as a 32-bit fraction: nine decimals say it as closely as it can be kept.
   */
  public static List<String> randomly(double probability) {
    if (!(probability > 0 && probability < 1)) {
      throw new IllegalArgumentException("probability: expected above 0 and below 1, got " + probability);
    }
    return List.of("-m", "statistic", "--mode", "random", "--probability",
        new java.math.BigDecimal(probability).setScale(9, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros()
            .toPlainString());
  }

  /** One rule per {@value #PORTS_PER_RULE} ports (multiport's limit); no rule for no ports. */
  private static Installed perPorts(List<Integer> ports, java.util.function.Function<String, Installed> rules) {
    List<Installed> parts = new ArrayList<>();
    for (int i = 0; i < ports.size(); i += PORTS_PER_RULE) {
      parts.add(rules.apply(ports.subList(i, Math.min(ports.size(), i + PORTS_PER_RULE)).stream()
          .map(String::valueOf).collect(Collectors.joining(","))));
    }
    return Installed.all(parts);
  }

  private static List<String> with(List<String> head, String... tail) {
    List<String> all = new ArrayList<>(head);
    all.addAll(List.of(tail));
    return all;
  }

  private static List<String> command(String op, String chain, List<String> rule, String... position) {
    List<String> c = new ArrayList<>(List.of("iptables", "-w", op, chain));
    c.addAll(List.of(position));
    c.addAll(rule);
    return c;
  }

  static LedgerEntry entry(String chain, List<String> rule, String runId) {
    return new LedgerEntry(KIND, chain + " " + String.join(" ", rule), runId,
        Map.of("chain", chain, "rule", Undo.json(rule)));
  }

  /**
   * The chain {@code FB-<owner>} (jumped to from OUTPUT) that faultbed before 2026-11-29 kept a
   * harness's loopback rules in: a dead harness of that version may have left one, in its ledger or
   * unrecorded, and a start must heal it rather than stop at an entry it cannot read.
   */
  static final class OldChainHealer implements Healer {
    static final String KIND = "iptables-chain";

    @Override
    public String kind() {
      return KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      String chain = entry.id();
      if (!Shell.exists("iptables") || !Shell.run(List.of("iptables", "-w", "-S", chain)).ok()) {
        return null;
      }
      while (Shell.run(List.of("iptables", "-w", "-D", "OUTPUT", "-j", chain)).ok()) {
        // a jump may have been inserted more than once
      }
      Shell.check(List.of("iptables", "-w", "-F", chain));
      Shell.check(List.of("iptables", "-w", "-X", chain));
      return "removed iptables chain " + chain;
    }

    @Override
    public List<Found> findAll() {
      if (!Shell.exists("iptables")) {
        return List.of();
      }
      List<Found> found = new ArrayList<>();
      for (String line : Shell.run(List.of("iptables", "-w", "-S")).out().split("\n")) {
        if (line.startsWith("-N FB-")) {
          String chain = line.substring(3).trim();
          found.add(new Found(new LedgerEntry(KIND, chain, "unknown", Map.of()), chain.substring(3)));
        }
      }
      return found;
    }
  }

  /** Deletes one recorded rule; a rule already gone is nothing to heal. */
  static final class RuleHealer implements Healer.Anywhere {
    @Override
    public String kind() {
      return KIND;
    }

    @Override
    public String heal(LedgerEntry entry, Commands on) {
      if (on == Commands.local() && !Shell.exists("iptables")) {
        return null;
      }
      List<String> rule = Undo.argv(entry.detail().get("rule"));
      Commands.Result r = on.act(command("-D", entry.detail().get("chain"), rule));
      if (r.ok()) {
        return "removed iptables rule in " + entry.id();
      }
      if (r.said().contains("does a matching rule exist") || r.said().contains("No chain/target/match")) {
        return null;
      }
      throw new IllegalStateException(on.where() + ": deleting iptables rule " + entry.id() + " failed (" + r.code()
          + "): " + r.said());
    }

    /** Rules of faultbed's on this machine: OUTPUT and INPUT rules whose comment names a harness. */
    @Override
    public List<Found> findAll() {
      if (!Shell.exists("iptables")) {
        return List.of();
      }
      List<Found> found = new ArrayList<>();
      for (String chain : List.of("OUTPUT", "INPUT")) {
        for (String line : Shell.run(List.of("iptables", "-w", "-S", chain)).out().split("\n")) {
          List<String> words = words(line);
          int comment = words.indexOf("--comment");
          if (words.size() < 3 || !words.get(0).equals("-A") || comment < 0 || comment + 1 >= words.size()
              || !words.get(comment + 1).startsWith("faultbed ")) {
            continue;
          }
          String[] tag = words.get(comment + 1).split(" ");
          found.add(new Found(entry(chain, words.subList(2, words.size()), tag.length > 2 ? tag[2] : "unknown"),
              tag.length > 1 ? tag[1] : null));
        }
      }
      return found;
    }

    /** A line of {@code iptables -S} as words: a quoted comment is one. */
    private static List<String> words(String line) {
      List<String> words = new ArrayList<>();
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"([^\"]*)\"|(\\S+)").matcher(line);
      while (m.find()) {
        words.add(m.group(1) != null ? m.group(1) : m.group(2));
      }
      return words;
    }
  }
}
