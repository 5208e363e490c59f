package faultbed.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Packet filter rules on loopback, all inside one chain per harness process ({@code FB-<owner>},
 * jumped to from OUTPUT), so faultbed never edits a rule it did not make and a whole process's
 * rules go with one chain.
 */
public final class Iptables {
  static final String KIND = "iptables-chain";

  private final Ledger ledger;
  private final String chain;
  private boolean created;

  public Iptables(Ledger ledger) {
    this.ledger = ledger;
    this.chain = chainOf(ledger.owner());
  }

  static String chainOf(String owner) {
    String c = "FB-" + owner;
    return c.length() > 28 ? c.substring(0, 28) : c;
  }

  public static List<String> problems() {
    return Shell.exists("iptables") ? List.of()
        : List.of("iptables is missing: install the Debian package 'iptables' (apt-get install iptables)");
  }

  /** Drops TCP RST packets leaving these local ports: peers see a connect timeout instead of "refused". */
  public Installed dropRst(String runId, List<Integer> ports) {
    List<Installed> parts = new ArrayList<>();
    for (int p : ports) {
      parts.add(add(runId, "-o", "lo", "-p", "tcp", "--sport", Integer.toString(p), "--tcp-flags", "RST", "RST",
          "-j", "DROP"));
    }
    return Installed.all(parts);
  }

  /** Drops every TCP packet to or from these local ports: nothing gets through, not even a refusal. */
  public Installed dropAll(String runId, List<Integer> ports) {
    List<Installed> parts = new ArrayList<>();
    for (int p : ports) {
      parts.add(add(runId, "-o", "lo", "-p", "tcp", "--sport", Integer.toString(p), "-j", "DROP"));
      parts.add(add(runId, "-o", "lo", "-p", "tcp", "--dport", Integer.toString(p), "-j", "DROP"));
    }
    return Installed.all(parts);
  }

  /** Drops each TCP packet to or from these local ports with {@code probability}: TCP retransmits it. */
  public Installed dropRandomly(String runId, List<Integer> ports, double probability) {
    List<Installed> parts = new ArrayList<>();
    for (int p : ports) {
      for (String direction : List.of("--sport", "--dport")) {
        List<String> spec = new ArrayList<>(List.of("-o", "lo", "-p", "tcp", direction, Integer.toString(p)));
        spec.addAll(randomly(probability));
        spec.addAll(List.of("-j", "DROP"));
        parts.add(add(runId, spec.toArray(String[]::new)));
      }
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

  private synchronized void ensureChain() {
    if (created) {
      return;
    }
    ledger.record(new LedgerEntry(KIND, chain, "cluster", Map.of()));
    Shell.check(List.of("iptables", "-w", "-N", chain));
    Shell.check(List.of("iptables", "-w", "-I", "OUTPUT", "1", "-j", chain));
    created = true;
  }

  private Installed add(String runId, String... spec) {
    ensureChain();
    List<String> rule = new ArrayList<>(List.of(spec));
    rule.addAll(List.of("-m", "comment", "--comment", "faultbed " + runId));
    List<String> addCmd = new ArrayList<>(List.of("iptables", "-w", "-A", chain));
    addCmd.addAll(rule);
    Shell.check(addCmd);
    List<String> delCmd = new ArrayList<>(List.of("iptables", "-w", "-D", chain));
    delCmd.addAll(rule);
    return () -> Shell.run(delCmd); // idempotent: a rule already gone is fine
  }

  /** Removes a chain: the jump to it, its rules, the chain itself. */
  static final class ChainHealer implements Healer {
    @Override
    public String kind() {
      return KIND;
    }

    @Override
    public String heal(LedgerEntry entry) {
      if (!Shell.exists("iptables")) {
        return null;
      }
      String chain = entry.id();
      if (!Shell.run(List.of("iptables", "-w", "-S", chain)).ok()) {
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
}
