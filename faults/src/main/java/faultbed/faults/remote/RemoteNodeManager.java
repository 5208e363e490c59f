package faultbed.faults.remote;

import faultbed.faults.Commands;
import faultbed.faults.Installed;
import faultbed.faults.Iptables;
import faultbed.faults.Ledger;
import faultbed.faults.PreconditionFailed;
import faultbed.faults.Undo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NodeManager on one remote host, and the faults faultbed makes there. It is found among the
 * host's processes by Hadoop's NodeManager main class; only it and its descendants (the process
 * trees of its containers) are ever signalled. Whatever outlasts the call that made it (a frozen
 * tree, an iptables rule) is written to the harness's ledger on the host first ({@link HostLedgers}),
 * with a check and the command that undoes it; packet filter rules are faultbed's {@link Iptables}
 * run on the host.
 */
public final class RemoteNodeManager {
  /** Hadoop's NodeManager, as its scripts and every distribution start it. */
  static final String MAIN_CLASS = "org.apache.hadoop.yarn.server.nodemanager.NodeManager";
  /** The main class as a pgrep pattern that does not match the shell running pgrep. */
  private static final String MAIN_PATTERN = "'" + MAIN_CLASS.replace(".", "[.]") + "'";

  /** One process of the host. */
  public record Proc(long pid, long ppid, String args) {}

  private final RemoteHost host;
  private final Ledger ledger;
  private final String owner;
  private final Iptables rules;

  /** The NodeManager on {@code host}, whose faults go to {@code ledger} (the harness's ledger on that host). */
  public RemoteNodeManager(RemoteHost host, Ledger ledger) {
    this.host = host;
    this.ledger = ledger;
    this.owner = ledger.owner();
    this.rules = Iptables.host(ledger);
  }

  public RemoteHost host() {
    return host;
  }

  /** The harness's ledger on this host. */
  public Ledger ledger() {
    return ledger;
  }

  /** Every process of the host: pid, parent, command line. */
  public List<Proc> processes() {
    RemoteHost.Result r = needed(host.probe(List.of("ps", "-e", "-o", "pid=,ppid=,args=")), "ps");
    List<Proc> out = new ArrayList<>();
    Pattern line = Pattern.compile("^\\s*(\\d+)\\s+(\\d+)\\s+(.*)$");
    for (String l : r.out().split("\n")) {
      Matcher m = line.matcher(l);
      if (m.matches()) {
        out.add(new Proc(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), m.group(3)));
      }
    }
    return out;
  }

  /** The NodeManager's pid; refused with one line when the host runs none, or more than one. */
  public long pid() {
    return pid(processes());
  }

  private long pid(List<Proc> all) {
    List<Proc> nms = all.stream().filter(p -> p.args().contains(MAIN_CLASS)).toList();
    if (nms.size() != 1) {
      throw new PreconditionFailed("host " + host.target() + ": expected one NodeManager process (" + MAIN_CLASS
          + "), found " + (nms.isEmpty() ? "none" : nms.size() + ": pids " + nms.stream().map(Proc::pid).toList()));
    }
    return nms.get(0).pid();
  }

  /** The NodeManager and every descendant of it, the NodeManager first. */
  public List<Long> tree() {
    return treeProcesses().stream().map(Proc::pid).toList();
  }

  /** The same processes with their command lines, from one listing (one command on the host). */
  public List<Proc> treeProcesses() {
    List<Proc> all = processes();
    long nm = pid(all);
    List<Proc> out = new ArrayList<>(all.stream().filter(p -> p.pid() == nm).toList());
    for (int i = 0; i < out.size(); i++) {
      long parent = out.get(i).pid();
      all.stream().filter(p -> p.ppid() == parent && p.pid() != parent).forEach(out::add);
    }
    return out;
  }

  /** The TCP ports the NodeManager listens on (container manager, shuffle, web, localizer). */
  public List<Integer> ports() {
    long nm = pid();
    RemoteHost.Result r = needed(host.probeAsRoot(List.of("ss", "-H", "-l", "-t", "-n", "-p")), "ss");
    Set<Integer> ports = new TreeSet<>();
    Pattern local = Pattern.compile("^\\S+\\s+\\d+\\s+\\d+\\s+\\S*:(\\d+)\\s");
    for (String l : r.out().split("\n")) {
      Matcher m = local.matcher(l);
      if (m.find() && l.contains("pid=" + nm + ",")) {
        ports.add(Integer.parseInt(m.group(1)));
      }
    }
    return List.copyOf(ports);
  }

  /**
   * Kills the NodeManager and all its containers at once (SIGKILL to every process of its tree),
   * the host staying up, and returns what the injection saw. With {@code restart} (the inventory's
   * start command) the ledger gets the crash first: whoever heals it, this harness at its stop or the
   * next after a SIGKILL, starts the NodeManager again if none runs by then.
   */
  public Map<String, String> crash(String runId, List<String> restart) {
    List<Long> tree = tree();
    down("killed", runId, restart);
    List<String> kill = new ArrayList<>(List.of("kill", "-KILL"));
    tree.forEach(p -> kill.add(Long.toString(p)));
    RemoteHost.Result r = host.act(kill);
    Map<String, String> detail = new LinkedHashMap<>();
    detail.put("host", host.target().name());
    detail.put("processesKilled", Integer.toString(tree.size()));
    if (!r.ok()) {
      detail.put("killExit", r.code() + ": " + r.err().strip()); // some had exited on their own
    }
    return detail;
  }

  /** {@code pids} of the host stopped (SIGSTOP) until healed, each kept in the host's ledger first. */
  public Installed stopProcesses(String runId, java.util.Collection<Long> pids) {
    return faultbed.faults.StoppedProcesses.stop(ledger, runId, pids);
  }

  /** Stops the NodeManager's whole tree (SIGSTOP) until healed (SIGCONT to each). */
  public Installed freeze(String runId) {
    return stopProcesses(runId, tree());
  }

  /**
   * The host's packet filter as faultbed uses it: each rule recorded in the host's ledger, one rule
   * for many ports (iptables' multiport match), since each command costs a round of SSH messages.
   */
  public Iptables rules() {
    return rules;
  }

  /**
   * Drops what the host sends to {@code address:port} (the ResourceManager's resource tracker):
   * the NodeManager's heartbeats stop reaching it, and nothing else changes.
   */
  public Installed cutTo(String runId, String address, int port) {
    return rules.drop(runId, "OUTPUT", List.of("-d", address, "--dport", Integer.toString(port)));
  }

  /**
   * Runs the inventory's command that starts the NodeManager, as root ({@code sudo -n} unless the
   * login is root), detached from the SSH session (its own session, output to a log in faultbed's
   * folder), so it outlives the call. The login detaches it: sudo needs to allow only the command.
   */
  public void start(List<String> command) {
    Commands.Result r = host.actAsLogin(detached("", host.rootCommand(command)));
    if (!r.ok()) {
      throw new IllegalStateException("host " + host.target().name() + ": starting the NodeManager failed ("
          + r.code() + "): " + r.said());
    }
  }

  /** {@code command} in a session of its own, output to a log in faultbed's folder, after the shell test {@code unless}. */
  private static List<String> detached(String unless, List<String> command) {
    List<String> detached = new ArrayList<>(List.of("setsid", "-f", "sh", "-c", unless
        + "{ mkdir -p \"$HOME/.faultbed\" && exec \"$@\" >> \"$HOME/.faultbed/nodemanager-start.log\" 2>&1 < /dev/null; }",
        "start"));
    detached.addAll(command);
    return detached;
  }

  /**
   * SIGTERM to the NodeManager: it stops its containers and tells the ResourceManager it is
   * leaving. With {@code restart}, held in the ledger as a crash is.
   */
  public void stop(String runId, List<String> restart) {
    long pid = pid();
    down("stopped", runId, restart);
    host.check(List.of("kill", "-TERM", Long.toString(pid)));
  }

  /**
   * The NodeManager taken down, in the ledger: healing starts it again unless one runs by then. The
   * login runs the undo, which checks for itself, so sudo needs only the start command for it.
   */
  private void down(String how, String runId, List<String> restart) {
    if (restart != null) {
      ledger.record(Undo.entryAsLogin("NodeManager " + how + " (" + runId + "), started again unless one ran", runId,
          null, detached("pgrep -f " + MAIN_PATTERN + " > /dev/null || ", host.rootCommand(restart))));
    }
  }

  /**
   * {@code count} CPU spinners on the host (the seed's tight loops over a 100 000-element array),
   * as root, each with the harness, the run and "cpu" on its command line, so that healing (by this
   * harness or, after it died, the next) kills exactly them. One command starts them all.
   */
  public Installed cpuSpinners(String runId, int count) {
    if (count < 1) {
      throw new IllegalArgumentException("cpu hog: expected count >= 1, got " + count);
    }
    String tag = tag(runId, "cpu");
    List<String> kill = List.of("pkill", "-KILL", "-f", pattern(tag));
    ledger.record(Undo.entry(count + " CPU spinners (" + runId + ")", runId, List.of("pgrep", "-f", pattern(tag)), null,
        kill));
    host.check(List.of("spin", tag, Integer.toString(count)));
    return () -> host.act(kill);
  }

  /**
   * {@code count} dd loops writing files of {@code fileBytes} in {@code block}-byte writes into
   * {@code dir} (a local folder of the NodeManager), each file removed after it is written; healing
   * kills the loops and their dd, then removes what they left.
   */
  public Installed diskWriters(String runId, String dir, int count, long blockBytes, long fileBytes, boolean direct) {
    if (count < 1 || blockBytes < 1 || fileBytes < blockBytes) {
      throw new IllegalArgumentException("disk load: expected count >= 1, block >= 1 byte, file >= block");
    }
    String tag = tag(runId, "dd");
    List<String> removeFiles = List.of("dd-clean", dir, tag);
    List<String> kill = List.of("pkill", "-KILL", "-f", pattern(tag));
    // the files' entry first, so that healing (newest first) stops the writers before removing them
    ledger.record(Undo.entry("dd files " + dir + "/faultbed-dd-" + tag + "-* (" + runId + ")", runId, null, null,
        removeFiles));
    ledger.record(Undo.entry(count + " dd writers (" + runId + ")", runId, List.of("pgrep", "-f", pattern(tag)), null,
        kill));
    host.check(List.of("dd-load", dir, tag, Integer.toString(count), Long.toString(blockBytes),
        Long.toString(fileBytes), direct ? "direct" : "synced"));
    return () -> {
      host.act(kill);
      host.act(removeFiles);
    };
  }

  /** What marks a load process of this harness and run on its command line. */
  private String tag(String runId, String what) {
    return owner + "-" + runId + "-" + what;
  }

  /** The tag as a pkill pattern that does not match the shell running pkill. */
  private static String pattern(String tag) {
    return "[f]aultbed" + "(=|-dd-)" + tag.replace(".", "[.]");
  }

  /** A probe the fault cannot do without: refused with one line naming the host when it failed. */
  private RemoteHost.Result needed(RemoteHost.Result r, String program) {
    if (!r.ok()) {
      throw new PreconditionFailed("host " + host.target() + ": " + program + " failed (" + r.code() + "): "
          + r.err().strip());
    }
    return r;
  }

}
